import type pg from 'pg';

/** An audit event as stored. */
export interface StoredEvent {
  user_name: string;
  user: string | null;
  action: string;
  object_class: string | null;
  /** int8 as pg reads it. */
  object_id: string | null;
  object_number: string | null;
  container: string | null;
  detail: Record<string, unknown> | null;
}

/** The newest event id now: what a request records comes after it (test files run one at a time). */
export async function lastEventId(db: pg.Pool): Promise<string> {
  const { rows } = await db.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM audit_events');
  return rows[0].id;
}

/** The events recorded after `since` (lastEventId), oldest first. */
export async function eventsSince(db: pg.Pool, since: string): Promise<StoredEvent[]> {
  const { rows } = await db.query<StoredEvent>(
    `SELECT e.user_name, u.name AS user, e.action, e.object_class, e.object_id::text AS object_id, e.object_number,
            c.name AS container, e.detail
     FROM audit_events e LEFT JOIN users u ON u.id = e.user_id LEFT JOIN containers c ON c.id = e.container_id
     WHERE e.id > $1::int8 ORDER BY e.id`,
    [since],
  );
  return rows;
}

/** Runs `request` and answers it with the events it recorded. */
export async function recorded<T>(db: pg.Pool, request: () => Promise<T>): Promise<[T, StoredEvent[]]> {
  const since = await lastEventId(db);
  const result = await request();
  return [result, await eventsSince(db, since)];
}

/** The id of a master by class and number, as pg reads int8/int4. */
export async function masterId(db: pg.Pool, cls: string, number: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id::text AS id FROM masters WHERE class = $1 AND number = $2',
    [cls, number],
  );
  if (rows.length !== 1) throw new Error(`no master ${cls} ${number}`);
  return rows[0].id;
}

/**
 * Makes every audit event whose object number or file name starts with `marker` fail to be
 * stored, as a failure after the change inside its transaction. Returns the function undoing it.
 */
export async function failEventsMarked(db: pg.Pool, marker: string): Promise<() => Promise<void>> {
  const name = `audit_test_fail_${marker.replace(/\W/g, '_').toLowerCase()}`;
  await db.query(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF starts_with(coalesce(NEW.object_number, ''), '${marker}')
         OR starts_with(coalesce(NEW.detail->>'fileName', ''), '${marker}') THEN
        RAISE EXCEPTION 'audit event refused by the test';
      END IF;
      RETURN NEW;
    END $$`);
  await db.query(`CREATE TRIGGER ${name} BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return async () => {
    await db.query(`DROP TRIGGER IF EXISTS ${name} ON audit_events`);
    await db.query(`DROP FUNCTION IF EXISTS ${name}()`);
  };
}

/**
 * Makes every audit event of `action` (`objects.uses.add` …) fail to be stored, as a failure
 * after the change inside its transaction. Returns the function undoing it. Test files run one
 * at a time, so no other file's events meet it while it is there.
 */
export async function failEventsOf(db: pg.Pool, action: string): Promise<() => Promise<void>> {
  const name = `audit_test_fail_${action.replace(/\W/g, '_').toLowerCase()}`;
  await db.query(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.action = '${action.replace(/'/g, "''")}' THEN
        RAISE EXCEPTION 'audit event refused by the test';
      END IF;
      RETURN NEW;
    END $$`);
  await db.query(`CREATE TRIGGER ${name} BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return async () => {
    await db.query(`DROP TRIGGER IF EXISTS ${name} ON audit_events`);
    await db.query(`DROP FUNCTION IF EXISTS ${name}()`);
  };
}
