import { Prisma, type MemberRole } from '../../generated/prisma/client.js';
import type { Db } from '../versioned/object-records.repository.js';

/**
 * The references plain objects keep in their JSON (`objects.props`: a work item's
 * primaryBusinessObject, an activity's parentProcessRef …), as a deletion of their target finds
 * and removes them. The lookup is a containment test per key and value
 * (`props @> '{"process": 17}'`), which the GIN index objects_props_idx (jsonb_path_ops)
 * answers without reading every object row. The plan for a change order with two iterations
 * among 20 000 work items and processes naming other change orders
 * (test/objects/object-references.e2e-spec.ts checks it uses the index, and no sequential scan):
 *
 *   Sort
 *     ->  Nested Loop Left Join  (access roles of the caller)
 *           ->  Bitmap Heap Scan on objects o
 *                 Recheck Cond: ((class = ANY ('{wt.vc.ControlBranch}')) OR (props @> '{"businessObject": "OR:wt.change2.WTChangeOrder2:11"}') OR …)
 *                 Filter: ((id <> 0) AND (((props @> '{"master": 7}') AND (class = ANY (…))) OR …))
 *                 ->  BitmapOr
 *                       ->  Bitmap Index Scan on objects_class_number_key  (a class without rows: cheaper by class)
 *                       ->  Bitmap Index Scan on objects_props_idx
 *                             Index Cond: (props @> '{"businessObject": "OR:wt.change2.WTChangeOrder2:11"}')
 *                       ->  Bitmap Index Scan on objects_props_idx  (… :12, and the master's OID)
 *   Execution Time: 3 ms, 158 buffers (a sequential scan reads every page of objects)
 */

/** A JSON key of referring classes whose value, when one of `values`, names the object being deleted. */
export interface ReferenceKey {
  key: string;
  /** The plain classes keeping that reference under that key. */
  classes: string[];
  /** The target's ids (json references) or OIDs (oidJson references). */
  values: (number | string)[];
}

/** A plain object whose JSON names the object being deleted, with the caller's role in its container. */
export interface ReferrerRecord {
  id: number;
  cls: string;
  number: string | null;
  name: string | null;
  containerId: number | null;
  props: Record<string, unknown>;
  memberRole: MemberRole | null;
}

/**
 * The statement finding the plain objects (other than `excludeId`) whose JSON holds one of the
 * keys' values; with `lock`, locked FOR UPDATE (their references are about to be removed).
 */
export function referrersSql(keys: ReferenceKey[], excludeId: number, userId: number, lock: boolean): Prisma.Sql {
  const terms = keys.flatMap((k) =>
    k.values.map(
      (v) => Prisma.sql`(o.props @> ${JSON.stringify({ [k.key]: v })}::jsonb AND o.class = ANY(${k.classes}::text[]))`,
    ),
  );
  return Prisma.sql`
    SELECT o.id, o.class AS cls, o.number, o.name, o.container_id AS "containerId", o.props,
           mb.role::text AS "memberRole"
    FROM objects o
    LEFT JOIN access_roles mb ON mb.container_id = o.container_id AND mb.user_id = ${userId}
    WHERE (${terms.length ? Prisma.join(terms, ' OR ') : Prisma.sql`false`}) AND o.id <> ${excludeId}
    ORDER BY o.id
    ${lock ? Prisma.sql`FOR UPDATE OF o` : Prisma.empty}`;
}

export class ObjectReferencesTx {
  constructor(private readonly db: Db) {}

  /** The plain objects naming the target through the keys (0: none excluded; plain objects pass their own id). */
  findReferrers(keys: ReferenceKey[], excludeId: number, userId: number, lock: boolean): Promise<ReferrerRecord[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.db.$queryRaw<ReferrerRecord[]>(referrersSql(keys, excludeId, userId, lock));
  }

  /** Removes the given JSON keys from each object, in one statement, as a change by the user. */
  async removeKeys(changes: { id: number; keys: string[] }[], userId: number): Promise<void> {
    if (changes.length === 0) return;
    await this.db.$executeRaw`
      UPDATE objects o SET props = o.props - r.keys, modified_by = ${userId}, modified_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) AS r(id int, keys text[])
      WHERE o.id = r.id`;
  }
}
