import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { load as parseYaml } from 'js-yaml';
import { loadConfig } from '../../src/config/app-config.js';
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
    // The compiled service, the prisma CLI's config, the patches it loads (TypeScript, as the config
    // is) and the migrations (migrate at start), the demo dataset (seed), the version record, the
    // type catalog (read at start), and the dependencies.
    expect(copied.sort()).toEqual(
      [
        'build-info.json',
        'catalog',
        'dist',
        'node_modules',
        'package-lock.json',
        'package.json',
        'prisma',
        'prisma.config.ts',
        'src/patches',
      ].sort(),
    );
    // What prisma.config.ts imports from the sources is all in src/patches.
    const config = read('prisma.config.ts');
    const imported = [...config.matchAll(/from '\.\/([^']+)'/g)].map((m) => m[1]);
    expect(imported.length).toBeGreaterThan(0);
    for (const path of imported) expect(path).toMatch(/^src\/patches\/[^/]+\.js$/);
    // …and they import nothing else of the sources.
    for (const file of readdirSync(join(process.cwd(), 'src/patches')).filter((f) => !f.endsWith('.spec.ts'))) {
      const relative = [...read(`src/patches/${file}`).matchAll(/from '(\.[^']*)'/g)].map((m) => m[1]);
      for (const path of relative)
        expect({ file, path }).toEqual({ file, path: expect.stringMatching(/^\.\/[^/]+\.js$/) });
    }
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

/**
 * docker-compose.yml, parsed as YAML: the default services stay as they were, and the scaleout
 * profile (docs/deployment.md) is wired together correctly. No Docker engine runs here, so what
 * Docker would only find out at `up` is checked by reading.
 */
describe('docker-compose.yml', () => {
  interface Service {
    profiles?: string[];
    image?: string;
    build?: string;
    environment?: Record<string, string>;
    depends_on?: Record<string, { condition: string }>;
    entrypoint?: string[];
    command?: string[];
    configs?: { source: string; target: string }[];
    ports?: string[];
  }
  const compose = parseYaml(read('docker-compose.yml')) as {
    services: Record<string, Service>;
    configs: Record<string, { content: string }>;
    volumes: Record<string, null>;
  };
  const { services } = compose;
  const scaleout = Object.keys(services).filter((s) => services[s].profiles?.includes('scaleout'));
  /** What Docker Compose makes of `$$` in these strings. */
  const unescape = (s: string) => s.replace(/\$\$/g, '$');

  it('starts only the database and the service by default, as before', () => {
    expect(Object.keys(services).filter((s) => !services[s].profiles)).toEqual(['db', 'app']);
    expect(services.app).toMatchObject({
      build: '.',
      environment: { DATABASE_URL: 'postgresql://pdm:pdm@db:5432/pdm', SEED_DEMO_DATA: 'true' },
      ports: ['3000:3000'],
    });
    expect(Object.keys(services.app.environment!)).toEqual(['DATABASE_URL', 'SEED_DEMO_DATA']);
  });

  it('has a scaleout profile with a primary, a replica, MinIO, NATS, two instances and a balancer', () => {
    expect(scaleout.sort()).toEqual([
      'app-1',
      'app-2',
      'balancer',
      'minio',
      'minio-bucket',
      'nats',
      'primary',
      'replica',
    ]);
    for (const s of scaleout) {
      for (const dep of Object.keys(services[s].depends_on ?? {})) expect(scaleout).toContain(dep);
      for (const c of services[s].configs ?? []) expect(compose.configs[c.source]).toBeDefined();
    }
    expect(Object.keys(compose.volumes).sort()).toEqual([
      'minio-data',
      'nats-data',
      'pgdata',
      'primary-data',
      'replica-data',
    ]);
  });

  it('gives both instances a configuration the service accepts, the same but for start-up', () => {
    const [one, two] = [services['app-1'].environment!, services['app-2'].environment!];
    for (const env of [one, two]) {
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
      expect(new URL(config.databaseUrl).host).toBe('primary:5432');
      expect(new URL(config.databaseReplicaUrl).host).toBe('replica:5432');
      expect(config.trustProxy).toBe(1);
      // Change events may go to the profile's NATS server, with JetStream on.
      expect(config.eventsNatsUrl).toBe('nats://nats:4222');
      expect(services.nats.command).toEqual(expect.arrayContaining(['-js']));
      expect(env).toMatchObject({
        FILES_STORE: 's3',
        FILES_S3_ENDPOINT: 'http://minio:9000',
        FILES_S3_BUCKET: 'pdm-files',
      });
    }
    const { MIGRATE_ON_START, SEED_DEMO_DATA, ...shared } = two;
    expect([MIGRATE_ON_START, SEED_DEMO_DATA]).toEqual(['false', 'false']);
    expect(one).toEqual({ ...shared, SEED_DEMO_DATA: 'true' });
    expect(services['app-2'].depends_on).toEqual({ 'app-1': { condition: 'service_healthy' } });
    // The instances are reached through the balancer only.
    expect([services['app-1'].ports, services['app-2'].ports]).toEqual([undefined, undefined]);
  });

  it('makes the replica from the primary with replication allowed, and MinIO the bucket the instances use', () => {
    expect(services.primary.command).toEqual(expect.arrayContaining(['wal_level=replica']));
    expect(unescape(compose.configs['allow-replication'].content)).toBe(
      'echo "host replication pdm all scram-sha-256" >> "$PGDATA/pg_hba.conf"\n',
    );
    const replicaScript = unescape(services.replica.entrypoint!.join(' '));
    expect(replicaScript).toContain('pg_basebackup -h primary -p 5432 -U pdm -D "$PGDATA" -R -X stream -c fast');
    expect(services.replica.environment).toMatchObject({ PGPASSWORD: 'pdm' });
    const bucket = services['minio-bucket'].entrypoint!.join(' ');
    expect(bucket).toContain('http://minio:9000 pdm pdm-secret');
    expect(bucket).toContain('store/pdm-files');
    expect(services.minio.environment).toEqual({ MINIO_ROOT_USER: 'pdm', MINIO_ROOT_PASSWORD: 'pdm-secret' });
    expect(services['app-1'].environment).toMatchObject({
      FILES_S3_ACCESS_KEY_ID: 'pdm',
      FILES_S3_SECRET_ACCESS_KEY: 'pdm-secret',
    });
  });

  it('balances over both instances without buffering bodies', () => {
    const nginx = unescape(compose.configs.balancer.content);
    expect([...nginx.matchAll(/server (app-\d):3000;/g)].map((m) => m[1])).toEqual(['app-1', 'app-2']);
    expect(nginx).toContain('proxy_request_buffering off;');
    expect(nginx).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(services.balancer.ports).toEqual(['3100:80']);
  });
});
