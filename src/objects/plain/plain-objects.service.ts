import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { attributeChange } from '../../audit/audit-detail.js';
import { recordAudit } from '../../audit/audit.repository.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { accessFromRole } from '../../auth/permissions.service.js';
import type { Catalog } from '../../catalog/catalog.js';
import { CatalogService } from '../../catalog/catalog.service.js';
import { formatOid, parseOid } from '../../catalog/oid.js';
import { clip } from '../../common/clip.js';
import type { DeletedPlainObjectDto, PlainObjectDto, UpdatePlainObjectDto } from '../dto/catalog-object.dto.js';
import { GENERATE, type CreateObjectDto } from '../dto/object-request.dto.js';
import {
  checkProps,
  describeLinks,
  linkSides,
  LINKS_CHECKED,
  mayReadIn,
  mayWriteIn,
  propsView,
  referencesView,
  refuseHeldOwners,
  refuseLockedLinks,
  resolveReferences,
} from './catalog-input.js';
import type { PlainType } from '../../catalog/object-types.js';
import type { CatalogRowsTx, PlainRecord } from './catalog-rows.repository.js';
import { generate } from '../versioned/generate-number.js';
import {
  describeReferrers,
  referenceKeys,
  refuseLockedReferrers,
  removeReferences,
  stillNamed,
} from '../links/object-references.js';
import { ObjectsRepository } from '../versioned/objects.repository.js';

/** How a request names a plain object: its OID, or a number of its class (`type`). */
export type PlainRef =
  { kind: 'oid'; text: string; cls: string; id: number } | { kind: 'number'; text: string; classes: readonly string[] };

/** Fields of a create that only versioned objects have. */
const VERSIONED_ONLY = ['subtype', 'title', 'attributes', 'note'] as const;

/**
 * Objects of the catalog's plain classes (storage `object`: views, workflow processes and work
 * items, organisations, queues …), kept in `objects`: created in a container (or, by
 * administrators, outside any), read, changed and deleted through /objects. Each change is one
 * transaction that records its audit event.
 */
@Injectable()
export class PlainObjectsService {
  constructor(
    private readonly repo: ObjectsRepository,
    private readonly catalog: CatalogService,
  ) {}

  /** The plain object a reference names (an OID of a plain class, or a number with `type` one), else null. */
  async refOf(text: string, type: string | undefined): Promise<PlainRef | null> {
    const catalog = await this.catalog.current();
    if (type !== undefined) {
      const cls = catalog.findClass(type);
      if (!cls || cls.storage !== 'object') return null;
      if (!text.startsWith('OR:')) return { kind: 'number', text, classes: cls.classValues };
      const oid = parseOid(text);
      if (!oid || !catalog.isA(oid.cls, type)) {
        throw new BadRequestException(`type ${type} contradicts the OID ${clip(text)}`);
      }
      return { kind: 'oid', text, cls: oid.cls, id: oid.id };
    }
    const oid = text.startsWith('OR:') ? parseOid(text) : null;
    if (oid && catalog.findClass(oid.cls)?.storage === 'object') return { kind: 'oid', text, ...oid };
    return null;
  }

