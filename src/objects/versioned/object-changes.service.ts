import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { recordAudit } from '../../audit/audit.repository.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { accessFromRole } from '../../auth/permissions.service.js';
import type { Catalog } from '../../catalog/catalog.js';
import { CatalogService } from '../../catalog/catalog.service.js';
import { formatOid, masterClassOf } from '../../catalog/oid.js';
import { objectAudit } from './object-audit.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { mergeAttributes, type AttributeValue } from './attributes.js';
import { clip } from '../../common/clip.js';
import type { DeletedObjectDto, ObjectDto } from '../dto/object-response.dto.js';
import {
  GENERATE,
  type CreateObjectDto,
  type NewIterationDto,
  type NewRevisionDto,
} from '../dto/object-request.dto.js';
import { transitionProblem } from '../../config/lifecycle.js';
import { iterationLabel, lockForChange, mayRead, mayWrite } from './object-access.js';
import { describeObject } from './object-answers.js';
import type { LinkRoles, UsingLink } from './object-change.repository.js';
import {
  describeLinks,
  linkSides,
  LINKS_CHECKED,
  refuseHeldOwners,
  refuseLockedLinks,
} from '../plain/catalog-input.js';
import { heldBy } from './checkout-hold.js';
import { plainType } from '../../catalog/object-types.js';
import {
  describeReferrers,
  referenceKeys,
  refuseLockedReferrers,
  removeReferences,
  stillNamed,
} from '../links/object-references.js';
import type { ObjectRecord } from './object-records.repository.js';
import type { DeletedPlainObjectDto, PlainObjectDto } from '../dto/catalog-object.dto.js';
import { generatedNumber } from './generate-number.js';
import { checkObjectAttributes, checkSubtype, checkTitle, nextVersion, resolveObjectType } from './object-input.js';
import { parseVersionedRef, type ObjectRef } from '../../catalog/object-ref.js';
import { ObjectsRepository } from './objects.repository.js';
import { PlainObjectsService } from '../plain/plain-objects.service.js';

/**
 * Creating, iterating, revising, promoting and deleting documents, parts and CAD documents. Each
 * change is one transaction holding the object's master row (the lock the files and numbers
 * services take too), and records its audit event in that transaction.
 */
