import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { AuthUser } from '../auth/auth-user.js';
import { accessFromRole, PermissionsService } from '../auth/permissions.service.js';
import { OidClass, formatOid } from '../catalog/oid.js';
import { checkAttributes, mergeAttributes } from '../objects/versioned/attributes.js';
import { parseCadRef, planLineNumbers, type CadRef, type NumberingMode } from './cad-params.js';
import { attributesEvent, linkEvent, usedEvent } from './cad-audit.js';
import { CadRepository, MAX_LINKS, type CadChangeTx, type CadIteration, type CadLink } from './cad.repository.js';
import type { CadAttributesDto, CadLinkDto, LinkChangeBodyDto, NumberUsedLinksDto } from './dto/cad.dto.js';
import { clip } from '../common/clip.js';
import { checkoutGuard } from '../objects/versioned/checkout-hold.js';

const ASSEMBLY = 'CADASSEMBLY';

/**
 * The number service's attribute purposes: the custom attributes of CAD documents and of the
 * links of their `used` relation, and line numbers on those links. Reading needs read rights in
 * the document's container, changing needs author or manager rights; an object the caller may
 * not read is answered 404 like one that does not exist. Every change runs in one transaction
 * holding the document's master row, the lock the file service's changes take too, and records
 * its audit event there (cad-audit.ts).
 */
