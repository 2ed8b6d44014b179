import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../../auth/auth-user.js';
import { accessFromRole } from '../../auth/permissions.service.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogClass, PropertyType, ReferenceDef } from '../../catalog/catalog-model.js';
import type { StorageKind } from '../../catalog/storage.js';
import { formatOid, parseOid } from '../../catalog/oid.js';
import type { MemberRole } from '../../generated/prisma/client.js';
import { jsonProperties, typedValue } from '../../catalog/property-values.js';
import { clip } from '../../common/clip.js';
import type { PlainType } from '../../catalog/object-types.js';
import { heldBy } from '../versioned/checkout-hold.js';
import type { CatalogRowsTx, EndRecord, EndStorages, LinkRecord, LinkSide } from './catalog-rows.repository.js';

/**
 * What requests about plain objects and catalog links name, checked against the type catalog:
 * the class or soft type of a plain object, its properties and references, and the records a
 * link's roles or a reference name (by OID, number or name, of the class the catalog expects).
 */

/** Longest text value of a property. */
const TEXT_MAX = 4000;

/** Whether the caller reads a record kept in a container (or in none: everyone reads it). */
export function mayReadIn(user: AuthUser, containerId: number | null, role: MemberRole | null): boolean {
  return containerId === null || accessFromRole(user, role) !== 'none';
}

/** Most catalog links a deletion checks (and names a few of). */
export const LINKS_CHECKED = 100_000;
/** Most links or objects a refusal names; the rest are counted. */
export const NAMED_MAX = 5;

/**
 * Catalog links naming an object, for a refusal: how many, the OIDs of the first few the caller
 * may read, how many more, and how many in containers the caller cannot read (not named).
 */
export function describeLinks(user: AuthUser, links: readonly LinkRecord[]): string {
  const shown = links.filter((l) => mayReadIn(user, l.containerId, l.memberRole)).map((l) => formatOid(l.cls, l.id));
  const parts = shown.slice(0, NAMED_MAX);
  if (shown.length > NAMED_MAX) parts.push(`${shown.length - NAMED_MAX} more`);
  const hidden = links.length - shown.length;
  if (hidden) parts.push(`${hidden} in containers you cannot read`);
  return `${links.length} catalog link${links.length === 1 ? '' : 's'} (${parts.join(', ')})`;
}

/** Whether the caller changes it: authors and managers of its container; administrators where it has none. */
export function mayWriteIn(user: AuthUser, containerId: number | null, role: MemberRole | null): boolean {
  if (containerId === null) return user.admin;
  const a = accessFromRole(user, role);
  return a === 'write' || a === 'manage';
}

/** force=true removes the catalog links naming an object only where the caller may change every one (403). */
export function refuseLockedLinks(user: AuthUser, links: readonly LinkRecord[]): void {
  const locked = links.filter((l) => !mayWriteIn(user, l.containerId, l.memberRole));
  if (locked.length) {
    throw new ForbiddenException(
      `force=true would remove ${locked.length} catalog link${locked.length === 1 ? '' : 's'} you may not change; ` +
        'nothing was deleted',
    );
  }
}

/** The declared properties a class keeps in JSON (by property name) and its soft type's attributes. */
function declared(catalog: Catalog, type: PlainType): Map<string, { key: string; type: PropertyType }> {
  const out = jsonProperties(type.cls);
  const chain = [];
  for (
    let st = type.softType ? catalog.findSoftType(type.softType) : undefined;
    st;
    st = catalog.findSoftType(st.parent)
  )
    chain.push(st);
  for (const st of chain.reverse()) for (const [name, a] of st.attributes) out.set(name, { key: name, type: a.type });
  return out;
}

/**
 * `props` of a plain object checked against the catalog: each name a property of the class kept
 * in JSON or an attribute of its soft type, each value of its declared type (null: removed). The
 * answer is keyed by the JSON keys the row keeps.
 */
export function checkProps(catalog: Catalog, type: PlainType, input: Record<string, unknown>): Record<string, unknown> {
  const known = declared(catalog, type);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const p = known.get(name);
    if (!p) {
      const names = [...known.keys()].join(', ') || 'none';
      throw new BadRequestException(
        `props.${clip(name)}: ${type.softType ?? type.cls.name} has no such property (its properties: ${names})`,
      );
    }
    typedValue(value, p.type, `props.${name}`, (path, message) => {
      throw new BadRequestException(`${path} ${message} (a ${p.type} of ${type.softType ?? type.cls.name})`);
    });
    if (typeof value === 'string' && (value.length > TEXT_MAX || value.includes('\u0000'))) {
      throw new BadRequestException(`props.${name} must be at most ${TEXT_MAX} characters, without NUL characters`);
    }
    out[p.key] = value;
  }
  return out;
}

