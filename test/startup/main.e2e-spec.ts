import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startService as start, waitForOutput, waitReady } from './service-process.js';

const MIGRATIONS = readdirSync(join(process.cwd(), 'prisma/migrations'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('starting the service', () => {
  it('refuses to start with bad configuration, listing every bad variable', async () => {
    const s = start({ PORT: 'abc', DB_POOL_MAX: '0', DATABASE_URL: 'mysql://x' });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('invalid configuration');
    expect(s.output()).toContain('PORT: "abc" is not an integer');
    expect(s.output()).toContain('DATABASE_URL: must start with postgresql://');
    expect(s.output()).toContain('DB_POOL_MAX: 0 is not between 1 and 1000');
  });

  it('names DATA_DIR when it cannot create that folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdm-data-dir-'));
    try {
      const file = join(dir, 'a-file');
      writeFileSync(file, '');
      const s = start({ DATABASE_URL: undefined, DATA_DIR: join(file, 'data'), PORT: '0' });
      expect(await s.exited).toBe(1);
      expect(s.output()).toBe(
        `DATA_DIR ${join(file, 'data')}: cannot create the folder ` +
          `(ENOTDIR: not a directory, mkdir '${join(file, 'data')}')\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says first that the server of DATABASE_URL cannot be reached', async () => {
    const port = await freePort(); // nothing listens there
    const s = start({ DATABASE_URL: `postgresql://pdm:secret@127.0.0.1:${port}/pdm`, PORT: '0' });
    expect(await s.exited).toBe(1);
    expect(s.output()).toBe(
      `cannot reach the database server at 127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    );
    // A server that answers but refuses the connection: said as such.
    const refused = start({ DATABASE_URL: 'postgresql://no_such_role@127.0.0.1:5432/pdm', PORT: '0' });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toBe(
      'the database server at 127.0.0.1:5432 refused the connection: role "no_such_role" does not exist\n',
    );
  });

  it('without DATABASE_URL runs on the embedded database with demo data, stops cleanly, and keeps its data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pdm-embedded-'));
    const port = await freePort();
    const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, PORT: String(port) };
    const auth = `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`;

    const first = start(env);
    await waitForOutput(first, 'serving on');
    await waitReady(first, port);
    expect(first.output()).toContain('loaded the demo data');
    expect(first.output()).toContain(`applied ${MIGRATIONS.length} migrations: ${MIGRATIONS.join(', ')}`);
    expect(first.output()).not.toContain('up to date');
    const res = await fetch(`http://127.0.0.1:${port}/files/version`, { headers: { Authorization: auth } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      version: expect.any(String),
      build: expect.any(Number),
      date: expect.any(String),
    });
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // One JSON line per request, with the id the response carried (written before the exit).
    const logged = first
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        requestId: res.headers.get('x-request-id'),
        method: 'GET',
        path: '/files/version',
        status: 200,
        user: 'alice',
        durationMs: expect.any(Number),
      }),
    );

    const second = start(env);
    await waitForOutput(second, 'serving on');
    await waitReady(second, port);
    expect(second.output()).not.toContain('loaded the demo data');
    expect(second.output()).toContain('no pending migrations: the database schema is up to date');
    expect(second.output()).not.toContain('applied ');
    const again = await fetch(`http://127.0.0.1:${port}/numbers/version`, { headers: { Authorization: auth } });
    expect(again.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    rmSync(dataDir, { recursive: true, force: true });
  }, 180_000);
});