@Injectable()
export class CadService {
  constructor(
    private readonly repository: CadRepository,
    private readonly permissions: PermissionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async read(user: AuthUser, text: string, withLinks: boolean): Promise<CadAttributesDto> {
    const ref = parseCadRef(text);
    const doc = await this.readable(user, ref);
    const out = describe(doc);
    if (!withLinks) return out;
    const links = await this.repository.links(doc.iterationId, user);
    return {
      ...out,
      links: links.slice(0, MAX_LINKS).map((l) => linkDto(user, l)),
      truncated: links.length > MAX_LINKS,
    };
  }

  async merge(
    user: AuthUser,
    text: string,
    body: { attributes: unknown; iterate?: boolean; message?: string },
  ): Promise<CadAttributesDto> {
    const ref = parseCadRef(text);
    const change = checkAttributes(body.attributes);
    const note = body.message ?? null;
    return this.changing(user, ref, async (tx, doc) => {
      // A working copy (the caller holds the document checked out) is changed in place.
      const made =
        body.iterate && !doc.working
          ? await tx.newIteration(doc.iterationId, user.id, note, this.config.objectsReleasedStates)
          : null;
      const target = made?.id ?? doc.iterationId;
      const attributes = mergeAttributes(doc.attributes, change);
      await tx.saveAttributes(target, attributes, user.id, note);
      await tx.audit(attributesEvent(user.id, doc, change, made?.iteration ?? null));
      const saved = await tx.findIteration({ kind: 'iteration', text: '', id: target });
      return describe(saved!);
    });
  }

  async changeLink(user: AuthUser, text: string, linkRef: string, body: LinkChangeBodyDto | null): Promise<CadLinkDto> {
    const ref = parseCadRef(text);
    const change = body?.attributes === undefined ? null : checkAttributes(body.attributes);
    return this.changing(user, ref, async (tx, doc) => {
      const links = await tx.links(doc.iterationId, user);
      const link = pickLink(user, links, linkRef, doc);
      const lineNumber = body === null || body.lineNumber === undefined ? link.lineNumber : toBig(body.lineNumber);
      if (lineNumber !== null && lineNumber !== link.lineNumber) {
        const other = links.find((l) => l.id !== link.id && l.lineNumber === lineNumber);
        if (other) {
          const to = mayReadMember(user, other) ? `the link to ${other.memberNumber}` : 'another link';
          throw new ConflictException(
            `lineNumber: ${lineNumber} is the line number of ${to} (link ${other.id}) in ${doc.number}`,
          );
        }
      }
      const updated = {
        lineNumber,
        referenceNumber:
          body === null || body.referenceNumber === undefined ? link.referenceNumber : body.referenceNumber,
        // DELETE (no body) clears the attributes; a POST merges its own into them.
        attributes: body === null ? {} : change === null ? link.attributes : mergeAttributes(link.attributes, change),
      };
      await tx.saveLink(link.id, updated);
      await tx.touchIteration(doc.iterationId, user.id);
      await tx.audit(linkEvent(user.id, doc, link, updated));
      return linkDto(user, { ...link, ...updated });
    });
  }

  async numberUsedLinks(
    user: AuthUser,
    text: string,
    opts: { mode: NumberingMode; start: number; step: number },
  ): Promise<NumberUsedLinksDto> {
    const ref = parseCadRef(text);
    return this.changing(user, ref, async (tx, doc) => {
      if (doc.subtype !== ASSEMBLY) {
        throw new BadRequestException(
          `${doc.number} is a ${doc.subtype ?? 'CAD document without subtype'}, not a ${ASSEMBLY}: only assemblies number the links they use`,
        );
      }
      const links = await tx.links(doc.iterationId, user);
      if (links.length > MAX_LINKS) {
        throw new ConflictException(
          `${doc.number} uses more than ${MAX_LINKS} links; number them in smaller assemblies`,
        );
      }
      const plan = planLineNumbers(links, opts.mode, BigInt(opts.start), BigInt(opts.step));
      await tx.setLineNumbers(plan, opts.mode === 'missing');
      if (plan.length) await tx.touchIteration(doc.iterationId, user.id);
      await tx.audit(usedEvent(user.id, doc, opts, plan.length));
      const numbered = new Map(plan);
      const after = links.map((l) => ({ ...l, lineNumber: numbered.get(l.id) ?? l.lineNumber }));
      after.sort((a, b) => (a.lineNumber! < b.lineNumber! ? -1 : a.lineNumber! > b.lineNumber! ? 1 : 0));
      return {
        ...describe(doc),
        mode: opts.mode,
        start: opts.start,
        step: opts.step,
        numbered: plan.length,
        links: after.map((l) => linkDto(user, l)),
      };
    });
  }

  /** The document, when the caller may read it; 404 otherwise. */
  private async readable(user: AuthUser, ref: CadRef): Promise<CadIteration> {
    const doc = await this.repository.findIteration(ref);
    if (!doc || doc.cls !== OidClass.cadDocument || !(await this.permissions.canRead(user, doc.containerId))) {
      throw notFound(ref);
    }
    // A working copy is its holder's alone.
    if (doc.working && doc.checkedOutById !== user.id) throw notFound(ref);
    return doc;
  }

  /**
   * Runs `work` on the latest iteration the reference names, locked in the change's transaction,
   * when the caller may change it: 404 when they may not read it, 403 when they may only read it,
   * 409 for an iteration that is not the latest. The checks come first, before the change takes
   * its turn and a connection (CadRepository.change); the document is read again under the lock.
   */
  private async changing<T>(
    user: AuthUser,
    ref: CadRef,
    work: (tx: CadChangeTx, doc: CadIteration) => Promise<T>,
  ): Promise<T> {
    const found = await this.repository.findIteration(ref);
    const access =
      found && found.cls === OidClass.cadDocument ? await this.permissions.access(user, found.containerId) : 'none';
    if (!found || access === 'none') throw notFound(ref);
    if (access === 'read') {
      throw new ForbiddenException(`changing ${found.number} needs author or manager rights in its container`);
    }
    return this.repository.change(found.masterId, async (tx) => {
      // Another user's check-out refuses the change (409 naming them); the holder's goes to the working copy.
      const hold = await tx.lockMaster(found.masterId);
      if (checkoutGuard(hold, user.id, found.number) === 'holder') {
        const workingId = await tx.workingCopyId(found.masterId);
        const working =
          workingId === null ? null : await tx.findIteration({ kind: 'iteration', text: '', id: workingId });
        if (!working) throw notFound(ref);
        return work(tx, working);
      }
      // Read again under the lock: a change that committed meanwhile may have made a new iteration.
      const doc = await tx.findIteration(ref);
      if (!doc) throw notFound(ref);
      if (!doc.latest) {
        throw new ConflictException(
          `${ref.text} is iteration ${doc.version}.${doc.iteration}, not the latest: only the latest iteration can be changed`,
        );
      }
      return work(tx, doc);
    });
  }
}

/**
 * The link `linkRef` names: its id, or the number of a member the caller may read that the
 * document uses once. A member they may not read is not found by its number, as one the document
 * does not use.
 */
function pickLink(user: AuthUser, links: CadLink[], linkRef: string, doc: CadIteration): CadLink {
  const matches = links.filter(
    (l) => String(l.id) === linkRef || (l.memberNumber === linkRef && mayReadMember(user, l)),
  );
  if (matches.length === 0) {
    throw new NotFoundException(`${doc.number} ${doc.version}.${doc.iteration} has no used link ${clip(linkRef)}`);
  }
  if (matches.length > 1) {
    throw new ConflictException(
      `link: '${clip(linkRef)}' names ${matches.length} used links of ${doc.number}; give the link id (${matches.map((l) => l.id).join(', ')})`,
    );
  }
  return matches[0];
}

function toBig(n: number | null): bigint | null {
  return n === null ? null : BigInt(n);
}

function notFound(ref: CadRef): NotFoundException {
  return new NotFoundException(
    ref.kind === 'number' ? `no CAD document with number ${clip(ref.text)}` : `no CAD document ${ref.text}`,
  );
}

function describe(doc: CadIteration): CadAttributesDto {
  return {
    oid: formatOid(OidClass.cadDocument, doc.iterationId),
    number: doc.number,
    subtype: doc.subtype,
    version: `${doc.version}.${doc.iteration}`,
    attributes: doc.attributes ?? {},
  };
}

function mayReadMember(user: AuthUser, link: CadLink): boolean {
  return accessFromRole(user, link.memberRole) !== 'none';
}

/** A link as the caller may see it: a member in a container they may not read is shown restricted, as structure shows it. */
function linkDto(user: AuthUser, l: CadLink): CadLinkDto {
  return {
    id: l.id,
    member: mayReadMember(user, l)
      ? {
          oid: l.memberIterationId === null ? null : formatOid(OidClass.cadDocument, l.memberIterationId),
          number: l.memberNumber,
        }
      : { oid: null, number: null, restricted: true },
    quantity: l.quantity,
    unit: l.unit,
    lineNumber: l.lineNumber === null ? null : Number(l.lineNumber),
    referenceNumber: l.referenceNumber,
    attributes: l.attributes ?? {},
  };
}
