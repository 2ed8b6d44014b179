import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { recordAudit } from '../../audit/audit.repository.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { PermissionsService } from '../../auth/permissions.service.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogClass } from '../../catalog/catalog-model.js';
import { CatalogService } from '../../catalog/catalog.service.js';
import { formatOid, parseOid } from '../../catalog/oid.js';
import { clip } from '../../common/clip.js';
import type {
  CatalogLinkDto,
  CatalogLinkListDto,
  CreateLinkDto,
  LinkEndDto,
  LinkListQueryDto,
} from '../dto/catalog-object.dto.js';
import {
  checkProps,
  findEnd,
  linkEndStorages,
  linkSides,
  mayReadIn,
  mayWriteIn,
  ownerStorage,
} from '../plain/catalog-input.js';
import type { CatalogRowsTx, EndRecord, LinkRecord, LinkSide } from '../plain/catalog-rows.repository.js';
import { checkoutGuard } from '../versioned/checkout-hold.js';
import { pickReadable } from '../versioned/object-access.js';
import { parseVersionedRef } from '../../catalog/object-ref.js';
import { ObjectsRepository } from '../versioned/objects.repository.js';
import { PlainObjectsService } from '../plain/plain-objects.service.js';

/**
 * Links of the catalog's link classes (table `links`: a change task's affected data, a part's
 * described-by document, a group's members …) between versioned objects, plain objects, users
 * and containers. Each end is named by OID or number and checked against the role class the
 * catalog gives it; the link is kept in role A's container (else role B's; else none, and then
 * only administrators make it), whose authors and managers change it and readers read it.
 * A link belongs to its role A, as a usage link to its parent: while role A is a versioned
 * object checked out by another user, its links are neither added nor removed (409 naming the
 * holder); role B is only named.
 */
@Injectable()
export class CatalogLinksService {
  constructor(
    private readonly repo: ObjectsRepository,
    private readonly catalog: CatalogService,
    private readonly plain: PlainObjectsService,
    private readonly permissions: PermissionsService,
  ) {}

  async add(user: AuthUser, body: CreateLinkDto): Promise<CatalogLinkDto> {
    const catalog = await this.catalog.current();
    const cls = linkClass(catalog, body.class);
    const softType = body.softType === undefined ? null : linkSoftType(catalog, cls, body.softType);
    const props = checkProps(catalog, { cls, softType }, body.props ?? {});
    for (const k of Object.keys(props)) if (props[k] === null) delete props[k];
    return this.repo.change(async (tx) => {
      const a = await findEnd(tx.rows, catalog, user, cls.roles!.a, body.a, `a (role A of ${cls.name})`);
      const b = await findEnd(tx.rows, catalog, user, cls.roles!.b, body.b, `b (role B of ${cls.name})`);
      const holder = a.containerId !== null ? a : b;
      if (!mayWriteIn(user, holder.containerId, holder.memberRole)) {
        throw new ForbiddenException(
          holder.containerId === null
            ? `links between objects outside containers are made by administrators only`
            : `linking needs author or manager rights in the container of ${label(holder)}; you may only read there`,
        );
      }
      for (const [end, role] of [
        [a, cls.roles!.a],
        [b, cls.roles!.b],
      ] as const) {
        const hold = await tx.rows.lockEnd(storageOf(catalog, role), end.id);
        if (!hold) throw new NotFoundException(`${label(end)} was deleted meanwhile; nothing was linked`);
        // The link is role A's (as a usage link is its parent's): another user's check-out of it refuses the link.
        if (end === a) checkoutGuard(hold, user.id, label(a));
      }
      const id = await tx.rows.insertLink({
        cls: cls.name,
        softType,
        a: a.id,
        b: b.id,
        containerId: holder.containerId,
        props,
      });
      if (id === null) {
        throw new ConflictException(`${label(a)} and ${label(b)} are linked by a ${cls.name} already`);
      }
      const [link] = await tx.rows.findLinks({ id }, user.id);
      await recordAudit(tx.audit, {
        userId: user.id,
        action: 'objects.links.add',
        objectClass: cls.name,
        objectId: id,
        containerId: holder.containerId,
        detail: { a: formatOid(a.cls, a.id), b: formatOid(b.cls, b.id), aNumber: label(a), bNumber: label(b), props },
      });
      return describeLink(user, link, { a, b });
    });
  }

  /**
   * One page of the links naming an object (a versioned one by any of its iterations or its
   * master, or a plain one) that the caller may read, oldest first, with both ends.
   */
  async list(user: AuthUser, text: string, query: LinkListQueryDto): Promise<CatalogLinkListDto> {
    const catalog = await this.catalog.current();
    const rows = this.repo.rows();
    let sides: LinkSide[];
    let oid: string;
    const plain = await this.plain.refOf(text, query.type);
    if (plain) {
      const found = await this.plain.read(user, plain);
      const id = parseOid(found.oid)!.id;
      sides = linkSides(catalog, 'object', [id]);
      oid = found.oid;
    } else {
      const ref = parseVersionedRef(catalog, text, query.type);
      const found = pickReadable(user, ref.text, await this.repo.findByRef(ref, user.id));
      sides = [
        ...linkSides(catalog, 'iteration', await rows.visibleIterationIds(found.masterId, user.id)),
        ...linkSides(catalog, 'master', [found.masterId]),
      ];
      oid = formatOid(found.cls, found.iterationId);
    }
    const readable = await this.permissions.readableContainerIds(user);
    const { total, rows: links } = await rows.pageLinks(
      sides,
      linkEndStorages(catalog),
      { id: user.id, readable },
      { offset: (query.page - 1) * query.limit, limit: query.limit },
    );
    const items = links.map((l) => describeLink(user, l, l));
    return { object: oid, count: items.length, total, page: query.page, limit: query.limit, items };
  }

