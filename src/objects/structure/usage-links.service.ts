import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { recordAudit } from '../../audit/audit.repository.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { OidClass, parseOid } from '../../catalog/oid.js';
import { objectAudit } from '../versioned/object-audit.js';
import { clip } from '../../common/clip.js';
import type { ObjectUseDto } from '../dto/object-response.dto.js';
import type { AddUseDto, ChangeUseDto } from '../dto/usage-link-request.dto.js';
import { iterationLabel, lockForChange, mayRead } from '../versioned/object-access.js';
import { describeUse } from '../versioned/object-answers.js';
import type { ObjectChangeTx } from '../versioned/object-change.repository.js';
import type { ObjectRef } from '../../catalog/object-ref.js';
import type { ObjectRecord } from '../versioned/object-records.repository.js';
import { ObjectsRepository } from '../versioned/objects.repository.js';
import type { LinkRecord, LinkValues } from './usage-links.repository.js';

const ASSEMBLY = 'CADASSEMBLY';
const LINK_CLASS: Record<string, string> = {
  [OidClass.part]: OidClass.partUsageLink,
  [OidClass.cadDocument]: OidClass.memberLink,
};

/**
 * The usage links of a part (WTPartUsageLink to parts) or a CAD assembly (EPMMemberLink to CAD
 * documents), on the object's latest iteration. Like a file change, a link change applies to the
 * latest iteration in place unless `iterate` asks for a new iteration first. Adding a link is
 * refused when the member's structure already contains the object (a cycle); adds are serialised
 * so that two of them cannot close one together.
 */
