import type pg from 'pg';
import request from 'supertest';
import { createContainer, type TestContainer } from '../numbers/numbers-fixtures.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { interleave } from '../helpers/interleave.js';
import { testPool } from '../helpers/test-database.js';

export type User = keyof typeof USERS;

/**
 * Containers of a test file's own: `<name> Objects` (alice author, bob reader, carol manager;
 * numbering rules for documents `<name>-D`, parts `<name>-P` and CAD documents `<name>-C`, width
 * 4, from 1) and `<name> Secret` (carol author only). Numbers the tests give start with the
 * name, so no other test file meets them. close() removes everything made in them.
 */
export interface ObjectsFixture {
  t: TestApp;
  db: pg.Pool;
  name: string;
  main: TestContainer;
  secret: TestContainer;
  as(user: User): Agent;
  /** Creates an object over HTTP (as alice in the main container unless told) and answers its body. */
  create(body: Record<string, unknown>, user?: User): Promise<ObjectBody>;
  close(): Promise<void>;
}

export interface Agent {
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  patch(path: string, body?: object): request.Test;
  delete(path: string): request.Test;
}

export interface ObjectBody {
  oid: string;
  masterOid: string;
  number: string;
  version: string;
  iteration: number;
  state: string;
  [k: string]: unknown;
}

export async function objectsFixture(name: string, env: Record<string, string> = {}): Promise<ObjectsFixture> {
  const db = testPool();
  const main = await createContainer(db, {
    name: `${name} Objects`,
    members: { alice: 'author', bob: 'reader', carol: 'manager' },
    rules: [
      { cls: 'wt.doc.WTDocument', prefix: `${name}-D`, width: 4, next: 1 },
      { cls: 'wt.part.WTPart', prefix: `${name}-P`, width: 4, next: 1 },
      { cls: 'wt.epm.EPMDocument', prefix: `${name}-C`, width: 4, next: 1 },
    ],
  });
  const secret = await createContainer(db, { name: `${name} Secret`, members: { carol: 'author' } });
  const t = await createTestApp(env);
  const as = (user: User): Agent => {
    const [u, p] = USERS[user];
    return {
      get: (path) => request(t.http).get(path).auth(u, p),
      post: (path, body) => request(t.http).post(path).auth(u, p).send(body),
      patch: (path, body) => request(t.http).patch(path).auth(u, p).send(body),
      delete: (path) => request(t.http).delete(path).auth(u, p),
    };
  };
  return {
    t,
    db,
    name,
    main,
    secret,
    as,
    async create(body, user = 'alice') {
      const res = await as(user).post('/objects', { container: main.name, ...body });
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as ObjectBody;
    },
    async close() {
      await t.close();
      const ids = [main.id, secret.id];
      await db.query('DELETE FROM links WHERE container_id = ANY($1::int[])', [ids]);
      await db.query('DELETE FROM objects WHERE container_id = ANY($1::int[])', [ids]);
      await db.query('DELETE FROM masters WHERE container_id = ANY($1::int[])', [ids]);
      await db.query('DELETE FROM containers WHERE id = ANY($1::int[])', [ids]);
      await db.end();
    },
  };
}

/** The audit events recorded for an object (by its master's OID), oldest first. */
export async function auditOf(
  db: pg.Pool,
  masterOid: string,
): Promise<{ action: string; user_name: string; object_number: string; container_id: number; detail: unknown }[]> {
  const id = Number(masterOid.split(':').pop());
  // Events name a business object by its master (class and id), as its history reads them.
  const cls = masterOid.split(':')[1];
  const { rows } = await db.query(
    `SELECT action, user_name, object_number, container_id, detail FROM audit_events
     WHERE object_class = $1 AND object_id = $2 ORDER BY id`,
    [cls, id],
  );
  return rows;
}

/**
 * Two requests forced to interleave: a connection of the test holds `table` in SHARE mode while
 * `first` starts (it reads and locks rows but cannot insert), `second` starts once the first
 * waits, and the test lets go once both wait, so the first commits before the second sees its
 * rows. Answers both; every wait is bounded (test/helpers/interleave.ts).
 */
export function whileTableHeld<T>(
  db: pg.Pool,
  table: 'objects' | 'links' | 'audit_events',
  first: () => PromiseLike<T>,
  second: () => PromiseLike<T>,
): Promise<T[]> {
  return interleave(db, `LOCK TABLE ${table} IN SHARE MODE`, first, second);
}