  async remove(user: AuthUser, text: string): Promise<CatalogLinkDto> {
    const catalog = await this.catalog.current();
    const oid = text.startsWith('OR:') ? parseOid(text) : null;
    if (text.startsWith('OR:') ? !oid : !/^[1-9][0-9]{0,9}$/.test(text) || Number(text) > 2 ** 31 - 1) {
      throw new BadRequestException(`link: "${clip(text)}" is neither a link id nor a link's OID`);
    }
    const id = oid ? oid.id : Number(text);
    return this.repo.change(async (tx) => {
      const [link] = await tx.rows.findLinks({ id }, user.id);
      if (!link || (oid && oid.cls !== link.cls) || !mayReadIn(user, link.containerId, link.memberRole)) {
        throw new NotFoundException(`no link "${clip(text)}"`);
      }
      if (!mayWriteIn(user, link.containerId, link.memberRole)) {
        throw new ForbiddenException(
          link.containerId === null
            ? 'links outside containers are changed by administrators only'
            : `removing it needs author or manager rights in container '${link.containerName}'; you may only read there`,
        );
      }
      const both = await ends(tx.rows, catalog, user, link);
      const owner = ownerStorage(catalog, link.cls);
      if (owner) {
        // Held (FOR SHARE) as an add holds it: a check-out in progress commits first, and is seen.
        // Role A may be a working copy the caller does not see (both.a null): its master's hold counts.
        const hold = await tx.rows.lockEnd(owner, link.roleAId);
        const a = both.a ? label(both.a) : formatOid(catalog.findClass(link.cls)!.roles!.a, link.roleAId);
        if (hold) checkoutGuard(hold, user.id, a);
      }
      await tx.rows.deleteLinks([id]);
      await recordAudit(tx.audit, {
        userId: user.id,
        action: 'objects.links.remove',
        objectClass: link.cls,
        objectId: id,
        containerId: link.containerId,
        detail: {
          a: both.a ? formatOid(both.a.cls, both.a.id) : null,
          b: both.b ? formatOid(both.b.cls, both.b.id) : null,
          props: link.props,
        },
      });
      return describeLink(user, link, both);
    });
  }
}

/** A concrete link class of the catalog kept in `links`; 400 naming those there are otherwise. */
function linkClass(catalog: Catalog, name: string): CatalogClass {
  const cls = catalog.findClass(name);
  if (cls && cls.roles && cls.storage === 'link' && !cls.abstract) return cls;
  const known = catalog
    .listClasses()
    .filter((c) => c.roles && c.storage === 'link' && !c.abstract)
    .map((c) => c.name)
    .sort();
  throw new BadRequestException(`class: ${clip(name)} is not a link class of the catalog (those: ${known.join(', ')})`);
}

function linkSoftType(catalog: Catalog, cls: CatalogClass, name: string): string {
  const st = catalog.findSoftType(name);
  if (!st || !catalog.isA(st.cls, cls.name)) {
    throw new BadRequestException(`softType: ${clip(name)} is not a soft type of ${cls.name}`);
  }
  return st.name;
}

function storageOf(catalog: Catalog, cls: string) {
  return catalog.findClass(cls)!.storage!;
}

function label(e: EndRecord): string {
  return e.number ?? e.name ?? formatOid(e.cls, e.id);
}

/** Both ends of a stored link, in the tables of its role classes (null: gone). */
async function ends(rows: CatalogRowsTx, catalog: Catalog, user: AuthUser, l: LinkRecord) {
  const roles = catalog.findClass(l.cls)?.roles;
  const one = async (role: string | undefined, id: number) => {
    const storage = role ? catalog.findClass(role)?.storage : null;
    if (!storage) return null;
    return (await rows.findEnds(storage, { id, cls: null }, user.id))[0] ?? null;
  };
  return { a: await one(roles?.a, l.roleAId), b: await one(roles?.b, l.roleBId) };
}

function endView(user: AuthUser, e: EndRecord | null): LinkEndDto {
  if (!e) return { oid: null, number: null, name: null };
  if (!mayReadIn(user, e.containerId, e.memberRole)) return { oid: null, number: null, name: null, restricted: true };
  return { oid: formatOid(e.cls, e.id), number: e.number, name: e.name };
}

function describeLink(
  user: AuthUser,
  l: LinkRecord,
  both: { a: EndRecord | null; b: EndRecord | null },
): CatalogLinkDto {
  return {
    id: l.id,
    oid: formatOid(l.cls, l.id),
    class: l.cls,
    softType: l.softType,
    a: endView(user, both.a),
    b: endView(user, both.b),
    container:
      l.containerId === null ? null : { oid: formatOid(l.containerClass!, l.containerId), name: l.containerName! },
    props: l.props ?? {},
    createdAt: l.createdAt,
  };
}
