import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../../prisma/prisma.service.js';

type Sql = Prisma.Sql;
const { sql } = Prisma;

/**
 * The most entries one association lists for one item: the first ones in the association's
 * order (docs/query.md#associations), never the rest.
 */
export const ASSOCIATION_MAX_PER_ITEM = 100;

/** A file of an item (content_items), as the file service lists it. */
export interface FileRow {
  item: number;
  id: number;
  role: string;
  file_name: string;
  mime_type: string;
  /** int8: text as pg reads it. */
  size: string;
  sha256: string;
}

/** A custom attribute of an item's iteration. */
export interface AttributeRow {
  item: number;
  name: string;
  value: unknown;
}

/** An object related to an item (used, using or describing it), with the link that relates them. */
export interface RelatedRow {
  item: number;
  link_id: number;
  link_class: string;
  /** Null for describe links. */
  quantity: number | null;
  unit: string | null;
  /** int8: text as pg reads it. */
  line_number: string | null;
  reference_number: string | null;
  cls: string;
  subtype: string | null;
  number: string;
  name: string;
  /** Null for a used master without any iteration. */
  iteration_id: number | null;
  version: string | null;
  iteration: number | null;
  state: string | null;
  latest: boolean | null;
  container_id: number;
  container_class: string;
  container_name: string;
}

type Readable = readonly number[] | null;

/** `alias.container_id` is one the caller reads (null: every container). */
function readableIn(alias: string, readable: Readable): Sql {
  return readable === null ? sql`TRUE` : sql`${Prisma.raw(alias)}.container_id = ANY(${[...readable]}::integer[])`;
}

/**
 * The items of the page the caller may read (the page was read so, but the loader does not rely
 * on it), each as iteration `i` of master `m`, followed per item by at most
 * ASSOCIATION_MAX_PER_ITEM rows of `lateral` (which numbers its rows `ord`). One statement for
 * all items: the lateral subquery runs per item inside it, by index.
 */
function perItem(ids: readonly number[], readable: Readable, columns: Sql, lateral: Sql): Sql {
  return sql`
    SELECT i.id AS item, ${columns}
    FROM iterations i
    JOIN masters m ON m.id = i.master_id
    CROSS JOIN LATERAL (${lateral} LIMIT ${ASSOCIATION_MAX_PER_ITEM}::integer) r
    WHERE i.id = ANY(${[...ids]}::integer[]) AND ${readableIn('m', readable)}
    ORDER BY i.id, r.ord`;
}

/** The files of each item, all roles or the given ones, by role and file name. */
export function filesSql(ids: readonly number[], readable: Readable, roles: readonly string[] | null): Sql {
  const role = roles === null ? Prisma.empty : sql`AND ci.role = ANY(${[...roles]}::text[])`;
  return perItem(
    ids,
    readable,
    sql`r.id, r.role, r.file_name, r.mime_type, r.size::text AS size, r.sha256`,
    sql`
      SELECT ci.id, ci.role, ci.file_name, ci.mime_type, ci.size, ci.sha256,
             row_number() OVER (ORDER BY ci.role, ci.file_name) AS ord
      FROM content_items ci
      WHERE ci.iteration_id = i.id ${role}
      ORDER BY ci.role, ci.file_name`,
  );
}

/** The custom attributes of each item's iteration, by name (code point order). */
export function attributesSql(ids: readonly number[], readable: Readable): Sql {
  return perItem(
    ids,
    readable,
    sql`r.key AS name, r.value`,
    sql`
      SELECT a.key, a.value, row_number() OVER (ORDER BY a.key COLLATE "C") AS ord
      FROM jsonb_each(CASE WHEN jsonb_typeof(i.attributes) = 'object' THEN i.attributes ELSE '{}'::jsonb END) a
      ORDER BY a.key COLLATE "C"`,
  );
}

const RELATED_COLUMNS = sql`
  r.link_id, r.link_class, r.quantity, r.unit, r.line_number, r.reference_number, r.cls, r.subtype,
  r.number, r.name, r.iteration_id, r.version, r.iteration, r.state, r.latest, r.container_id,
  r.container_class, r.container_name`;

/**
 * What each item's usage links name (first level), each master by its latest iteration, in
 * readable containers only; by line number (none last), then number.
 */
export function usesSql(ids: readonly number[], readable: Readable): Sql {
  return perItem(
    ids,
    readable,
    RELATED_COLUMNS,
    sql`
      SELECT ul.id AS link_id, ul.class AS link_class, ul.quantity, ul.unit, ul.line_number::text AS line_number,
             ul.reference_number, um.class AS cls, um.subtype, um.number, um.name, ui.id AS iteration_id,
             ui.version, ui.iteration, ui.state, ui.latest, c.id AS container_id, c.class AS container_class,
             c.name AS container_name,
             row_number() OVER (ORDER BY ul.line_number, um.number, ul.id) AS ord
      FROM usage_links ul
      JOIN masters um ON um.id = ul.child_id
      JOIN containers c ON c.id = um.container_id
      LEFT JOIN iterations ui ON ui.master_id = um.id AND ui.latest
      WHERE ul.parent_id = i.id AND ${readableIn('um', readable)}
      ORDER BY ul.line_number, um.number, ul.id`,
  );
}

