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
