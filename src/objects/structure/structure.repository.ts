import { Injectable } from '@nestjs/common';
import { latestOfBranchSql } from '../versioned/iterations.repository.js';
import { workingVisibleTo } from '../versioned/object-records.repository.js';
import { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../../prisma/prisma.service.js';
import type { ObjectRef } from '../../catalog/object-ref.js';

/** One business object's iteration, with what the structure services answer of it. */
export interface ObjectRow {
  iteration_id: number | null;
  master_id: number;
  number: string;
  name: string;
  cls: string;
  subtype: string | null;
  version: string | null;
  iteration: number | null;
  state: string | null;
  container_id: number;
}

/** A node of a structure or where-used walk, in the order the walk found it (level by level). */
export interface WalkRow extends ObjectRow {
  depth: number;
  /** The usage link ids from the object down (or up) to this node: names the occurrence. */
  lpath: number[];
  link_id: number | null;
  link_class: string | null;
  quantity: number | null;
  unit: string | null;
  /** int8: text as pg reads it. */
  line_number: string | null;
  readable: boolean;
  is_cycle: boolean;
}

export type Direction = 'down' | 'up';

const OBJECT_COLUMNS = Prisma.raw(
  'm.number, m.name, m.class AS cls, m.subtype, i.version, i.iteration, i.state, m.container_id',
);

/**
 * Reads of the part and CAD structures (usage_links between an iteration and the masters it
 * uses): the object a request names, and one recursive statement per walk.
 */
@Injectable()
export class StructureRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * The iterations the reference names: one, or several when a number is carried by several
   * classes. A working copy of a check-out only for its holder (`userId`).
   */
  async findObjects(ref: ObjectRef, userId: number): Promise<ObjectRow[]> {
    const sql = findObjectsSql(ref, userId);
    const kind = ref.kind === 'oid' ? (ref.branch ? 'branch' : 'oid') : ref.cls === null ? 'number' : 'number-class';
    const name = `objects-find-${kind}`;
    return (await this.prisma.pgPool.query<ObjectRow>({ name, text: sql.text, values: sql.values })).rows;
  }

  /**
   * Walks the structure below an iteration (down: the masters its usage links name, each by its
   * latest iteration) or the objects using a master (up: the latest iterations whose usage links
   * name it): see walkSql.
   */
  async walk(
    root: ObjectRow,
    direction: Direction,
    levels: number,
    readable: readonly number[] | null,
    maxRows: number,
  ): Promise<WalkRow[]> {
    // On the pool under Prisma, as a statement prepared once per connection: planning the
    // recursive statement costs ten times its execution on a structure of a dozen nodes, and pg
    // reads many rows several times faster than Prisma's raw query (the structure benchmark).
    const sql = walkSql(root, direction, levels, readable, maxRows);
    const name = `objects-walk-${direction}-${readable === null ? 'all' : 'some'}`;
    return (await this.prisma.pgPool.query<WalkRow>({ name, text: sql.text, values: sql.values })).rows;
  }
}

export function findObjectsSql(ref: ObjectRef, userId: number): Prisma.Sql {
  // A number names latest iterations, a version reference its latest checked-in one: never a
  // working copy. An iteration's OID names one only for its holder.
  const where =
    ref.kind === 'oid'
      ? Prisma.sql`i.id = ${ref.branch ? latestOfBranchSql(ref.id) : ref.id} AND m.class = ${ref.cls}
          AND ${workingVisibleTo(userId)}`
      : ref.cls === null
        ? Prisma.sql`m.number = ${ref.number} AND i.latest`
        : Prisma.sql`m.number = ${ref.number} AND m.class = ${ref.cls} AND i.latest`;
  return Prisma.sql`
    SELECT i.id AS iteration_id, m.id AS master_id, ${OBJECT_COLUMNS}
    FROM iterations i JOIN masters m ON m.id = i.master_id
    WHERE ${where}
    ORDER BY m.class
    LIMIT 10`;
}

/**
 * One recursive statement walking `levels` deep from `root`, down or up. Nodes of containers
 * outside `readable` (null: all) are returned but not followed; an object already on the path is
 * returned marked as a cycle and not followed again. The walk is read level by level and stops
 * after `maxRows` rows: PostgreSQL computes a recursive query only as far as its reader asks
 * (the outer query neither sorts nor joins, so nothing makes it read the whole walk).
 */
export function walkSql(
  root: ObjectRow,
  direction: Direction,
  levels: number,
  readable: readonly number[] | null,
  maxRows: number,
): Prisma.Sql {
  const canRead = (alias: string) =>
    readable === null
      ? Prisma.sql`TRUE`
      : Prisma.sql`${Prisma.raw(alias)}.container_id = ANY(${[...readable]}::integer[])`;
  const step =
    direction === 'down'
      ? Prisma.sql`
          SELECT t.depth + 1, t.lpath || ul.id, ul.id, ul.class, ul.quantity, ul.unit, ul.line_number,
                 i.id, m.id, ${OBJECT_COLUMNS}, ${canRead('m')}
          FROM tree t
          JOIN usage_links ul ON ul.parent_id = t.iteration_id
          JOIN masters m ON m.id = ul.child_id
          LEFT JOIN iterations i ON i.master_id = m.id AND i.latest
          WHERE t.readable AND t.depth < ${levels}`
      : Prisma.sql`
          SELECT t.depth + 1, t.lpath || ul.id, ul.id, ul.class, ul.quantity, ul.unit, ul.line_number,
                 i.id, m.id, ${OBJECT_COLUMNS}, ${canRead('m')}
          FROM tree t
          JOIN usage_links ul ON ul.child_id = t.master_id
          JOIN iterations i ON i.id = ul.parent_id AND i.latest
          JOIN masters m ON m.id = i.master_id
          WHERE t.readable AND t.depth < ${levels}`;
  return Prisma.sql`
      WITH RECURSIVE tree (depth, lpath, link_id, link_class, quantity, unit, line_number,
                           iteration_id, master_id, number, name, cls, subtype, version, iteration, state,
                           container_id, readable) AS (
        SELECT 0, ARRAY[]::integer[], NULL::integer, NULL::text, NULL::float8, NULL::text, NULL::bigint,
               ${root.iteration_id}::integer, ${root.master_id}::integer, ${root.number}::text, ${root.name}::text,
               ${root.cls}::text, ${root.subtype}::text, ${root.version}::text, ${root.iteration}::integer,
               ${root.state}::text, ${root.container_id}::integer, TRUE
        UNION ALL
        ${step}
      ) CYCLE master_id SET is_cycle USING cycle_path
      SELECT depth, lpath, link_id, link_class, quantity, unit, line_number, iteration_id, master_id,
             number, name, cls, subtype, version, iteration, state, container_id, readable, is_cycle
      FROM tree
      LIMIT ${maxRows}`;
}
