import type pg from 'pg';
import { testPool } from '../helpers/test-database.js';

export type Role = 'reader' | 'author' | 'manager';

export interface RuleSpec {
  cls: string;
  prefix?: string;
  suffix?: string;
  width: number;
  next: number | bigint;
}

export interface ContainerSpec {
  name: string;
  cls?: string;
  members?: Record<string, Role>;
  rules?: RuleSpec[];
  /** Workspace name → owner's user name. */
  workspaces?: Record<string, string>;
}

export interface TestContainer {
  id: number;
  oid: string;
  name: string;
  /** Workspace name → OID. */
  workspaces: Record<string, string>;
}

/** A container of the test's own, so counters it advances are nobody else's. */
export async function createContainer(pool: pg.Pool, spec: ContainerSpec): Promise<TestContainer> {
  const cls = spec.cls ?? 'wt.pdmlink.PDMLinkProduct';
  const { rows } = await pool.query<{ id: number }>(
    'INSERT INTO containers (class, name) VALUES ($1, $2) RETURNING id',
    [cls, spec.name],
  );
  const id = rows[0].id;
  for (const [user, role] of Object.entries(spec.members ?? {})) {
    await pool.query(
      'INSERT INTO memberships (container_id, user_id, role) SELECT $1, id, $3::member_role FROM users WHERE name = $2',
      [id, user, role],
    );
  }
  for (const r of spec.rules ?? []) {
    await pool.query(
      'INSERT INTO numbering_rules (container_id, class, prefix, suffix, width, next) VALUES ($1, $2, $3, $4, $5, $6)',
      [id, r.cls, r.prefix ?? '', r.suffix ?? '', r.width, String(r.next)],
    );
  }
  const workspaces: Record<string, string> = {};
  for (const [name, owner] of Object.entries(spec.workspaces ?? {})) {
    const ws = await pool.query<{ id: number }>(
      'INSERT INTO workspaces (name, container_id, owner_id) SELECT $1, $2, id FROM users WHERE name = $3 RETURNING id',
      [name, id, owner],
    );
    workspaces[name] = `OR:wt.epm.workspaces.EPMWorkspace:${ws.rows[0].id}`;
  }
  return { id, oid: `OR:${cls}:${id}`, name: spec.name, workspaces };
}

/** The rule's counter as a decimal string (bigint column). */
export async function counterOf(pool: pg.Pool, containerId: number, cls: string): Promise<string> {
  const { rows } = await pool.query<{ next: string }>(
    'SELECT next::text AS next FROM numbering_rules WHERE container_id = $1 AND class = $2',
    [containerId, cls],
  );
  if (!rows[0]) throw new Error(`no rule for ${cls} in container ${containerId}`);
  return rows[0].next;
}

export async function setCounter(
  pool: pg.Pool,
  containerId: number,
  cls: string,
  next: number | bigint,
): Promise<void> {
  await pool.query('UPDATE numbering_rules SET next = $3 WHERE container_id = $1 AND class = $2', [
    containerId,
    cls,
    String(next),
  ]);
}

/** Business objects that already carry numbers, as an import would leave them. */
export async function addMasters(pool: pg.Pool, containerId: number, cls: string, numbers: string[]): Promise<void> {
  for (const number of numbers) {
    await pool.query('INSERT INTO masters (class, number, name, container_id) VALUES ($1, $2, $3, $4)', [
      cls,
      number,
      `imported ${number}`,
      containerId,
    ]);
  }
}

/** POST path that generates numbers for a class, with URL parameters (URL-encoded). */
export function generateUrl(cls: string, params: Record<string, string | number>): string {
  const query = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return `/numbers/generate/${encodeURIComponent(cls)}${query ? `?${query}` : ''}`;
}

/** A container of the test's own (createContainer) and the pool it was made with. */
export interface ContainerFixture {
  readonly pool: pg.Pool;
  readonly box: TestContainer;
}

/**
 * Before the tests of the enclosing block: a pool on the test database and the container `spec`
 * with its members and rules. After them: the objects and masters made in it go, and the pool.
 */
export function useContainer(spec: ContainerSpec): ContainerFixture {
  let pool: pg.Pool | undefined;
  let box: TestContainer | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the container is not made yet: use it inside tests and hooks');
    return value;
  };
  beforeAll(async () => {
    pool = testPool();
    box = await createContainer(pool, spec);
  });
  afterAll(async () => {
    if (pool && box) {
      await pool.query('DELETE FROM objects WHERE container_id = $1', [box.id]);
      await pool.query('DELETE FROM masters WHERE container_id = $1', [box.id]);
    }
    await pool?.end();
  });
  return {
    get pool() {
      return ready(pool);
    },
    get box() {
      return ready(box);
    },
  };
}
