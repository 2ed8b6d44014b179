import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { DatasetError } from '../../src/import/dataset.js';
import { importFile } from '../../src/import/import-file.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/import/import.cli.js');
const CONTAINER = 'Import Links Container';

function writeDataset(data: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pdm-import-')), 'dataset.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
}

/** A part `top` using the parts `uses` (all of them in the dataset, none using anything else). */
function dataset(top: string, uses: string[]) {
  const part = (number: string, used: string[] = []) => ({
    class: 'wt.part.WTPart',
    number,
    name: `part ${number}`,
    container: CONTAINER,
    uses: used.map((n) => ({ number: n })),
  });
  return {
    format: 'pdm-dataset/1',
    containers: [{ name: CONTAINER, class: 'wt.pdmlink.PDMLinkProduct', members: { alice: 'author' } }],
    objects: [part(top, uses), ...['IMP-L-1', 'IMP-L-2', 'IMP-L-3'].map((n) => part(n))],
  };
}

const refusal = (top: string, held: number, cap: number) =>
  `objects[0].uses: wt.part.WTPart ${top} A.1 would hold ${held} usage links, more than one iteration may hold ` +
  `(OBJECTS_MAX_LINKS=${cap})`;

/** The import holds iterations to OBJECTS_MAX_LINKS as POST /objects/<ref>/uses does. */
describe('dataset import: usage links per iteration (OBJECTS_MAX_LINKS)', () => {
  let db: pg.Pool;
  beforeAll(() => {
    db = testPool();
  });
  afterAll(async () => {
    await db.query(`DELETE FROM masters WHERE number LIKE 'IMP-L-%'`);
    await db.query('DELETE FROM containers WHERE name = $1', [CONTAINER]);
    await db.end();
  });

  /** What an import of these datasets could have written: the container, its parts, their links, import events. */
  async function written() {
    const { rows } = await db.query<{ what: string }>(
      `SELECT 'container ' || name AS what FROM containers WHERE name = $1
       UNION ALL SELECT 'part ' || m.number || ' ' || i.version || '.' || i.iteration
         FROM masters m JOIN iterations i ON i.master_id = m.id WHERE m.number LIKE 'IMP-L-%'
       UNION ALL SELECT 'link ' || pm.number || ' -> ' || cm.number
         FROM usage_links ul JOIN iterations pi ON pi.id = ul.parent_id JOIN masters pm ON pm.id = pi.master_id
         JOIN masters cm ON cm.id = ul.child_id WHERE pm.number LIKE 'IMP-L-%'
       UNION ALL SELECT 'import events ' || count(*) FROM audit_events WHERE action = 'import'
       ORDER BY 1`,
      [CONTAINER],
    );
    return rows.map((r) => r.what);
  }

  const linksOf = async (top: string) =>
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM usage_links ul JOIN iterations i ON i.id = ul.parent_id
         JOIN masters m ON m.id = i.master_id WHERE m.number = $1 AND m.class = 'wt.part.WTPart'`,
        [top],
      )
    ).rows[0].n;

  /** Adds a usage link outside the import, as POST /objects/<ref>/uses does (on `client`, in its transaction). */
  async function addLink(client: pg.ClientBase | pg.Pool, top: string, member: string): Promise<void> {
    await client.query(
      `INSERT INTO usage_links (class, parent_id, child_id, quantity, unit)
       SELECT 'wt.part.WTPartUsageLink', i.id, c.id, 1, 'ea'
       FROM masters p JOIN iterations i ON i.master_id = p.id AND i.latest, masters c
       WHERE p.class = 'wt.part.WTPart' AND p.number = $1 AND c.class = 'wt.part.WTPart' AND c.number = $2`,
      [top, member],
    );
  }

  it('refuses a dataset with an iteration over the cap as a whole, naming the iteration and the cap', async () => {
    const before = await written();
    const err = await importFile(
      writeDataset(dataset('IMP-L-TOP', ['IMP-L-1', 'IMP-L-2', 'IMP-L-3'])),
      testDatabaseUrl(),
      {
        maxLinks: 2,
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as Error).message).toBe(refusal('IMP-L-TOP', 3, 2));
    expect(await written()).toEqual(before);
  });

  it('is refused by the import command under OBJECTS_MAX_LINKS, which exits 1 and stores nothing', async () => {
    const before = await written();
    const file = writeDataset(dataset('IMP-L-TOP', ['IMP-L-1', 'IMP-L-2', 'IMP-L-3']));
    const err = (await run(process.execPath, [CLI, file], {
      env: { ...process.env, DATABASE_URL: testDatabaseUrl(), OBJECTS_MAX_LINKS: '2' },
    }).catch((e: unknown) => e)) as { code: number; stdout: string; stderr: string };
    expect({ code: err.code, stdout: err.stdout, stderr: err.stderr.trim() }).toEqual({
      code: 1,
      stdout: '',
      // After the progress line saying what the dataset holds (standard error is no terminal here).
      stderr: `importing ${file}: 4 objects, 0 files (0 B), 3 links\nimport failed, nothing was stored: ${refusal('IMP-L-TOP', 3, 2)}`,
    });
    expect(await written()).toEqual(before);

    const { stdout } = await run(process.execPath, [CLI, file], {
      env: { ...process.env, DATABASE_URL: testDatabaseUrl(), OBJECTS_MAX_LINKS: '3' },
    });
    expect(stdout).toMatch(
      /^imported .*dataset\.json: \d+ roles, 0 users, 1 containers, 0 workspaces, 0 types, 4 objects, 0 files, 3 links/,
    );
    expect(await linksOf('IMP-L-TOP')).toBe(3);
  });

  it('counts the links the iteration already holds', async () => {
    const file = writeDataset(dataset('IMP-L-MID', ['IMP-L-1', 'IMP-L-2']));
    await importFile(file, testDatabaseUrl(), { maxLinks: 2 });
    await addLink(db, 'IMP-L-MID', 'IMP-L-3');
    const before = await written();

    const err = await importFile(file, testDatabaseUrl(), { maxLinks: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as Error).message).toBe(refusal('IMP-L-MID', 3, 2));
    expect(await written()).toEqual(before);

    await importFile(file, testDatabaseUrl(), { maxLinks: 3 });
    expect(await linksOf('IMP-L-MID')).toBe(3);
  });

  /**
   * A link added elsewhere while the import runs is counted: the import takes the lock link adds
   * take before anything else, so it waits for an add under way and then sees its link. Without
   * that lock the import would count only its own links, pass, and leave 3 on the iteration.
   */
  it('waits for a link being added elsewhere and counts it', async () => {
    await importFile(writeDataset(dataset('IMP-L-RACE', ['IMP-L-1'])), testDatabaseUrl(), { maxLinks: 2 });
    const adder = new pg.Client({ connectionString: testDatabaseUrl() });
    await adder.connect();
    try {
      await adder.query('BEGIN');
      await adder.query(`SELECT pg_advisory_xact_lock(hashtext('pdm.usage_structure'))`);
      await addLink(adder, 'IMP-L-RACE', 'IMP-L-3');
      const adderPid = (await adder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

      const importing = importFile(writeDataset(dataset('IMP-L-RACE', ['IMP-L-1', 'IMP-L-2'])), testDatabaseUrl(), {
        maxLinks: 2,
      }).catch((e: unknown) => e);
      await waitUntilBlockedBy(adderPid);
      await adder.query('COMMIT');

      const err = await importing;
      expect(err).toBeInstanceOf(DatasetError);
      expect((err as Error).message).toBe(refusal('IMP-L-RACE', 3, 2));
      expect(await linksOf('IMP-L-RACE')).toBe(2);
    } finally {
      await adder.end();
    }
  });

  async function waitUntilBlockedBy(pid: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)) AND query LIKE '%pdm.usage_structure%'`,
        [pid],
      );
      if (rows[0].n > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the import did not wait for the link being added');
  }
});
