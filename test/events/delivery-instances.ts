import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import {
  freePort,
  startService,
  stopService,
  waitForOutput,
  waitReady,
  type ServiceProcess,
} from '../startup/service-process.js';
import { EVENTS_ENV, type User } from './events-fixtures.js';

/** Longest any one request of these tests may take before the test says the service hangs. */
const ANSWER_MS = 30_000;

/** One `node dist/src/main.js` on the file's database, delivering events. */
export interface Instance {
  name: string;
  service: ServiceProcess;
  base: string;
}

/**
 * What the fault tests run the service with: the events tests' settings (loopback webhooks,
 * quick polls and retries), a short lease so a survivor takes over soon after a crash, and
 * attempts enough that no event of a burst ends as a dead letter.
 */
export const FAULT_ENV = {
  ...EVENTS_ENV,
  EVENTS_LEASE_MS: '3000',
  // Below the lease: a call that hangs ends before another instance may take the subscription.
  EVENTS_WEBHOOK_TIMEOUT_MS: '1500',
  EVENTS_MAX_ATTEMPTS: '100',
  MIGRATE_ON_START: 'false',
};

/** Starts the built service on `databaseUrl` and a free port; resolves once it is ready. */
export async function startInstance(
  name: string,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort();
  const service = startService({ ...FAULT_ENV, ...env, DATABASE_URL: databaseUrl, PORT: String(port) });
  try {
    await waitForOutput(service, 'serving on');
    await waitReady(service, port);
  } catch (e) {
    service.child.kill('SIGKILL');
    throw e;
  }
  return { name, service, base: `http://127.0.0.1:${port}` };
}

export const running = (i: Instance) => i.service.child.exitCode === null && i.service.child.signalCode === null;

/** SIGKILL: no shutdown hook runs, leases stay taken until they expire. */
export async function killInstance(i: Instance): Promise<void> {
  i.service.child.kill('SIGKILL');
  await i.service.exited;
}

/** SIGTERM (leases are given back), or SIGKILL when it does not end in time; nothing when it ended. */
export async function endInstance(i: Instance | undefined): Promise<void> {
  if (!i || !running(i)) return;
  await stopService(i.service).catch(() => undefined);
}

/**
 * The instance whose delivery loop holds the subscription's lease (lease owners are
 * `<host>:<pid>:<random>`), or undefined when none of `instances` does.
 */
export async function leaseHolder(
  db: pg.Pool,
  subscriptionId: number,
  instances: readonly Instance[],
): Promise<Instance | undefined> {
  const { rows } = await db.query<{ lease_owner: string | null }>(
    'SELECT lease_owner FROM event_subscriptions WHERE id = $1',
    [subscriptionId],
  );
  const pid = Number(rows[0]?.lease_owner?.split(':')[1]);
  return instances.find((i) => i.service.child.pid === pid);
}

/** A request to one instance as `user`, with a bounded wait; throws on network errors. */
export function call(i: Instance, user: User, method: string, path: string, body?: object): Promise<Response> {
  const [u, p] = USERS[user];
  return fetch(`${i.base}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(ANSWER_MS),
  });
}

/**
 * `count` number reservations (each records one `numbers.generate` event) as alice, `parallel`
 * at a time, write `k` in `containers[k % n]` through the running instances in turn. A write
 * whose instance is gone (refused, or cut off by the kill) is made again through another: one
 * cut off may have committed, so the audit trail, not this count, says which events exist.
 * `after(k)` runs once write `k` was answered.
 */
export async function writeBurst(opts: {
  count: number;
  parallel: number;
  instances: () => readonly Instance[];
  containers: readonly string[];
  after?: (k: number) => void;
}): Promise<void> {
  let next = 0;
  const write = async (k: number) => {
    const container = opts.containers[k % opts.containers.length];
    const path = `/numbers/generate/wt.doc.WTDocument?container-name=${encodeURIComponent(container)}&count=1`;
    for (let attempt = 0; ; attempt++) {
      const up = opts.instances().filter(running);
      if (up.length === 0) throw new Error('no instance is running');
      // fetch's errors come from another realm than the test's (instanceof Error fails on them).
      const res = await call(up[(k + attempt) % up.length], 'alice', 'POST', path).then(
        (answer) => ({ answer }),
        (error: Error) => ({ error }),
      );
      if ('answer' in res) {
        const body = await res.answer.text();
        if (res.answer.status !== 200) throw new Error(`write ${k}: ${res.answer.status} ${body}`);
        return;
      }
      if (attempt >= 50) throw new Error(`write ${k} failed on every instance: ${res.error.message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const worker = async () => {
    while (next < opts.count) {
      const k = next++;
      await write(k);
      opts.after?.(k);
    }
  };
  await Promise.all(Array.from({ length: opts.parallel }, worker));
}

/** Each subscription's cursor and the log's head. */
export async function cursors(db: pg.Pool, ids: readonly number[]): Promise<{ head: bigint; of: Map<number, bigint> }> {
  const head = await db.query<{ head: string }>('SELECT COALESCE(max(position), 0)::text AS head FROM event_log');
  const subs = await db.query<{ id: number; cursor: string }>(
    'SELECT id, cursor::text AS cursor FROM event_subscriptions WHERE id = ANY($1)',
    [ids],
  );
  return { head: BigInt(head.rows[0].head), of: new Map(subs.rows.map((r) => [r.id, BigInt(r.cursor)])) };
}

/**
 * Waits (bounded) until every subscription's cursor reached the log's head and no write is
 * still being logged; fails naming the cursors that did not.
 */
export async function waitForCursorsAtHead(db: pg.Pool, ids: readonly number[], ms = 60_000): Promise<bigint> {
  const until = Date.now() + ms;
  for (;;) {
    const { head, of } = await cursors(db, ids);
    if (ids.every((id) => of.get(id) === head)) return head;
    if (Date.now() > until) {
      const at = ids.map((id) => `${id}: ${of.get(id)}`).join(', ');
      throw new Error(`gave up after ${ms} ms waiting for the cursors (${at}) to reach the head ${head}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The log's events after `after` (id and position, in log order), with their action and container. */
export async function logAfter(
  db: pg.Pool,
  after: bigint,
): Promise<{ id: string; position: bigint; action: string; containerId: number | null }[]> {
  const { rows } = await db.query<{ id: string; position: string; action: string; container_id: number | null }>(
    `SELECT a.id::text AS id, l.position::text AS position, a.action, a.container_id
     FROM event_log l JOIN audit_events a ON a.id = l.event_id WHERE l.position > $1 ORDER BY l.position`,
    [String(after)],
  );
  return rows.map((r) => ({ id: r.id, position: BigInt(r.position), action: r.action, containerId: r.container_id }));
}