@Injectable()
export class ObjectChangesService {
  constructor(
    private readonly repo: ObjectsRepository,
    private readonly catalog: CatalogService,
    private readonly plain: PlainObjectsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A versioned object (document, part, change object …) or a plain one (a view, a workflow process …). */
  async create(user: AuthUser, body: CreateObjectDto): Promise<ObjectDto | PlainObjectDto> {
    const catalog = await this.catalog.current();
    const plain = plainType(catalog, body.type);
    if (plain) return this.plain.create(user, body, plain);
    const type = resolveObjectType(catalog, body.type);
    if (body.container === undefined) throw new BadRequestException(`container is required for ${type.cls}`);
    if (body.number === undefined) throw new BadRequestException(`number is required for ${type.cls}`);
    for (const field of ['state', 'props', 'references'] as const) {
      if (body[field] !== undefined) {
        throw new BadRequestException(
          `${field} is only for plain objects; ${type.cls} objects start in the lifecycle's first state and keep attributes`,
        );
      }
    }
    const { container: containerName, number: givenNumber } = body;
    const subtype = checkSubtype(type.cls, body.subtype);
    checkTitle(type.cls, body.title);
    const change = body.attributes === undefined ? {} : checkObjectAttributes(catalog, type, body.attributes);
    const attributes = mergeAttributes({}, change);
    const state = this.config.objectsLifecycle.initial;
    return this.repo.change(async (tx) => {
      const container = await tx.findContainer(containerName, user.id);
      const access = container ? accessFromRole(user, container.role) : 'none';
      if (!container || access === 'none') {
        throw new NotFoundException(`container: no container named '${clip(containerName)}'`);
      }
      if (access === 'read') {
        throw new ForbiddenException(
          `creating objects needs author or manager rights in container '${container.name}'; you may only read there`,
        );
      }
      const fields = {
        ...type,
        subtype,
        name: body.name,
        containerId: container.id,
        state,
        title: body.title ?? null,
        description: body.description ?? null,
        note: body.note ?? null,
        attributes,
        userId: user.id,
      };
      let number: string;
      let created: ObjectRecord | null;
      if (givenNumber === GENERATE) {
        // The number is reserved and the object inserted in one statement: the rule's row, which
        // concurrent creates and reservations wait for, is held as briefly as the create allows.
        const made = await tx.createNumberedObject(fields, { cls: type.cls, table: 'masters' });
        number = generatedNumber(container, type.cls, made.reservation);
        created = made.created;
      } else {
        number = givenNumber;
        created = await tx.createObject({ ...fields, number });
      }
      if (!created) {
        throw new ConflictException(`number: a ${type.cls} with number ${number} exists already; nothing was created`);
      }
      await recordAudit(tx.audit, {
        userId: user.id,
        action: 'objects.create',
        objectClass: masterClassOf(type.cls),
        objectId: created.masterId,
        objectNumber: number,
        containerId: container.id,
        detail: { type: type.softType ?? type.cls, version: 'A.1', state, generated: body.number === GENERATE },
      });
      return describeObject(created);
    });
  }

  async iterate(user: AuthUser, text: string, type: string | undefined, body: NewIterationDto): Promise<ObjectDto> {
    const catalog = await this.catalog.current();
    const ref = parseVersionedRef(catalog, text, type);
    return this.repo.change(async (tx) => {
      const cur = await lockForChange(tx, user, ref);
      checkTitle(cur.cls, body.title);
      const change = body.attributes === undefined ? null : checkObjectAttributes(catalog, cur, body.attributes);
      // The holder of a check-out changes the working copy in place: check-in makes it the new iteration.
      const made = cur.working
        ? { id: cur.iterationId }
        : await tx.newIteration(cur.iterationId, {
            userId: user.id,
            note: body.note ?? null,
            released: this.config.objectsReleasedStates,
          });
      const fields: {
        title?: string | null;
        description?: string | null;
        attributes?: Record<string, AttributeValue>;
      } = {};
      if (body.title !== undefined) fields.title = body.title;
      if (body.description !== undefined) fields.description = body.description;
      if (change) fields.attributes = mergeAttributes(cur.attributes, change);
      if (cur.working && body.note !== undefined) Object.assign(fields, { note: body.note });
      if (Object.keys(fields).length || cur.working) await tx.changeIteration(made.id, fields, user.id);
      if (body.name !== undefined && body.name !== cur.name) await tx.renameMaster(cur.masterId, body.name);
      const after = (await tx.findInMaster(cur.masterId, cur.working ? 'working' : 'latest', user.id))!;
      await recordAudit(tx.audit, {
        ...objectAudit(user, 'objects.iterate', cur),
        detail: { from: iterationLabel(cur), to: iterationLabel(after), changed: changedFields(cur, after) },
      });
      return describeObject(after);
    });
  }

  async revise(user: AuthUser, text: string, type: string | undefined, body: NewRevisionDto): Promise<ObjectDto> {
    const state = this.config.objectsLifecycle.initial;
    const ref = parseVersionedRef(await this.catalog.current(), text, type);
    return this.repo.change(async (tx) => {
      const cur = await lockForChange(tx, user, ref, { latestOnly: true, holder: { refuse: 'a revision' } });
      const highest = await tx.highestVersion(cur.masterId);
      const version = nextVersion(highest);
      if (version === null) {
        throw new ConflictException(`${cur.number} has version ${highest}: no version follows it (A to ZZZ)`);
      }
      await tx.newIteration(cur.iterationId, {
        userId: user.id,
        note: body.note ?? null,
        version,
        state,
        released: this.config.objectsReleasedStates,
      });
      const after = (await tx.findInMaster(cur.masterId, 'latest', user.id))!;
      await recordAudit(tx.audit, {
        ...objectAudit(user, 'objects.revise', cur),
        detail: { from: iterationLabel(cur), to: iterationLabel(after), state: { from: cur.state, to: state } },
      });
      return describeObject(after);
    });
  }

  async setState(user: AuthUser, text: string, type: string | undefined, state: string): Promise<ObjectDto> {
    const lifecycle = this.config.objectsLifecycle;
    const ref = parseVersionedRef(await this.catalog.current(), text, type);
    if (!lifecycle.transitions.has(state)) {
      throw new BadRequestException(
        `state: ${state} is not a state of the lifecycle (${[...lifecycle.transitions.keys()].join(', ')})`,
      );
    }
    return this.repo.change(async (tx) => {
      const cur = await lockForChange(tx, user, ref, { latestOnly: true, holder: { refuse: 'a state change' } });
      const problem = transitionProblem(lifecycle, cur.state, state);
      if (problem) throw new ConflictException(`${cur.number} ${iterationLabel(cur)}: ${problem}`);
      await tx.changeIteration(cur.iterationId, { state }, user.id);
      await recordAudit(tx.audit, {
        ...objectAudit(user, 'objects.state', cur),
        detail: { from: cur.state, to: state, version: iterationLabel(cur) },
      });
      return describeObject((await tx.findInMaster(cur.masterId, 'latest', user.id))!);
    });
  }

  /** Deletes a versioned object or a plain one, whichever the reference names. */
  async removeAny(
    user: AuthUser,
    text: string,
    type: string | undefined,
    force: boolean,
  ): Promise<DeletedObjectDto | DeletedPlainObjectDto> {
    const plain = await this.plain.refOf(text, type);
    if (plain) return this.plain.remove(user, plain, force);
    return this.remove(user, parseVersionedRef(await this.catalog.current(), text, type), force);
  }

  async remove(user: AuthUser, ref: ObjectRef, force: boolean): Promise<DeletedObjectDto> {
    const catalog = await this.catalog.current();
    const roles = linkRoles(catalog);
    return this.repo.change(async (tx) => {
      // FOR UPDATE: a usage link, catalog link or reference to it being stored (holding the master
      // FOR KEY SHARE or FOR SHARE) commits first and is counted below.
      const cur = await lockForChange(tx, user, ref, {
        latestOnly: false,
        forDelete: true,
        holder: { refuse: 'a deletion' },
      });
      const users = await tx.usersOf(cur.masterId, user.id);
      const iterationIds = await tx.rows.iterationIds(cur.masterId);
      const sides = [...linkSides(catalog, 'iteration', iterationIds), ...linkSides(catalog, 'master', [cur.masterId])];
      const links = await tx.rows.findLinks({ sides }, user.id, LINKS_CHECKED);
      const keys = referenceKeys(catalog, { storage: 'iteration', cls: cur.cls, masterId: cur.masterId, iterationIds });
      const referrers = await tx.refs.findReferrers(keys, 0, user.id, force);
      if ((users.length || links.length || referrers.length) && !force) {
        throw stillNamed(cur.number, {
          ...(users.length > 0 && { users: describeUsers(user, users) }),
          ...(links.length > 0 && { links: describeLinks(user, links) }),
          ...(referrers.length > 0 && { referrers: describeReferrers(user, referrers) }),
        });
      }
      const locked = users.filter((u) => !mayWrite(user, u.memberRole));
      if (locked.length) {
        throw new ForbiddenException(
          `force=true would remove usage links of objects using ${cur.number} in containers where you may not ` +
            `change objects (${locked.length} link${locked.length === 1 ? '' : 's'}); nothing was deleted`,
        );
      }
      refuseLockedLinks(user, links);
      refuseLockedReferrers(user, referrers);
      // The usage links of other objects using it, and the catalog links others own naming it, are
      // those objects' content: another user's check-out of one refuses the deletion.
      const held = users.find((u) => u.holderId !== null && u.holderId !== user.id);
      if (held) throw heldBy(held.parentNumber, held.holder ?? `user ${held.holderId}`);
      await refuseHeldOwners(tx.rows, catalog, user, links);
      const masterOid = formatOid(masterClassOf(cur.cls), cur.masterId);
      const references = await removeReferences(tx, user, referrers, keys, masterOid);
      const counts = await tx.deleteObject(cur.masterId, roles);
      const result = { ...counts, usedBy: users.length, references };
      await recordAudit(tx.audit, {
        ...objectAudit(user, 'objects.delete', cur),
        detail: { latest: iterationLabel(cur), state: cur.state, force, ...result },
      });
      return { masterOid, number: cur.number, class: cur.cls, ...result };
    });
  }
}

/** The fields a new iteration changed: name, title, description and `attributes.<name>`. */
function changedFields(
  before: { name: string; title: string | null; description: string | null; attributes: Record<string, unknown> },
  after: typeof before,
): string[] {
  const out = (['name', 'title', 'description'] as const).filter((f) => before[f] !== after[f]);
  const a = before.attributes ?? {};
  const b = after.attributes ?? {};
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return [...out, ...names.filter((n) => a[n] !== b[n]).map((n) => `attributes.${n}`)];
}

/** The objects using one, by number where the caller may read them, counted where not. */
function describeUsers(user: AuthUser, users: UsingLink[]): string {
  const shown = users.filter((u) => mayRead(user, u.memberRole));
  const named = [...new Set(shown.map((u) => `${u.parentNumber} ${u.version}.${u.iteration}`))];
  const hidden = users.length - shown.length;
  const parts = [...named.slice(0, 10), ...(named.length > 10 ? [`${named.length - 10} more`] : [])];
  if (hidden) parts.push(`${hidden} link${hidden === 1 ? '' : 's'} in containers you cannot read`);
  return parts.join(', ');
}

/** Which catalog link classes keep, in role A or B, the id of an iteration or of a master. */
export function linkRoles(catalog: Catalog): LinkRoles {
  const roles: LinkRoles = { iterationA: [], iterationB: [], masterA: [], masterB: [] };
  for (const c of catalog.listClasses()) {
    if (!c.roles || c.storage !== 'link') continue;
    for (const side of ['a', 'b'] as const) {
      const storage = catalog.findClass(c.roles[side])?.storage;
      const key = side === 'a' ? 'A' : 'B';
      if (storage === 'iteration') roles[`iteration${key}`].push(c.name);
      if (storage === 'master') roles[`master${key}`].push(c.name);
    }
  }
  return roles;
}
