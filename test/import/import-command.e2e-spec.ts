import { execFile, spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { DEMO_DATASET } from '../../src/import/demo-seed.js';
import { migrationNames } from '../../src/prisma/migrate.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { testDatabaseUrl } from '../helpers/test-database.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/import/import.cli.js');

describe('the import command on a database that was never migrated', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await scratchDatabase({ demo: false });
  });
  afterAll(() => db?.drop());

  it('says to apply the migrations first, exits 1 and creates nothing', async () => {
    const err = (await run(process.execPath, [CLI, DEMO_DATASET], {
      env: { ...process.env, DATABASE_URL: db.url },
    }).catch((e: unknown) => e)) as { code: number; stdout: string; stderr: string };
    const pending = migrationNames();
    expect(err.code).toBe(1);
    expect(err.stdout).toBe('');
    expect(err.stderr.trim()).toBe(
      `import failed, nothing was stored: the database is not migrated (${pending.length} pending: ` +
        `${pending.join(', ')}); apply the migrations first with \`npx prisma migrate deploy\` ` +
        '(or start the service once, which applies them)',
    );

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const tables = await client.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
      );
      expect(tables.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});

describe('npm run import:prod (the command of the production image, which cannot build)', () => {
  it('imports a dataset read from standard input without building', async () => {
    // As documented: docker compose exec -T app npm run import:prod -- - < dataset.json
    const child = spawn('npm', ['run', '--silent', 'import:prod', '--', '-'], {
      env: { ...process.env, DATABASE_URL: testDatabaseUrl() },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    createReadStream(DEMO_DATASET).pipe(child.stdin);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, stdout: stdout.replace(/\(\d+\.\d s\)/, '(…)') }).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^imported standard input: \d+ roles, 4 users, 3 containers, .*\(…\)\n$/),
    });
    expect(stderr).not.toMatch(/prisma generate|tsc|Generated Prisma Client/);
  });
});