  async create(user: AuthUser, body: CreateObjectDto, type: PlainType): Promise<PlainObjectDto> {
    const catalog = await this.catalog.current();
    const cls = type.cls.name;
    for (const field of VERSIONED_ONLY) {
      if (body[field] !== undefined) {
        throw new BadRequestException(`${field} is only for versioned objects; a ${cls} keeps its values in props`);
      }
    }
    const given = { ...(body.description !== undefined && { description: body.description }), ...body.props };
    const props = dropNulls(checkProps(catalog, type, given));
    return this.repo.change(async (tx) => {
      let container: { id: number; name: string } | null = null;
      if (body.container === undefined) {
        if (!user.admin) {
          throw new ForbiddenException(
            `a ${cls} outside containers is read by everyone and made by administrators only; give container`,
          );
        }
      } else {
        const found = await tx.findContainer(body.container, user.id);
        const access = found ? accessFromRole(user, found.role) : 'none';
        if (!found || access === 'none') {
          throw new NotFoundException(`container: no container named '${clip(body.container)}'`);
        }
        if (access === 'read') {
          throw new ForbiddenException(
            `creating objects needs author or manager rights in container '${found.name}'; you may only read there`,
          );
        }
        container = found;
      }
      let number = body.number ?? null;
      if (number === GENERATE) {
        if (!container) throw new BadRequestException(`number: "${GENERATE}" needs a container (its numbering rule)`);
        number = await generate(tx, container, { cls, table: 'objects' });
      }
      if (body.references) Object.assign(props, dropNulls(await refs(tx.rows, catalog, user, type, body.references)));
      const id = await tx.rows.createPlain({
        cls,
        softType: type.softType,
        number,
        name: body.name,
        state: body.state ?? null,
        containerId: container?.id ?? null,
        props,
        userId: user.id,
      });
      if (id === null) {
        throw new ConflictException(`number: a ${cls} with number ${number} exists already; nothing was created`);
      }
      await recordAudit(tx.audit, {
        userId: user.id,
        action: 'objects.create',
        objectClass: cls,
        objectId: id,
        objectNumber: number ?? body.name,
        containerId: container?.id ?? null,
        detail: { type: type.softType ?? cls, state: body.state ?? null, generated: body.number === GENERATE },
      });
      const [row] = await tx.rows.findPlain({ id, cls }, user.id);
      return describePlain(catalog, row);
    });
  }

  async read(user: AuthUser, ref: PlainRef): Promise<PlainObjectDto> {
    const catalog = await this.catalog.current();
    return describePlain(catalog, await findReadable(this.repo.rows(), user, ref));
  }

  /** PATCH: plain objects only; versioned ones change through new iterations and their lifecycle. */
  async updateNamed(user: AuthUser, text: string, type: string | undefined, body: UpdatePlainObjectDto) {
    const ref = await this.refOf(text, type);
    if (!ref) {
      throw new BadRequestException(
        `${clip(text)}: only plain objects (views, workflow objects, organisations …, named by OID or by number with ` +
          'their type) are changed in place; versioned objects change through /iterations and /state',
      );
    }
    return this.update(user, ref, body);
  }

  async update(user: AuthUser, ref: PlainRef, body: UpdatePlainObjectDto): Promise<PlainObjectDto> {
    const catalog = await this.catalog.current();
    return this.repo.change(async (tx) => {
      const found = await changeable(tx.rows, user, ref);
      const type = typeOf(catalog, found);
      const change = body.props === undefined ? {} : checkProps(catalog, type, body.props);
      // The targets of references are held (FOR SHARE) before the object itself is locked: a
      // deletion locks its object, then the objects naming it, so both take their locks in the
      // same order.
      const references = body.references === undefined ? {} : await refs(tx.rows, catalog, user, type, body.references);
      const cur = await lockAgain(tx.rows, user, found, ref);
      const props = { ...cur.props };
      for (const [k, v] of Object.entries({ ...change, ...references })) {
        if (v === null) delete props[k];
        else props[k] = v;
      }
      const name = body.name ?? cur.name;
      const state = body.state === undefined ? cur.state : body.state;
      await tx.rows.updatePlain(cur.id, { name, state, props }, user.id);
      await recordAudit(tx.audit, {
        userId: user.id,
        action: 'objects.update',
        objectClass: cur.cls,
        objectId: cur.id,
        objectNumber: cur.number ?? cur.name,
        containerId: cur.containerId,
        detail: {
          ...(name !== cur.name && { name: { from: cur.name, to: name } }),
          ...(state !== cur.state && { state: { from: cur.state, to: state } }),
          ...(Object.keys({ ...change, ...references }).length && {
            props: attributeChange(cur.props, { ...change, ...references }).attributes,
          }),
        },
      });
      const [row] = await tx.rows.findPlain({ id: cur.id, cls: cur.cls }, user.id);
      return describePlain(catalog, row);
    });
  }