/**
 * The latest iterations whose usage links name each item's master (first level), in readable
 * containers only; by number, then class and line number.
 */
export function usedBySql(ids: readonly number[], readable: Readable): Sql {
  return perItem(
    ids,
    readable,
    RELATED_COLUMNS,
    sql`
      SELECT ul.id AS link_id, ul.class AS link_class, ul.quantity, ul.unit, ul.line_number::text AS line_number,
             ul.reference_number, pm.class AS cls, pm.subtype, pm.number, pm.name, pi.id AS iteration_id,
             pi.version, pi.iteration, pi.state, pi.latest, c.id AS container_id, c.class AS container_class,
             c.name AS container_name,
             row_number() OVER (ORDER BY pm.number, pm.class, ul.line_number, ul.id) AS ord
      FROM usage_links ul
      JOIN iterations pi ON pi.id = ul.parent_id AND pi.latest
      JOIN masters pm ON pm.id = pi.master_id
      JOIN containers c ON c.id = pm.container_id
      WHERE ul.child_id = i.master_id AND ${readableIn('pm', readable)}
      ORDER BY pm.number, pm.class, ul.line_number, ul.id`,
  );
}

/**
 * The document iterations that describe links of `classes` (role A: an iteration, role B: a
 * document iteration) name from any iteration of each item's master, each iteration once (by the
 * link made on the item's own iteration, else the oldest link); links and documents the caller
 * may read only (a link outside containers is everyone's); by number, version, iteration.
 * Working copies of check-outs are their holders' drafts: neither their links nor they count.
 */
export function describedBySql(ids: readonly number[], readable: Readable, classes: readonly string[]): Sql {
  const linkReadable =
    readable === null ? sql`TRUE` : sql`(l.container_id IS NULL OR l.container_id = ANY(${[...readable]}::integer[]))`;
  return perItem(
    ids,
    readable,
    RELATED_COLUMNS,
    sql`
      SELECT d.*, row_number() OVER (ORDER BY d.number, d.version, d.iteration, d.link_id) AS ord
      FROM (
        SELECT DISTINCT ON (di.id)
               l.id AS link_id, l.class AS link_class, NULL::float8 AS quantity, NULL::text AS unit,
               NULL::text AS line_number, NULL::text AS reference_number, dm.class AS cls, dm.subtype,
               dm.number, dm.name, di.id AS iteration_id, di.version, di.iteration, di.state, di.latest,
               c.id AS container_id, c.class AS container_class, c.name AS container_name
        FROM iterations ai
        JOIN links l ON l.role_a_id = ai.id AND l.class = ANY(${[...classes]}::text[])
        JOIN iterations di ON di.id = l.role_b_id
        JOIN masters dm ON dm.id = di.master_id
        JOIN containers c ON c.id = dm.container_id
        WHERE ai.master_id = i.master_id AND NOT ai.working AND NOT di.working
          AND ${linkReadable} AND ${readableIn('dm', readable)}
        ORDER BY di.id, (ai.id = i.id) DESC, l.id
      ) d
      ORDER BY d.number, d.version, d.iteration, d.link_id`,
  );
}

/**
 * The statements of the query service's associations: one per association for a whole page,
 * on the pool under Prisma as statements prepared once per connection (named by association
 * and by whether the caller reads every container, which changes the text).
 */
@Injectable()
export class AssociationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  files(ids: readonly number[], readable: Readable, roles: readonly string[] | null): Promise<FileRow[]> {
    return this.run<FileRow>(`files-${roles === null ? 'all' : 'roles'}`, readable, filesSql(ids, readable, roles));
  }

  attributes(ids: readonly number[], readable: Readable): Promise<AttributeRow[]> {
    return this.run<AttributeRow>('attributes', readable, attributesSql(ids, readable));
  }

  uses(ids: readonly number[], readable: Readable): Promise<RelatedRow[]> {
    return this.run<RelatedRow>('uses', readable, usesSql(ids, readable));
  }

  usedBy(ids: readonly number[], readable: Readable): Promise<RelatedRow[]> {
    return this.run<RelatedRow>('used-by', readable, usedBySql(ids, readable));
  }

  describedBy(ids: readonly number[], readable: Readable, classes: readonly string[]): Promise<RelatedRow[]> {
    return this.run<RelatedRow>('described-by', readable, describedBySql(ids, readable, classes));
  }

  private async run<R extends object>(kind: string, readable: Readable, statement: Sql): Promise<R[]> {
    const name = `query-assoc-${kind}-${readable === null ? 'all' : 'some'}`;
    const res = await this.prisma.pgPool.query({ name, text: statement.text, values: statement.values });
    return res.rows as R[];
  }
}
