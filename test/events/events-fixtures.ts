import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { USERS } from '../helpers/test-app.js';
import { createContainer, type TestContainer } from '../numbers/numbers-fixtures.js';

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
