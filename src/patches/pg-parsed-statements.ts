/**
 * Patch of pg (node-postgres), written for 8.23.1 (accepted on 8.23.x: see versions.ts).
 *
 * Touches: `client.connection.parsedStatements` (not in pg's documentation nor its types), where
 * pg records, per connection, the named statements it has prepared there (name → SQL text); pg
 * skips preparing a named query whose name it finds there.
 *
 * Why: PreparedStatements (src/reports/reports.repository.ts) deallocates a connection's least recently used
 * statements itself (`DEALLOCATE`), which pg has no call for. It asks pg whether the statement was
 * prepared at all (one whose preparation failed was never created: nothing to drop), and
 * afterwards removes it from pg's record; otherwise pg would run the name again without
 * preparing it, and the server would answer `prepared statement "…" does not exist`.
 *
 * Remove when: pg can deallocate a named statement itself (or offers a way to ask and to forget);
 * test/reports/reports-prepared.e2e-spec.ts shows what must still hold.
 */
import type pg from 'pg';
import { PatchError } from './patch-error.js';

const PATCH = 'pg-parsed-statements';

interface ClientInternals {
  connection?: { parsedStatements?: Record<string, string> };
}

/** pg's record of the statements prepared on `client`'s connection. */
function parsedStatements(client: pg.ClientBase): Record<string, string> {
  const parsed = (client as unknown as ClientInternals).connection?.parsedStatements;
  if (parsed === undefined || parsed === null || typeof parsed !== 'object')
    throw new PatchError(PATCH, 'the client has no connection.parsedStatements');
  return parsed;
}

/** Whether pg prepared the statement `name` on `client`'s connection. */
export function isPrepared(client: pg.ClientBase, name: string): boolean {
  return parsedStatements(client)[name] !== undefined;
}

/** Tells pg that the statement `name` no longer exists on `client`'s connection (it was deallocated). */
export function forgetPrepared(client: pg.ClientBase, name: string): void {
  delete parsedStatements(client)[name];
}
