import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createContainer, type TestContainer } from '../numbers/numbers-fixtures.js';
import { WebhookReceiver } from './webhook-receiver.js';

export type User = keyof typeof USERS;

/** What the events tests set: webhooks on loopback, quick polls and retries. */
export const EVENTS_ENV = {
  EVENTS_WEBHOOK_ALLOW: '127.0.0.1',
  EVENTS_POLL_MS: '100',
  EVENTS_RETRY_BASE_MS: '50',
  EVENTS_RETRY_MAX_MS: '200',
  EVENTS_MAX_ATTEMPTS: '3',
  EVENTS_WEBHOOK_TIMEOUT_MS: '1000',
};

/**
 * A container of the file's own (`<prefix> <random>`: alice author, bob reader, carol manager,
 * a document rule) and one where only alice is (`… Other`).
 */
export async function eventsContainers(
  db: pg.Pool,
  prefix: string,
): Promise<{ main: TestContainer; other: TestContainer; tag: string }> {
  const tag = `${prefix}${randomBytes(3).toString('hex')}`;
  const main = await createContainer(db, {
    name: `${tag} Events`,
    members: { alice: 'author', bob: 'reader', carol: 'manager' },
    rules: [
      { cls: 'wt.doc.WTDocument', prefix: `${tag}-D`, width: 4, next: 1 },
      { cls: 'wt.part.WTPart', prefix: `${tag}-P`, width: 4, next: 1 },
    ],
  });
  const other = await createContainer(db, {
    name: `${tag} Other`,
    members: { alice: 'author' },
    rules: [{ cls: 'wt.doc.WTDocument', prefix: `${tag}-O`, width: 4, next: 1 }],
  });
  return { main, other, tag };
}

export function as(http: App, user: User) {
  const [u, p] = USERS[user];
  return {
    get: (path: string) => request(http).get(path).auth(u, p),
    post: (path: string, body?: object) => request(http).post(path).auth(u, p).send(body),
    patch: (path: string, body?: object) => request(http).patch(path).auth(u, p).send(body),
    delete: (path: string) => request(http).delete(path).auth(u, p),
  };
}

/** Creates a subscription (fails the test on any answer but 201) and answers its body. */
export async function subscribe(
  http: App,
  user: User,
  body: Record<string, unknown>,
): Promise<{ id: number; secret?: string; [k: string]: unknown }> {
  const res = await as(http, user).post('/events/subscriptions', body);
  if (res.status !== 201) throw new Error(`subscription not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; secret?: string };
}

/**
 * Removes what a file made: its containers with their objects, links and subscriptions (and
 * the administrators' subscriptions without a container), so other files' counts of what alice
 * or bob may read are as the demo data makes them.
 */
export async function dropEvents(db: pg.Pool, containerIds: number[]): Promise<void> {
  await db.query('DELETE FROM event_subscriptions WHERE container_id = ANY($1) OR container_id IS NULL', [
    containerIds,
  ]);
  await db.query('DELETE FROM links WHERE container_id = ANY($1::int[])', [containerIds]);
  await db.query('DELETE FROM objects WHERE container_id = ANY($1::int[])', [containerIds]);
  await db.query('DELETE FROM masters WHERE container_id = ANY($1::int[])', [containerIds]);
  await db.query('DELETE FROM containers WHERE id = ANY($1::int[])', [containerIds]);
}

/** Creates an object as `user` (fails the test on any answer but 201) and answers its body. */
export async function createObject(
  http: App,
  container: string,
  number: string,
  type = 'wt.doc.WTDocument',
  user: User = 'alice',
): Promise<{ number: string; masterOid: string }> {
  const res = await as(http, user).post('/objects', { container, type, number, name: `${number} name` });
  if (res.status !== 201) throw new Error(`object not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { number: string; masterOid: string };
}

/** Moves an object to `state` as `user` (fails the test on any answer but 200). */
export async function setState(http: App, number: string, state: string, user: User = 'alice'): Promise<void> {
  const res = await as(http, user).post(`/objects/${number}/state`, { state });
  if (res.status !== 200) throw new Error(`state not changed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The subscription's row as delivery left it (cursor: the last log position handled). */
export async function subscriptionRow(
  db: pg.Pool,
  id: number,
): Promise<{ cursor: bigint; active: boolean; attempts: number; lease_owner: string | null }> {
  const { rows } = await db.query<{ cursor: string; active: boolean; attempts: number; lease_owner: string | null }>(
    'SELECT cursor::text, active, attempts, lease_owner FROM event_subscriptions WHERE id = $1',
    [id],
  );
  if (!rows[0]) throw new Error(`no subscription ${id}`);
  return { ...rows[0], cursor: BigInt(rows[0].cursor) };
}

/**
 * Resolves once the subscription handled the log up to `sequence` (a delivered event's CloudEvents
 * `sequence`): every event before it was delivered or left out by then. Fails after `ms`.
 */
export async function handledUpTo(db: pg.Pool, id: number, sequence: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const { cursor } = await subscriptionRow(db, id);
    if (cursor >= BigInt(sequence)) return;
    if (Date.now() > until)
      throw new Error(`gave up waiting for subscription ${id} to pass ${sequence}; its cursor is ${cursor}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls `read` until `done` holds of its answer, which it answers; fails naming `what` after `ms`. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  ms = 15_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`gave up waiting until ${what}; last: ${shown(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function shown(value: unknown): string {
  try {
    return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  } catch {
    return String(value);
  }
}

/**
 * What a delivery test file needs: the service with change events on (`env`), a pool on the run's
 * database, a webhook receiver, and `containers(prefix)` of the file's own (so no other file's
 * subscription sees its events), removed with their subscriptions and objects afterwards.
 */
export function useEventsTest(env: Record<string, string> = EVENTS_ENV) {
  const t = useTestApp(env);
  const db = testPool();
  const made: number[] = [];
  const test = {
    t,
    db,
    receiver: undefined as unknown as WebhookReceiver,
    async containers(prefix: string) {
      const c = await eventsContainers(db, prefix);
      made.push(c.main.id, c.other.id);
      return c;
    },
  };
  beforeAll(async () => {
    test.receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await dropEvents(db, made);
    await test.receiver?.close();
    await db.end();
  });
  return test;
}