@Injectable()
export class UsageLinksService {
  constructor(
    private readonly repo: ObjectsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async add(user: AuthUser, ref: ObjectRef, body: AddUseDto): Promise<ObjectUseDto> {
    return this.repo.change(async (tx) => {
      await tx.links.lockStructures();
      const parent = await lockForChange(tx, user, ref);
      const linkClass = usingClass(parent);
      const member = await findMember(tx, user, body.member, parent.cls);
      if (member.masterId === parent.masterId) throw new BadRequestException('member: an object cannot use itself');
      if (await tx.links.contains(member.masterId, parent.masterId)) {
        throw new ConflictException(
          `member: ${member.number} contains ${parent.number} in its structure; using it would make a cycle`,
        );
      }
      // A working copy (the caller holds the object checked out) is changed in place: it is the new iteration.
      const iterate = !!body.iterate && !parent.working;
      const target = iterate ? await this.iterate(tx, user, parent) : parent;
      const values = { quantity: body.quantity ?? 1, unit: body.unit ?? 'ea', lineNumber: toBig(body.lineNumber) };
      const existing = await tx.links.list(target.iterationId, user.id);
      // Adds are serialised by lockStructures: the count read here is the count the add makes one more of.
      if (existing.length >= this.config.objectsMaxLinks) {
        throw new ConflictException(
          `${parent.number} ${iterationLabel(target)} has ${existing.length} usage links, the most one iteration may ` +
            `hold (OBJECTS_MAX_LINKS=${this.config.objectsMaxLinks}); nothing was added`,
        );
      }
      checkLineNumber(user, existing, values, null, parent.number);
      const id = await tx.links.add(target.iterationId, linkClass, member.masterId, values);
      if (!iterate) await tx.changeIteration(target.iterationId, {}, user.id);
      const link = (await tx.links.list(target.iterationId, user.id)).find((l) => l.id === id)!;
      await recordAudit(tx.audit, {
        ...objectAudit(user, 'objects.uses.add', parent),
        detail: {
          link: id,
          member: member.number,
          ...plain(values),
          version: iterationLabel(target),
          iterated: iterate,
        },
      });
      return describeUse(user, link, { cls: parent.cls, iterationId: target.iterationId });
    });
  }

  async update(user: AuthUser, ref: ObjectRef, linkRef: string, body: ChangeUseDto): Promise<ObjectUseDto> {
    return this.repo.change(async (tx) => {
      const { parent, target, link, iterated } = await this.linkForChange(tx, user, ref, linkRef, !!body.iterate);
      const before = { quantity: link.quantity, unit: link.unit, lineNumber: link.lineNumber };
      const values = {
        quantity: body.quantity ?? link.quantity,
        unit: body.unit ?? link.unit,
        lineNumber: body.lineNumber === undefined ? link.lineNumber : toBig(body.lineNumber),
      };
      checkLineNumber(user, await tx.links.list(target.iterationId, user.id), values, link.id, parent.number);
      await tx.links.update(link.id, values);
      if (!iterated) await tx.changeIteration(target.iterationId, {}, user.id);
      await recordAudit(tx.audit, {
        ...objectAudit(user, 'objects.uses.update', parent),
        detail: {
          link: link.id,
          member: link.memberNumber,
          before: plain(before),
          after: plain(values),
          version: iterationLabel(target),
          iterated,
        },
      });
      return describeUse(user, { ...link, ...values }, { cls: parent.cls, iterationId: target.iterationId });
    });
  }

  async remove(user: AuthUser, ref: ObjectRef, linkRef: string, iterate: boolean): Promise<ObjectUseDto> {
    return this.repo.change(async (tx) => {
      const { parent, target, link, iterated } = await this.linkForChange(tx, user, ref, linkRef, iterate);
      await tx.links.remove(link.id);
      if (!iterated) await tx.changeIteration(target.iterationId, {}, user.id);
      await recordAudit(tx.audit, {
        ...objectAudit(user, 'objects.uses.remove', parent),
        detail: {
          link: link.id,
          member: link.memberNumber,
          ...plain(link),
          version: iterationLabel(target),
          iterated,
        },
      });
      return describeUse(user, link, { cls: parent.cls, iterationId: target.iterationId });
    });
  }

  /**
   * The object (locked), the iteration the change applies to (a new one with `iterate`) and the
   * link there: with `iterate`, the copy of the link the reference names.
   */
  private async linkForChange(tx: ObjectChangeTx, user: AuthUser, ref: ObjectRef, linkRef: string, iterate: boolean) {
    const parent = await lockForChange(tx, user, ref);
    usingClass(parent);
    const named = pickLink(user, await tx.links.list(parent.iterationId, user.id), linkRef, parent);
    // A working copy (the caller holds the object checked out) is changed in place.
    if (!iterate || parent.working) return { parent, target: parent, link: named, iterated: false };
    const made = await tx.newIteration(parent.iterationId, {
      userId: user.id,
      released: this.config.objectsReleasedStates,
    });
    const target = (await tx.findInMaster(parent.masterId, 'latest', user.id))!;
    const copy = made.links.get(named.id)!;
    const link = (await tx.links.list(made.id, user.id)).find((l) => l.id === copy)!;
    return { parent, target, link, iterated: true };
  }

  private async iterate(tx: ObjectChangeTx, user: AuthUser, parent: ObjectRecord): Promise<ObjectRecord> {
    await tx.newIteration(parent.iterationId, { userId: user.id, released: this.config.objectsReleasedStates });
    return (await tx.findInMaster(parent.masterId, 'latest', user.id))!;
  }
}

/** The link class the object's links have; 400 for objects that use nothing. */
function usingClass(o: ObjectRecord): string {
  if (o.cls === OidClass.part || (o.cls === OidClass.cadDocument && o.subtype === ASSEMBLY)) return LINK_CLASS[o.cls];
  const what = o.cls === OidClass.cadDocument ? `a ${o.subtype ?? 'CAD document'}` : `a ${o.cls}`;
  throw new BadRequestException(`${o.number} is ${what}: only parts and CAD assemblies use other objects`);
}

/** The member a request names (a number or an OID of the parent's class), if the caller may read it. */
async function findMember(tx: ObjectChangeTx, user: AuthUser, text: string, cls: string): Promise<ObjectRecord> {
  let ref: ObjectRef;
  if (text.startsWith('OR:')) {
    const oid = parseOid(text);
    if (!oid) throw new BadRequestException(`member: "${clip(text)}" is not an OID (OR:<class>:<id>)`);
    if (oid.cls !== cls) throw new BadRequestException(`member: a ${cls} uses objects of class ${cls}, not ${oid.cls}`);
    ref = { kind: 'oid', text, cls, id: oid.id };
  } else {
    if (text === '' || text.length > 200)
      throw new BadRequestException('member must be a number or OID of 1 to 200 characters');
    ref = { kind: 'number', text, cls, number: text };
  }
  const found = (await tx.findByRef(ref, user.id)).filter((r) => mayRead(user, r.memberRole));
  if (!found.length) throw new NotFoundException(`member: no ${cls} "${clip(text)}"`);
  return found[0];
}

/** The link `text` names among the links the iteration has: an id, an OID, or a member's number used once. */
function pickLink(user: AuthUser, links: LinkRecord[], text: string, parent: ObjectRecord): LinkRecord {
  const oid = text.startsWith('OR:') ? parseOid(text) : null;
  const matches = links.filter((l) =>
    oid
      ? oid.cls === l.cls && oid.id === l.id
      : String(l.id) === text || (l.memberNumber === text && mayRead(user, l.memberRole)),
  );
  if (matches.length === 0) {
    throw new NotFoundException(`${parent.number} ${iterationLabel(parent)} has no usage link "${clip(text)}"`);
  }
  if (matches.length > 1) {
    throw new ConflictException(
      `link: ${parent.number} uses ${clip(text)} ${matches.length} times; give the link id (${matches.map((l) => l.id).join(', ')})`,
    );
  }
  return matches[0];
}

/** Line numbers are unique among the links of one iteration. */
function checkLineNumber(
  user: AuthUser,
  links: LinkRecord[],
  values: LinkValues,
  self: number | null,
  parentNumber: string,
): void {
  if (values.lineNumber === null) return;
  const other = links.find((l) => l.id !== self && l.lineNumber === values.lineNumber);
  if (other) {
    const to = mayRead(user, other.memberRole) ? `the link to ${other.memberNumber}` : 'another link';
    throw new ConflictException(
      `lineNumber: ${values.lineNumber} is the line number of ${to} (link ${other.id}) in ${parentNumber}`,
    );
  }
}

function toBig(n: number | null | undefined): bigint | null {
  return n === null || n === undefined ? null : BigInt(n);
}

/** Link values as JSON can hold them (audit detail). */
function plain(v: LinkValues): { quantity: number; unit: string; lineNumber: number | null } {
  return { quantity: v.quantity, unit: v.unit, lineNumber: v.lineNumber === null ? null : Number(v.lineNumber) };
}
