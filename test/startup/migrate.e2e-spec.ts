import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { applyMigrations, migrationNames, projectRoot } from '../../src/prisma/migrate.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';

const FAILING = '99990101000000_fails';
const UNSEEN = '99990101000001_unseen';

/**
 * A copy of the project as `prisma migrate deploy` sees it (prisma.config.ts, the schema and the
 * migrations; the patches and the dependencies linked), to add migrations to. `shipped`: the
 * migrations folder the config names instead of prisma/migrations, with this build's migrations
 * only.
 */
function projectCopy(opts: { shipped?: boolean } = {}): string {
  const root = projectRoot();
  const dir = mkdtempSync(join(tmpdir(), 'pdm-migrate-test-'));
  let config = readFileSync(join(root, 'prisma.config.ts'), 'utf8');
  if (opts.shipped) {
    config = config.replace("path: 'prisma/migrations'", "path: 'prisma/shipped'");
    expect(config).toContain("path: 'prisma/shipped'");
    cpSync(join(root, 'prisma', 'migrations'), join(dir, 'prisma', 'shipped'), { recursive: true });
  }
  writeFileSync(join(dir, 'prisma.config.ts'), config);
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  cpSync(join(root, 'prisma', 'schema.prisma'), join(dir, 'prisma', 'schema.prisma'));
  cpSync(join(root, 'prisma', 'migrations'), join(dir, 'prisma', 'migrations'), { recursive: true });
  mkdirSync(join(dir, 'src'));
  symlinkSync(join(root, 'src', 'patches'), join(dir, 'src', 'patches'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

function addMigration(dir: string, name: string, sql: string): void {
  mkdirSync(join(dir, 'prisma', 'migrations', name), { recursive: true });
  writeFileSync(join(dir, 'prisma', 'migrations', name, 'migration.sql'), sql);
}

/**
 * applyMigrations runs `prisma migrate deploy` and decides whether it succeeded by Prisma's table
 * `_prisma_migrations`, not by what the CLI printed: every migration applied, none failed.
 */
describe('applyMigrations', () => {
  let scratch: ScratchDatabase;
  let db: pg.Client;
  const copies: string[] = [];
  const copy = (opts?: { shipped?: boolean }) => {
    const dir = projectCopy(opts);
    copies.push(dir);
    return dir;
  };
  const rows = async () =>
    (
      await db.query<{ name: string; finished: boolean; rolled_back: boolean; failed: boolean }>(
        `SELECT migration_name AS name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back,
                (finished_at IS NULL AND logs IS NOT NULL) AS failed
         FROM _prisma_migrations WHERE migration_name LIKE '9999%' ORDER BY started_at`,
      )
    ).rows;

  beforeAll(async () => {
    scratch = await scratchDatabase({ demo: false });
  });
  afterAll(async () => {
    await db?.end();
    await scratch?.drop();
    for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  });

  it('applies every migration to an empty database and names them, then none', async () => {
    expect(await applyMigrations(scratch.url)).toEqual(migrationNames());
    expect(await applyMigrations(scratch.url)).toEqual([]);
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const { rows: applied } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    expect(applied).toEqual([{ n: migrationNames().length }]);
  });

  it('fails when the CLI says all is applied but the table lacks a migration of the build', async () => {
    // The CLI reads prisma/shipped, which lacks the migration this build has in prisma/migrations.
    const dir = copy({ shipped: true });
    addMigration(dir, UNSEEN, 'SELECT 1;\n');
    const failure = applyMigrations(scratch.url, dir);
    await expect(failure).rejects.toThrow(
      new RegExp(
        `^prisma migrate deploy failed \\((exit 0|stopped by SIGTERM); _prisma_migrations: not applied: ${UNSEEN}\\):`,
      ),
    );
    await expect(failure).rejects.toThrow('No pending migrations to apply.');
    expect(await rows()).toEqual([]);
  });

  describe('with a migration that fails', () => {
    let dir: string;
    beforeAll(() => {
      dir = copy();
      addMigration(dir, FAILING, 'SELECT 1 / 0;\n');
    });

    it("fails, naming it from the table and giving the CLI's output", async () => {
      const failure = applyMigrations(scratch.url, dir);
      await expect(failure).rejects.toThrow(
        new RegExp(`^prisma migrate deploy failed \\(exit \\d+; _prisma_migrations: failed: ${FAILING}\\): Error:`),
      );
      await expect(failure).rejects.toThrow('division by zero');
      expect(await rows()).toEqual([{ name: FAILING, finished: false, rolled_back: false, failed: true }]);
    });

    it('fails again while the table holds the failure, although nothing new failed', async () => {
      const failure = applyMigrations(scratch.url, dir);
      await expect(failure).rejects.toThrow(
        new RegExp(`^prisma migrate deploy failed \\(exit \\d+; _prisma_migrations: failed: ${FAILING}\\)`),
      );
      await expect(failure).rejects.toThrow('P3009');
    });

    it('applies it once the failure is marked rolled back and the migration mended', async () => {
      await db.query('UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1', [FAILING]);
      writeFileSync(join(dir, 'prisma', 'migrations', FAILING, 'migration.sql'), 'SELECT 1;\n');
      expect(await applyMigrations(scratch.url, dir)).toEqual([FAILING]);
      expect(await rows()).toEqual([
        { name: FAILING, finished: false, rolled_back: true, failed: true },
        { name: FAILING, finished: true, rolled_back: false, failed: false },
      ]);
    });
  });
});
