import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { migrationNames, projectRoot } from '../../src/prisma/migrate.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';

const MIGRATION = '20261126200000_master_link_stamps';

/** Runs a migration's script as `prisma migrate deploy` does over adapter-pg 6.19: statement by statement, split at `;`. */
async function runMigration(db: pg.Client, name: string): Promise<void> {
  const script = readFileSync(join(projectRoot(), 'prisma', 'migrations', name, 'migration.sql'), 'utf8');
  for (const statement of script
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean))
    await db.query(statement);
}

/**
 * The migration giving masters and usage links their stamps, on rows stored before it: masters
 * take their first iteration's creation and their last one's modification, usage links the
 * creation of the iteration holding them; a master without iterations keeps the migration's time.
 */
describe(`migration ${MIGRATION}`, () => {
  let scratch: ScratchDatabase;
  let db: pg.Client;
  beforeAll(async () => {
    scratch = await scratchDatabase({ demo: false });
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const before = migrationNames().filter((m) => m < MIGRATION);
    for (const name of before) await runMigration(db, name);
  });
  afterAll(async () => {
    await db.end();
    await scratch.drop();
  });

  it('stamps existing masters from their iterations and existing links from the iteration holding them', async () => {
    await db.query(`
      INSERT INTO users (id, name, password_hash) VALUES (1, 'u', 'x');
      INSERT INTO containers (id, class, name) VALUES (1, 'wt.pdmlink.PDMLinkProduct', 'c');
      INSERT INTO masters (id, class, number, name, container_id) VALUES
        (1, 'wt.part.WTPart', 'ASM', 'Assembly', 1),
        (2, 'wt.part.WTPart', 'BOLT', 'Bolt', 1),
        (3, 'wt.doc.WTDocument', 'EMPTY', 'No iterations', 1);
      INSERT INTO iterations (id, master_id, version, iteration, latest, created_by, modified_by, created_at, modified_at) VALUES
        (1, 1, 'A', 1, false, 1, 1, '2026-01-01T10:00:00Z', '2026-01-02T10:00:00Z'),
        (2, 1, 'A', 2, false, 1, 1, '2026-02-01T10:00:00Z', '2026-02-03T10:00:00Z'),
        (3, 1, 'B', 1, true, 1, 1, '2026-03-01T10:00:00Z', '2026-03-01T12:00:00Z'),
        (4, 2, 'A', 1, true, 1, 1, '2025-12-24T08:00:00Z', '2025-12-24T08:00:00Z');
      INSERT INTO usage_links (id, class, parent_id, child_id) VALUES
        (1, 'wt.part.WTPartUsageLink', 1, 2),
        (2, 'wt.part.WTPartUsageLink', 3, 2)`);
    const started = Date.now();
    await runMigration(db, MIGRATION);

    const masters = await db.query<{ number: string; created_at: Date; modified_at: Date }>(
      'SELECT number, created_at, modified_at FROM masters ORDER BY id',
    );
    const iso = (d: Date) => d.toISOString();
    expect(masters.rows.slice(0, 2).map((r) => [r.number, iso(r.created_at), iso(r.modified_at)])).toEqual([
      ['ASM', '2026-01-01T10:00:00.000Z', '2026-03-01T12:00:00.000Z'],
      ['BOLT', '2025-12-24T08:00:00.000Z', '2025-12-24T08:00:00.000Z'],
    ]);
    // No iterations: the time of the migration (the server's clock, a minute's leeway either way).
    const empty = masters.rows[2];
    expect(empty.number).toBe('EMPTY');
    expect(Math.abs(empty.created_at.getTime() - started)).toBeLessThan(60_000);
    expect(empty.modified_at).toEqual(empty.created_at);

    const links = await db.query<{ id: number; created_at: Date; modified_at: Date }>(
      'SELECT id, created_at, modified_at FROM usage_links ORDER BY id',
    );
    expect(links.rows.map((r) => [r.id, iso(r.created_at), iso(r.modified_at)])).toEqual([
      [1, '2026-01-01T10:00:00.000Z', '2026-01-01T10:00:00.000Z'],
      [2, '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.000Z'],
    ]);
  });

  it('gives new rows the time they are inserted, and no NULL', async () => {
    await db.query(
      `INSERT INTO masters (id, class, number, name, container_id) VALUES (4, 'wt.part.WTPart', 'NEW', 'New', 1)`,
    );
    await db.query(
      `INSERT INTO usage_links (id, class, parent_id, child_id) VALUES (3, 'wt.part.WTPartUsageLink', 3, 4)`,
    );
    const { rows } = await db.query<{ created_at: Date; modified_at: Date }>(`
      SELECT created_at, modified_at FROM masters WHERE id = 4
      UNION ALL SELECT created_at, modified_at FROM usage_links WHERE id = 3`);
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(Math.abs(r.created_at.getTime() - Date.now())).toBeLessThan(60_000);
      expect(r.modified_at).toEqual(r.created_at);
    }
    await expect(db.query('UPDATE masters SET created_at = NULL WHERE id = 4')).rejects.toThrow(/null value/);
  });
});
