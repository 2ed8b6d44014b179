import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { hashPassword } from '../../src/auth/password.js';

export interface FixtureObject {
  cls?: string;
  subtype?: string | null;
  number: string;
  name?: string;
  version?: string;
  iteration?: number;
  latest?: boolean;
  state?: string;
  attributes?: Record<string, unknown>;
  createdBy?: string;
  modifiedBy?: string;
  created?: string;
  modified?: string;
}

/** Users and containers of one test file, named uniquely so that no other test sees them. */
export interface QueryFixture {
  tag: string;
  pool: pg.Pool;
  user(name: string): [string, string];
  containerId(name: string): number;
  /** Adds iterations (a master per new number and class); returns the iteration ids. */
  addObjects(container: string, objects: FixtureObject[]): Promise<number[]>;
  /** Deletes everything the fixture made, so that tests counting all objects never see it. */
  cleanup(): Promise<void>;
}

/**
 * Creates users `<tag>-<name>` (password `<name>-pw`) and containers `<tag> <name>` with the
 * given members.
 */
export async function createQueryFixture(
  pool: pg.Pool,
  users: string[],
  containers: Record<string, Record<string, 'reader' | 'author' | 'manager'>>,
): Promise<QueryFixture> {
  const tag = `qt${randomBytes(4).toString('hex')}`;
  const userIds = new Map<string, number>();
  const containerIds = new Map<string, number>();
  for (const u of users) {
    const r = await pool.query<{ id: number }>('INSERT INTO users (name, password_hash) VALUES ($1, $2) RETURNING id', [
      `${tag}-${u}`,
      await hashPassword(`${u}-pw`),
    ]);
    userIds.set(u, r.rows[0].id);
  }
  for (const [name, members] of Object.entries(containers)) {
    const r = await pool.query<{ id: number }>(
      `INSERT INTO containers (class, name) VALUES ('wt.pdmlink.PDMLinkProduct', $1) RETURNING id`,
      [`${tag} ${name}`],
    );
    containerIds.set(name, r.rows[0].id);
    for (const [user, role] of Object.entries(members)) {
      await pool.query('INSERT INTO memberships (container_id, user_id, role) VALUES ($1, $2, $3)', [
        r.rows[0].id,
        userIds.get(user),
        role,
      ]);
    }
  }
  const firstUser = users[0];
  return {
    tag,
    pool,
    user: (name) => [`${tag}-${name}`, `${name}-pw`],
    containerId: (name) => containerIds.get(name)!,
    async cleanup() {
      const users = [...userIds.values()];
      const containers = [...containerIds.values()];
      await pool.query(
        `DELETE FROM query_session_chunks WHERE session_id IN (SELECT id FROM query_sessions WHERE user_id = ANY($1))`,
        [users],
      );
      await pool.query('DELETE FROM query_sessions WHERE user_id = ANY($1)', [users]);
      await pool.query(
        'DELETE FROM iterations WHERE master_id IN (SELECT id FROM masters WHERE container_id = ANY($1))',
        [containers],
      );
      await pool.query('DELETE FROM masters WHERE container_id = ANY($1)', [containers]);
      await pool.query('DELETE FROM containers WHERE id = ANY($1)', [containers]);
      await pool.query('DELETE FROM users WHERE id = ANY($1)', [users]);
    },
    async addObjects(container, objects) {
      const ids: number[] = [];
      for (const o of objects) {
        const cls = o.cls ?? 'wt.doc.WTDocument';
        const m = await pool.query<{ id: number }>(
          `INSERT INTO masters (class, subtype, number, name, container_id) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (class, number) DO UPDATE SET name = masters.name RETURNING id`,
          [cls, o.subtype ?? null, o.number, o.name ?? `object ${o.number}`, containerIds.get(container)],
        );
        const creator = userIds.get(o.createdBy ?? firstUser);
        const i = await pool.query<{ id: number }>(
          `INSERT INTO iterations (master_id, version, iteration, latest, state, attributes, created_by, modified_by,
                                   created_at, modified_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9::timestamptz, now()), COALESCE($10::timestamptz, now()))
           RETURNING id`,
          [
            m.rows[0].id,
            o.version ?? 'A',
            o.iteration ?? 1,
            o.latest ?? true,
            o.state ?? 'INWORK',
            JSON.stringify(o.attributes ?? {}),
            creator,
            userIds.get(o.modifiedBy ?? '') ?? creator,
            o.created ?? null,
            o.modified ?? null,
          ],
        );
        ids.push(i.rows[0].id);
      }
      return ids;
    },
  };
}