/** The stored props by property name (declared ones), attribute name, or JSON key (the rest but references). */
export function propsView(catalog: Catalog, type: PlainType, stored: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byKey = new Map([...declared(catalog, type)].map(([name, p]) => [p.key, name]));
  const refKeys = new Set([...type.cls.references.values()].map(jsonKey).filter((k) => k !== null));
  for (const [key, value] of Object.entries(stored ?? {})) {
    const name = byKey.get(key);
    if (name !== undefined) out[name] = value;
    else if (!refKeys.has(key)) out[key] = value;
  }
  return out;
}

/** The JSON key a reference keeps its target in, or null for references kept in columns. */
export function jsonKey(ref: ReferenceDef): string | null {
  if ('json' in ref.from) return ref.from.json.key;
  if ('oidJson' in ref.from) return ref.from.oidJson.key;
  return null;
}

/** The references a class keeps in JSON: what a request may set. */
export function jsonReferences(cls: CatalogClass): ReferenceDef[] {
  return [...cls.references.values()].filter((r) => jsonKey(r) !== null);
}

/** The stored references as OIDs (ids of an abstract target are shown as they are). */
export function referencesView(catalog: Catalog, cls: CatalogClass, stored: Record<string, unknown>) {
  const out: Record<string, string | number | null> = {};
  for (const ref of jsonReferences(cls)) {
    const v = (stored ?? {})[jsonKey(ref)!];
    if (v === undefined || v === null) continue;
    const target = catalog.findClass(ref.target);
    out[ref.name] = typeof v === 'number' && target && !target.abstract ? `OR:${target.name}:${v}` : (v as string);
  }
  return out;
}

const NAMEABLE: readonly StorageKind[] = ['iteration', 'master', 'object', 'user', 'container'];

/** The storage of a class whose records a role or reference can name; 400 for others (links, files …). */
function nameable(cls: CatalogClass, what: string): StorageKind {
  if (!cls.storage || !NAMEABLE.includes(cls.storage)) {
    throw new BadRequestException(`${what}: objects of ${cls.name} (storage ${cls.storage}) cannot be named here`);
  }
  return cls.storage;
}

/**
 * The one record of `target` (or a class below it) that `text` names and the caller may read:
 * an OID of such a class, or a number (a name for users, containers and plain objects without
 * a number). `what` names the field in messages.
 */
export async function findEnd(
  rows: CatalogRowsTx,
  catalog: Catalog,
  user: AuthUser,
  target: string,
  text: string,
  what: string,
): Promise<EndRecord & { storage: StorageKind }> {
  const targetCls = catalog.findClass(target);
  if (!targetCls) throw new BadRequestException(`${what}: unknown class ${target}`);
  let found: EndRecord[];
  let storage: StorageKind;
  if (text.startsWith('OR:')) {
    const oid = parseOid(text);
    if (!oid) throw new BadRequestException(`${what}: "${clip(text)}" is not an OID (OR:<class>:<id>)`);
    const cls = catalog.findClass(oid.cls);
    if (!cls || !catalog.isA(oid.cls, target)) {
      throw new BadRequestException(`${what}: ${clip(text)} is not a ${target} (the class ${what} must name)`);
    }
    storage = nameable(cls, what);
    found = await rows.findEnds(storage, { id: oid.id, cls: oid.cls }, user.id);
  } else {
    if (text === '' || text.length > 1000) throw new BadRequestException(`${what}: give an OID, a number or a name`);
    if (!targetCls.storage) {
      throw new BadRequestException(`${what}: ${target} spans several storage kinds: name the object by its OID`);
    }
    storage = nameable(targetCls, what);
    found = await rows.findEnds(storage, { key: text, classes: targetCls.classValues }, user.id);
  }
  const visible = found.filter((r) => mayReadIn(user, r.containerId, r.memberRole));
  if (visible.length === 0) throw new NotFoundException(`${what}: no ${target} "${clip(text)}"`);
  if (visible.length > 1) {
    throw new BadRequestException(
      `${what}: ${visible.length} objects of ${target} carry "${clip(text)}" (${visible.map((r) => r.cls).join(', ')}): give the OID`,
    );
  }
  return { ...visible[0], storage };
}

