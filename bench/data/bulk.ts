/**
 * Bulk-loading primitives: COPY FROM STDIN through pg-copy-streams, and the schema work around
 * it (indexes and foreign keys are dropped for the load and rebuilt once at the end, because
 * maintaining them row by row costs several times more than one sorted build).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** Streams one block of COPY text rows into a table; returns the bytes sent. */
export async function copyInto(client: pg.Client, table: string, columns: string, rows: string | Buffer): Promise<number> {
  const data = typeof rows === 'string' ? Buffer.from(rows, 'utf8') : rows;
  if (data.length === 0) return 0;
  // FREEZE: the tables were truncated in this transaction, so rows can be written frozen and
  // all-visible, sparing the first readers (the benchmarks) the hint-bit and vacuum work.
  const stream = client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN WITH (FREEZE)`));
  await pipeline(Readable.from([data]), stream);
  return data.length;
}

/** Every table of the schema except Prisma's migration log. */
export async function dataTables(client: pg.Client): Promise<string[]> {
  const r = await client.query<{ t: string }>(
    `SELECT quote_ident(tablename) AS t FROM pg_tables
     WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations' ORDER BY tablename`,
  );
  return r.rows.map((row) => row.t);
}

/**
 * Drops every foreign key of the schema, and the primary keys, unique constraints and indexes
 * of `tables`. Returns the statements that recreate them, in a valid order. Run inside the
 * load's transaction, so a failed load leaves the schema as it was.
 */
export async function dropConstraintsAndIndexes(client: pg.Client, tables: string[]): Promise<string[]> {
  const fks = await client.query<{ tbl: string; name: string; def: string }>(
    `SELECT conrelid::regclass::text AS tbl, quote_ident(conname) AS name, pg_get_constraintdef(oid) AS def
     FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace ORDER BY conname`,
  );
  const keys = await client.query<{ tbl: string; name: string; def: string }>(
    `SELECT conrelid::regclass::text AS tbl, quote_ident(conname) AS name, pg_get_constraintdef(oid) AS def
     FROM pg_constraint WHERE contype IN ('p', 'u') AND conrelid = ANY($1::regclass[]) ORDER BY conname`,
    [tables],
  );
  const indexes = await client.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i
     WHERE i.indrelid = ANY($1::regclass[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
     ORDER BY 1`,
    [tables],
  );
  for (const f of fks.rows) await client.query(`ALTER TABLE ${f.tbl} DROP CONSTRAINT ${f.name}`);
  for (const i of indexes.rows) await client.query(`DROP INDEX ${i.name}`);
  for (const k of keys.rows) await client.query(`ALTER TABLE ${k.tbl} DROP CONSTRAINT ${k.name}`);
  return [
    ...keys.rows.map((k) => `ALTER TABLE ${k.tbl} ADD CONSTRAINT ${k.name} ${k.def}`),
    ...indexes.rows.map((i) => i.def),
    ...fks.rows.map((f) => `ALTER TABLE ${f.tbl} ADD CONSTRAINT ${f.name} ${f.def}`),
  ];
}

/** Moves every serial sequence past the largest id, since the loader chose the ids itself. */
export async function fixSequences(client: pg.Client): Promise<void> {
  const serials = await client.query<{ tbl: string; col: string; seq: string }>(
    `SELECT quote_ident(table_name) AS tbl, quote_ident(column_name) AS col,
            pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
     FROM information_schema.columns
     WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`,
  );
  for (const s of serials.rows) {
    if (!s.seq) continue;
    await client.query(`SELECT setval($1, COALESCE((SELECT max(${s.col}) FROM ${s.tbl}), 0) + 1, false)`, [s.seq]);
  }
}