  async remove(user: AuthUser, ref: PlainRef, force: boolean): Promise<DeletedPlainObjectDto> {
    const catalog = await this.catalog.current();
    return this.repo.change(async (tx) => {
      // FOR UPDATE: a link or a reference to it being stored (holding it FOR SHARE) commits first, and is seen.
      const cur = await lockAgain(tx.rows, user, await changeable(tx.rows, user, ref), ref);
      const oid = formatOid(cur.cls, cur.id);
      const links = await tx.rows.findLinks({ sides: linkSides(catalog, 'object', [cur.id]) }, user.id, LINKS_CHECKED);
      const keys = referenceKeys(catalog, { storage: 'object', cls: cur.cls, id: cur.id });
      const referrers = await tx.refs.findReferrers(keys, cur.id, user.id, force);
      const label = cur.number ?? cur.name ?? oid;
      if ((links.length || referrers.length) && !force) {
        throw stillNamed(label, {
          ...(links.length > 0 && { links: describeLinks(user, links) }),
          ...(referrers.length > 0 && { referrers: describeReferrers(user, referrers) }),
        });
      }
      refuseLockedLinks(user, links);
      refuseLockedReferrers(user, referrers);
      await refuseHeldOwners(tx.rows, catalog, user, links);
      const removed = await tx.rows.deleteLinks(links.map((l) => l.id));
      const references = await removeReferences(tx, user, referrers, keys, oid);
      await tx.rows.deletePlain(cur.id);
      await recordAudit(tx.audit, {
        userId: user.id,
        action: 'objects.delete',
        objectClass: cur.cls,
        objectId: cur.id,
        objectNumber: label,
        containerId: cur.containerId,
        detail: { state: cur.state, force, links: removed, references },
      });
      return { oid, class: cur.cls, number: cur.number, links: removed, references };
    });
  }
}

/** The object the reference names, readable (404) and changeable (403) by the caller; not yet locked. */
async function changeable(rows: CatalogRowsTx, user: AuthUser, ref: PlainRef): Promise<PlainRecord> {
  const found = await findReadable(rows, user, ref);
  if (!mayWriteIn(user, found.containerId, found.memberRole)) {
    throw new ForbiddenException(
      found.containerId === null
        ? `${found.cls} objects outside containers are changed by administrators only`
        : `changing it needs author or manager rights in container '${found.containerName}'; you may only read there`,
    );
  }
  return found;
}

/** The object locked for a change (FOR UPDATE) and read again: what the change applies to. */
async function lockAgain(rows: CatalogRowsTx, user: AuthUser, found: PlainRecord, ref: PlainRef) {
  await rows.lockPlain(found.id);
  const [again] = await rows.findPlain({ id: found.id, cls: found.cls }, user.id);
  if (!again) throw new NotFoundException(`no object "${clip(ref.text)}"`);
  return again;
}

/** The one plain object the reference names that the caller may read. */
async function findReadable(rows: CatalogRowsTx, user: AuthUser, ref: PlainRef): Promise<PlainRecord> {
  const found = await rows.findPlain(
    ref.kind === 'oid' ? { id: ref.id, cls: ref.cls } : { number: ref.text, classes: ref.classes },
    user.id,
  );
  const visible = found.filter((r) => mayReadIn(user, r.containerId, r.memberRole));
  if (visible.length === 0) throw new NotFoundException(`no object "${clip(ref.text)}"`);
  if (visible.length > 1) {
    throw new BadRequestException(
      `several objects carry the number "${clip(ref.text)}" (${visible.map((r) => r.cls).join(', ')}): give type`,
    );
  }
  return visible[0];
}

function refs(rows: CatalogRowsTx, catalog: Catalog, user: AuthUser, type: PlainType, input: Record<string, unknown>) {
  return resolveReferences(rows, catalog, user, type.cls, input);
}

function typeOf(catalog: Catalog, r: PlainRecord): PlainType {
  const cls = catalog.findClass(r.cls);
  if (!cls) throw new ConflictException(`${r.cls} is no longer a class of the catalog: its objects cannot be changed`);
  return { cls, softType: r.softType };
}

function dropNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

export function describePlain(catalog: Catalog, r: PlainRecord): PlainObjectDto {
  const cls = catalog.findClass(r.cls);
  const type = cls ? { cls, softType: r.softType } : null;
  return {
    oid: formatOid(r.cls, r.id),
    type: r.softType ?? r.cls,
    class: r.cls,
    softType: r.softType,
    number: r.number,
    name: r.name,
    state: r.state,
    container:
      r.containerId === null ? null : { oid: formatOid(r.containerClass!, r.containerId), name: r.containerName! },
    props: type ? propsView(catalog, type, r.props) : (r.props ?? {}),
    references: cls ? referencesView(catalog, cls, r.props) : {},
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    modifiedBy: r.modifiedBy,
    modifiedAt: r.modifiedAt,
  };
}
