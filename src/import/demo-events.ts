import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { projectRoot } from '../prisma/migrate.js';
import { MASTER_SUFFIX, OidClass } from '../catalog/standard-classes.js';

/** The audit trail of the demo data: what the services would have recorded as it was made. */
export const DEMO_EVENTS = join(projectRoot(), 'prisma', 'demo-events.json');

interface DemoEvent {
  at: string;
  user: string;
  action: string;
  object: { class: string; number: string } | { container: string } | { user: string };
  detail: Record<string, unknown>;
}

/**
 * The object of an event, by names: a business object's master by class and number (with its
 * container), a container, a user. $1 class or name, $2 number.
 */
const OBJECT_SQL = {
  master: `SELECT m.class || '${MASTER_SUFFIX}' AS cls, m.id, m.number, m.container_id FROM masters m WHERE m.class = $1 AND m.number = $2`,
  container: `SELECT c.class AS cls, c.id, c.name AS number, c.id AS container_id FROM containers c WHERE c.name = $1 AND $2::text IS NULL`,
  user: `SELECT '${OidClass.user}' AS cls, u.id, u.name AS number, NULL::int AS container_id FROM users u WHERE u.name = $1 AND $2::text IS NULL`,
} as const;

/**
 * Records the demo events (prisma/demo-events.json) after the demo dataset, in one transaction;
 * an event already there (same time, user, action and object) is not recorded again, so loading
 * the demo data twice changes nothing. An event whose user or object is missing is left out.
 */
export async function seedDemoEvents(databaseUrl: string): Promise<void> {
  const { events } = JSON.parse(await readFile(DEMO_EVENTS, 'utf8')) as { events: DemoEvent[] };
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined); // a lost connection fails the next statement instead
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const e of events) {
      const o = e.object;
      const [sql, key] =
        'class' in o
          ? [OBJECT_SQL.master, [o.class, o.number]]
          : 'container' in o
            ? [OBJECT_SQL.container, [o.container, null]]
            : [OBJECT_SQL.user, [o.user, null]];
      await client.query(
        `WITH o AS (${sql})
         INSERT INTO audit_events (at, user_id, user_name, action, object_class, object_id, object_number, container_id, detail)
         SELECT $3::timestamptz, u.id, u.name, $5, o.cls, o.id, o.number, o.container_id, $6::jsonb
         FROM o, users u
         WHERE u.name = $4 AND NOT EXISTS (
           SELECT 1 FROM audit_events a
           WHERE a.at = $3::timestamptz AND a.user_name = $4 AND a.action = $5
             AND a.object_class = o.cls AND a.object_id = o.id)`,
        [...key, e.at, e.user, e.action, JSON.stringify(e.detail)],
      );
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}
