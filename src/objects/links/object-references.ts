import { ConflictException, ForbiddenException } from '@nestjs/common';
import { attributeChange } from '../../audit/audit-detail.js';
import { recordAudits } from '../../audit/audit.repository.js';
import type { AuthUser } from '../../auth/auth-user.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { ReferenceDef } from '../../catalog/catalog-model.js';
import { formatOid, masterClassOf } from '../../catalog/oid.js';
import { jsonKey, jsonReferences, mayReadIn, mayWriteIn, NAMED_MAX } from '../plain/catalog-input.js';
import type { ObjectChangeTx } from '../versioned/object-change.repository.js';
import type { ReferenceKey, ReferrerRecord } from './object-references.repository.js';

/**
 * What a deletion does about the references other objects keep in their JSON (a plain object's
 * `references`: a work item's primaryBusinessObject, an activity's parentProcessRef …): it finds
 * the objects naming the one deleted, refuses while there are any (409), and with force removes
 * those references from them in its transaction, recording an `objects.update` event for each.
 */

/** An object being deleted, as references name it: a plain object, or a versioned one by its iterations and master. */
export type DeletedTarget =
  | { storage: 'object'; cls: string; id: number }
  | { storage: 'iteration'; cls: string; masterId: number; iterationIds: number[] };

/**
 * The JSON keys of the catalog's plain classes that may name the target, with the values naming
 * it: its id (or the ids of its iterations, or its master's) for references kept as ids, its OIDs
 * for references kept as OIDs; only references whose target class the object is (or is below).
 */
export function referenceKeys(catalog: Catalog, target: DeletedTarget): ReferenceKey[] {
  const groups = new Map<string, ReferenceKey>();
  for (const name of catalog.concreteClasses('object')) {
    for (const ref of jsonReferences(catalog.findClass(name)!)) {
      const values = valuesNaming(catalog, ref, target);
      if (values.length === 0) continue;
      const key = jsonKey(ref)!;
      const group = `${key}\u0000${JSON.stringify(values)}`;
      const found = groups.get(group) ?? { key, classes: [], values };
      if (!found.classes.includes(name)) found.classes.push(name);
      groups.set(group, found);
    }
  }
  return [...groups.values()];
}

function valuesNaming(catalog: Catalog, ref: ReferenceDef, t: DeletedTarget): (number | string)[] {
  const asOid = 'oidJson' in ref.from;
  if (t.storage === 'object') {
    return catalog.isA(t.cls, ref.target) ? [asOid ? formatOid(t.cls, t.id) : t.id] : [];
  }
  const out: (number | string)[] = [];
  if (catalog.isA(t.cls, ref.target)) out.push(...t.iterationIds.map((id) => (asOid ? formatOid(t.cls, id) : id)));
  const master = masterClassOf(t.cls);
  if (catalog.isA(master, ref.target)) out.push(asOid ? formatOid(master, t.masterId) : t.masterId);
  return out;
}

/** The objects naming it, for a refusal: how many, the first few the caller may read, the others counted. */
export function describeReferrers(user: AuthUser, referrers: readonly ReferrerRecord[]): string {
  const shown = referrers
    .filter((r) => mayReadIn(user, r.containerId, r.memberRole))
    .map((r) => r.number ?? r.name ?? formatOid(r.cls, r.id));
  const parts = shown.slice(0, NAMED_MAX);
  if (shown.length > NAMED_MAX) parts.push(`${shown.length - NAMED_MAX} more`);
  const hidden = referrers.length - shown.length;
  if (hidden) parts.push(`${hidden} in containers you cannot read`);
  return `${referrers.length} object${referrers.length === 1 ? '' : 's'} (${parts.join(', ')})`;
}

/**
 * 409 for a deletion while other records name the object: the objects using it (usage links),
 * the catalog links naming it and the objects referring to it in their JSON, each as described.
 */
export function stillNamed(
  label: string,
  by: { users?: string; links?: string; referrers?: string },
): ConflictException {
  const named = [
    ...(by.users ? [`is used by ${by.users}`] : []),
    ...(by.links ? [`is named by ${by.links}`] : []),
    ...(by.referrers ? [`is referred to by ${by.referrers}`] : []),
  ];
  const what = [by.links ? 'links' : by.users ? 'usage links' : null, by.referrers ? 'references' : null]
    .filter((w) => w !== null)
    .join(' and ');
  const said = named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}` : named[0];
  return new ConflictException(
    `${label} ${said}: remove those ${what} first, or delete with force=true, which removes them too`,
  );
}

/** force=true removes references only from objects the caller may change (403 otherwise, nothing deleted). */
export function refuseLockedReferrers(user: AuthUser, referrers: readonly ReferrerRecord[]): void {
  const locked = referrers.filter((r) => !mayWriteIn(user, r.containerId, r.memberRole));
  if (locked.length) {
    throw new ForbiddenException(
      `force=true would remove references of ${locked.length} object${locked.length === 1 ? '' : 's'} you may ` +
        'not change; nothing was deleted',
    );
  }
}

/**
 * Removes from each referring object (locked) the keys naming the deleted object, and records an
 * `objects.update` event for each, with the references before and after and the deleted object's
 * OID. Answers how many objects were changed.
 */
export async function removeReferences(
  tx: ObjectChangeTx,
  user: AuthUser,
  referrers: readonly ReferrerRecord[],
  keys: readonly ReferenceKey[],
  deleted: string,
): Promise<number> {
  const changes = referrers.map((r) => ({
    row: r,
    keys: [
      ...new Set(
        keys
          .filter((k) => k.classes.includes(r.cls) && k.values.includes(r.props?.[k.key] as number | string))
          .map((k) => k.key),
      ),
    ],
  }));
  const changed = changes.filter((c) => c.keys.length > 0);
  await tx.refs.removeKeys(
    changed.map((c) => ({ id: c.row.id, keys: c.keys })),
    user.id,
  );
  await recordAudits(
    tx.audit,
    changed.map(({ row, keys: removed }) => ({
      userId: user.id,
      action: 'objects.update',
      objectClass: row.cls,
      objectId: row.id,
      objectNumber: row.number ?? row.name,
      containerId: row.containerId,
      detail: {
        props: attributeChange(row.props, Object.fromEntries(removed.map((k) => [k, null]))).attributes,
        deleted,
      },
    })),
  );
  return changed.length;
}
