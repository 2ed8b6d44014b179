/**
 * What a generated number costs when a document is created: `POST /objects` with
 * `"number": "generate"` against the same create with a number given, on the production build.
 *
 *   npm run build && node dist/bench/create-generated.js [--database-url <a database URL on the server>]
 *     [--server-log <file>] [--creates 300] [--rounds 3] [--connections 8] [--service <main.js>]
 *
 * Makes a database of its own on the server (migrated, with the demo data), starts the service on
 * it and creates documents in Drive Unit as alice:
 * - statements: with `log_min_duration_statement = 0` set on that database, 30 creates of each
 *   kind, and the statements run on that database for each with the server's time for them (the
 *   median per statement), read from the server's log (`--server-log`,
 *   default /var/log/postgresql/postgresql-15-main.log, whose `log_line_prefix` must name the
 *   database, as Debian's `%q%u@%d` does; skipped when there is no such file);
 * - time: `--rounds` rounds, each `--creates` creates of each kind one after the other on one
 *   connection (median and mean per create, the kinds alternating), then as many spread over
 *   `--connections` connections (creates per second: generated numbers of one rule wait for each
 *   other's commit, given ones do not).
 * `--service` runs another build of the service (a copy of `dist/` kept inside the project, so
 * that it finds node_modules), to compare two builds in alternating runs on a shared machine.
 * Prints the figures and the load average, then drops the database (docs/benchmarks.md, "Creating
 * an object with a generated number").
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { seedDemoData } from '../src/import/demo-seed.js';
import { applyMigrations, projectRoot } from '../src/prisma/migrate.js';
import { startServer, type ChildServer } from './harness/child-server.js';
import { benchDatabaseUrl, dropDatabase, ensureDatabase, withClient, withDatabase } from './harness/database.js';

type Kind = 'generated' | 'given';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'server-log': { type: 'string', default: '/var/log/postgresql/postgresql-15-main.log' },
    creates: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    service: { type: 'string' },
  },
});
const CREATES = Number(args.creates);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const AUTH = `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`;
let serial = 0;

function body(kind: Kind): string {
  const number = kind === 'generated' ? 'generate' : `CG-${process.pid}-${++serial}`;
  return JSON.stringify({ type: 'wt.doc.WTDocument', container: 'Drive Unit', number, name: 'measured' });
}

/** One create; its wall time in milliseconds. */
function create(url: string, agent: http.Agent, kind: Kind): Promise<number> {
  const payload = body(kind);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/objects`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: AUTH,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 201) {
            reject(new Error(`${kind} create answered ${res.statusCode}: ${Buffer.concat(chunks).toString()}`));
          } else resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** One statement as the server logged it: its text and its time (parse, bind and execute together). */
interface Logged {
  text: string;
  ms: number;
}

/**
 * The statements run on database `db` logged from `offset` on, with `log_min_duration_statement
 * = 0` (log_line_prefix must name the database, as `%q%u@%d` does). The extended protocol logs
 * parse, bind (which plans an unnamed statement) and execute apart: their times are added up.
 */
function statementsSince(log: string, offset: number, db: string): Logged[] {
  const size = statSync(log).size;
  const buf = Buffer.alloc(size - offset);
  const fd = openSync(log, 'r');
  try {
    readSync(fd, buf, 0, buf.length, offset);
  } finally {
    closeSync(fd);
  }
  const entry = new RegExp(
    `@${db} LOG: {2}duration: ([0-9.]+) ms {2}(parse|bind|execute|statement)[^:]*: ([\\s\\S]*)$`,
  );
  const out: Logged[] = [];
  let pending = 0;
  for (const text of buf.toString('utf8').split(/\n(?=\d{4}-\d\d-\d\d )/)) {
    const m = entry.exec(text);
    if (!m) continue;
    pending += Number(m[1]);
    if (m[2] === 'execute' || m[2] === 'statement') {
      out.push({ text: m[3].replace(/\s+/g, ' ').trim().slice(0, 100), ms: pending });
      pending = 0;
    }
  }
  return out;
}

/** The statements of `n` creates of each kind, and the server's time for each (medians). */
async function countStatements(service: ChildServer, db: string, log: string, n = 30): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < 3; i++)
    for (const kind of ['generated', 'given'] as const) await create(service.url, agent, kind);
  for (const kind of ['generated', 'given'] as const) {
    const offset = statSync(log).size;
    for (let i = 0; i < n; i++) await create(service.url, agent, kind);
    await new Promise((r) => setTimeout(r, 500));
    // A create is its transaction, BEGIN to COMMIT; the catalog's occasional check runs outside.
    const creates: Logged[][] = [];
    let current: Logged[] | null = null;
    for (const st of statementsSince(log, offset, db)) {
      if (st.text === 'BEGIN') current = [];
      current?.push(st);
      if (st.text === 'COMMIT' && current) {
        creates.push(current);
        current = null;
      }
    }
    if (creates.length !== n || creates.some((c) => c.length !== creates[0].length)) {
      throw new Error(`expected ${n} creates of the same statements, found ${creates.map((c) => c.length).join(', ')}`);
    }
    const total = median(creates.map((c) => c.reduce((sum, st) => sum + st.ms, 0)));
    console.log(
      `\n${kind} number: ${creates[0].length} statements, server time per create (median) ${total.toFixed(3)} ms`,
    );
    creates[0].forEach((st, i) => {
      const ms = median(creates.map((c) => c[i].ms));
      console.log(`  ${ms.toFixed(3).padStart(7)} ms  ${st.text}`);
    });
  }
  agent.destroy();
}

async function measure(url: string): Promise<void> {
  const one = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const many = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  for (let i = 0; i < 20; i++) for (const kind of ['generated', 'given'] as const) await create(url, one, kind);
  const times: Record<Kind, number[]> = { generated: [], given: [] };
  const rates: Record<Kind, number[]> = { generated: [], given: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (let i = 0; i < CREATES; i++) {
      for (const kind of ['generated', 'given'] as const) times[kind].push(await create(url, one, kind));
    }
    for (const kind of ['generated', 'given'] as const) {
      const started = process.hrtime.bigint();
      let left = CREATES;
      const worker = async () => {
        while (left-- > 0) await create(url, many, kind);
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, worker));
      rates[kind].push(CREATES / (Number(process.hrtime.bigint() - started) / 1e9));
    }
    console.log(
      `round ${round}/${ROUNDS} done, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
  console.log('\nkind       one connection: median   mean    ' + `${CONNECTIONS} connections: creates/s (per round)`);
  for (const kind of ['generated', 'given'] as const) {
    console.log(
      `${kind.padEnd(10)} ${median(times[kind]).toFixed(2).padStart(21)} ms ${mean(times[kind]).toFixed(2).padStart(6)} ms` +
        `    ${rates[kind].map((r) => r.toFixed(0)).join(', ')}`,
    );
  }
  one.destroy();
  many.destroy();
}

