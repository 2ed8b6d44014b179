import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { hashPassword } from '../../src/auth/password.js';

/** A user of a test file's own (name starts with `prefix`), with the password `<name>-pw`. */
export async function freshUser(db: pg.Pool, prefix: string, admin = false): Promise<[string, string]> {
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  await db.query('INSERT INTO users (name, password_hash, admin) VALUES ($1, $2, $3)', [
    name,
    await hashPassword(`${name}-pw`),
    admin,
  ]);
  return [name, `${name}-pw`];
}

/** Creates a token for the signed-in user and answers it (fails the test on any other answer). */
export async function createToken(
  http: App,
  user: readonly [string, string],
  body: Record<string, unknown>,
): Promise<{ id: number; token: string }> {
  const res = await request(http)
    .post('/me/tokens')
    .auth(...user)
    .send({ expiresInDays: 30, ...body });
  if (res.status !== 201) throw new Error(`token not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; token: string };
}

export const bearer = (token: string) => `Bearer ${token}`;

/** Removes the users a test file made (their tokens go with them). */
export async function dropUsers(db: pg.Pool, prefix: string): Promise<void> {
  await db.query(`DELETE FROM users WHERE name LIKE $1`, [`${prefix}-%`]);
}
