import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const read = (file: string) => readFileSync(join(process.cwd(), file), 'utf8');

/** The app service's healthcheck command in docker-compose.yml (an exec-form JSON array). */
function composeHealthcheck(): string[] {
  const app = read('docker-compose.yml').split(/^ {2}app:$/m)[1];
  const line = /^\s*test: (\[.*\])$/m.exec(app)?.[1];
  if (!line) throw new Error('docker-compose.yml: the app service has no healthcheck test');
  return JSON.parse(line) as string[];
}

/** Runs the healthcheck as Docker would, with the app's PORT and BASE_PATH; its exit code. */
async function healthcheck(port: number, basePath = ''): Promise<number> {
  const [form, command, ...args] = composeHealthcheck();
  expect([form, command]).toEqual(['CMD', 'node']);
  return run(process.execPath, args, {
    env: { ...process.env, PORT: String(port), BASE_PATH: basePath },
    timeout: 10_000,
  }).then(
    () => 0,
    (e: { code: number }) => e.code,
  );
}

async function listening(t: TestApp): Promise<number> {
  await t.app.listen(0, '127.0.0.1');
  return (t.app.getHttpServer().address() as AddressInfo).port;
}

describe('the compose healthcheck of the app (/health/ready)', () => {
  it('passes when the service is ready, under BASE_PATH too', async () => {
    const t = await createTestApp({ BASE_PATH: '/pdm' });
    try {
      const port = await listening(t);
      expect(await healthcheck(port, '/pdm')).toBe(0);
      // The path really matters: without the prefix the check fails.
      expect(await healthcheck(port, '')).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('fails when the database is unreachable (ready answers 503)', async () => {
    const t = await createTestApp({
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/nowhere',
      DB_CONNECT_TIMEOUT_MS: '500',
    });
    try {
      expect(await healthcheck(await listening(t))).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('fails when nothing listens', async () => {
    const t = await createTestApp();
    const port = await listening(t);
    await t.close();
    expect(await healthcheck(port)).toBe(1);
  });
});

/**
 * Docker cannot run here: these pin what a line-by-line review of the Dockerfile established, so
 * an edit that breaks the image fails a test instead of the first `docker build`.
 */
describe('the Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const pkg = JSON.parse(read('package.json')) as {
    engines: { node: string };
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
  };

  it('builds and runs on Node 22 LTS, which package.json asks for', () => {
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual([
      'node:22-bookworm-slim',
      'node:22-bookworm-slim',
    ]);
    expect(pkg.engines).toEqual({ node: '>=22' });
  });

  it('installs exactly the lock file, builds, and keeps only production dependencies', () => {
    expect(dockerfile).toMatch(/^RUN npm ci --no-audit --no-fund --ignore-scripts$/m);
    expect(dockerfile).toMatch(/npm run build && npm prune --omit=dev/);
  });

  it('copies into the run stage everything the service reads at run time', () => {
    const copied = [...dockerfile.matchAll(/^COPY --from=build (.+) (\S+)$/gm)].flatMap((m) =>
      m[1].split(' ').map((p) => p.replace(/^\/app\//, '')),
    );
    // The compiled service, the prisma CLI's config and migrations (migrate at start), the demo
    // dataset (seed), the version record, and the dependencies.
    expect(copied.sort()).toEqual(
      [
        'build-info.json',
        'dist',
        'node_modules',
        'package-lock.json',
        'package.json',
        'prisma',
        'prisma.config.ts',
      ].sort(),
    );
    // prisma migrate deploy runs from node_modules at start: it must survive `npm prune --omit=dev`.
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['prisma', '@prisma/client', 'pg']));
  });

  it('starts the compiled service, and imports without building', () => {
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/src\/main\.js"\]$/m);
    expect(pkg.scripts['import:prod']).toBe('node dist/src/import/import.cli.js');
    for (const file of ['dist/src/main.js', 'dist/src/import/import.cli.js', 'prisma/demo-dataset.json']) {
      expect(() => read(file)).not.toThrow();
    }
  });
});