async function main(): Promise<void> {
  const serverUrl = benchDatabaseUrl(args['database-url']);
  const db = `pdm_create_generated_${process.pid}`;
  const url = withDatabase(serverUrl, db);
  const adminUrl = withDatabase(serverUrl, 'postgres');
  const serviceJs = args.service ?? join(projectRoot(), 'dist', 'src', 'main.js');
  const env = { DATABASE_URL: url, NODE_ENV: 'production', MIGRATE_ON_START: 'false', SEED_DEMO_DATA: 'false' };
  console.log(
    `service ${serviceJs}, load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await ensureDatabase(url);
  try {
    await applyMigrations(url);
    await seedDemoData(url);
    const log = args['server-log']!;
    if (existsSync(log)) {
      await withClient(adminUrl, (c) => c.query(`ALTER DATABASE ${db} SET log_min_duration_statement = 0`));
      const logged = await startServer({ name: 'service-logged', script: serviceJs, env, readyPath: '/files/version' });
      try {
        await countStatements(logged, db, log);
      } finally {
        await logged.stop();
        await withClient(adminUrl, (c) => c.query(`ALTER DATABASE ${db} RESET log_min_duration_statement`));
      }
    } else console.log(`no server log at ${log}: statements not counted`);
    const service = await startServer({ name: 'service', script: serviceJs, env, readyPath: '/files/version' });
    try {
      await measure(service.url);
    } finally {
      await service.stop();
    }
  } finally {
    await dropDatabase(url);
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