/**
 * `references` of a request: each a JSON-kept reference of the class, resolved to what the row
 * keeps, its target held (FOR SHARE) until the transaction ends.
 */
export async function resolveReferences(
  rows: CatalogRowsTx,
  catalog: Catalog,
  user: AuthUser,
  cls: CatalogClass,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const ref = cls.references.get(name);
    const key = ref ? jsonKey(ref) : null;
    if (!ref || key === null) {
      const known = jsonReferences(cls).map((r) => r.name);
      throw new BadRequestException(
        `references.${clip(name)}: ${cls.name} keeps no such reference (its references: ${known.join(', ') || 'none'})`,
      );
    }
    if (value === null) {
      out[key] = null;
      continue;
    }
    if (typeof value !== 'string') {
      throw new BadRequestException(`references.${name} must be an OID, a number or a name (or null)`);
    }
    const end = await findEnd(rows, catalog, user, ref.target, value, `references.${name}`);
    // Held until the change commits: a deletion of the target (which locks it FOR UPDATE, then
    // looks for the objects naming it) waits for this one, and sees the reference.
    if (!(await rows.lockEnd(end.storage, end.id))) {
      throw new NotFoundException(`references.${name}: ${clip(value)} was deleted meanwhile; nothing was stored`);
    }
    out[key] = 'oidJson' in ref.from ? `OR:${end.cls}:${end.id}` : end.id;
  }
  return out;
}

/** For each role of each link class whose role class is kept in `storage`: links keeping one of `ids` there. */
export function linkSides(catalog: Catalog, storage: StorageKind, ids: number[]): LinkSide[] {
  const a: string[] = [];
  const b: string[] = [];
  for (const c of catalog.listClasses()) {
    if (!c.roles || c.storage !== 'link') continue;
    if (catalog.findClass(c.roles.a)?.storage === storage) a.push(c.name);
    if (catalog.findClass(c.roles.b)?.storage === storage) b.push(c.name);
  }
  return [
    ...(a.length ? [{ side: 'a' as const, classes: a, ids }] : []),
    ...(b.length ? [{ side: 'b' as const, classes: b, ids }] : []),
  ];
}

/**
 * The storage of a link class's role A when it is versioned (iteration or master): the object
 * that owns the link, as a parent owns its usage links, whose check-out by another user refuses
 * changes of the link. Null for classes whose role A is not versioned (or unknown).
 */
export function ownerStorage(catalog: Catalog, linkClass: string): 'iteration' | 'master' | null {
  const roleA = catalog.findClass(linkClass)?.roles?.a;
  const storage = roleA ? catalog.findClass(roleA)?.storage : null;
  return storage === 'iteration' || storage === 'master' ? storage : null;
}

/**
 * 409 naming the holder when a deletion would remove catalog links owned (role A) by a versioned
 * object another user holds checked out: `held` as CatalogRowsTx.heldByOthers read it.
 */
export async function refuseHeldOwners(
  rows: CatalogRowsTx,
  catalog: Catalog,
  user: AuthUser,
  links: readonly LinkRecord[],
): Promise<void> {
  const owners: Record<'iteration' | 'master', number[]> = { iteration: [], master: [] };
  for (const l of links) {
    const storage = ownerStorage(catalog, l.cls);
    if (storage) owners[storage].push(l.roleAId);
  }
  for (const storage of ['iteration', 'master'] as const) {
    const [held] = await rows.heldByOthers(storage, owners[storage], user.id);
    if (held) throw heldBy(held.number, held.holder);
  }
}

/** For each role of each link class: the storage its role class is kept in (where a page of links finds its ends). */
export function linkEndStorages(catalog: Catalog): EndStorages {
  const out: EndStorages = { a: {}, b: {} };
  for (const c of catalog.listClasses()) {
    if (!c.roles || c.storage !== 'link') continue;
    for (const side of ['a', 'b'] as const) {
      const storage = catalog.findClass(c.roles[side])?.storage;
      if (storage && NAMEABLE.includes(storage)) (out[side][storage] ??= []).push(c.name);
    }
  }
  return out;
}
