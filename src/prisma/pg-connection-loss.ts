import type pg from 'pg';

/**
 * A pg client whose connection is lost (the server ended it: a restart, pg_terminate_backend, a
 * network gone) emits 'error', and an 'error' event nobody listens for ends the process. pg-pool
 * listens only while a client is idle in the pool: one checked out has no listener of its own,
 * and the error can arrive between two statements, or after the statement under way has already
 * failed (the server's message first, the closed socket a moment later).
 *
 * Every client of `pool` gets a listener for its whole life here: the loss is reported once (per
 * connection) through `report`, the client is no longer queryable, so the request using it gets
 * the failing statement's error (answered 503) and pg-pool discards the client when it is
 * released; an idle one it discards at once.
 */
export function guardPool(pool: pg.Pool, report: (message: string) => void): pg.Pool {
  // Emitted by pg-pool for a client lost while idle; the client's own listener reports it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => guardClient(client, report));
  return pool;
}

/** As guardPool, for a client of its own. */
export function guardClient(client: pg.ClientBase, report: (message: string) => void): void {
  let reported = false;
  client.on('error', (e: Error) => {
    if (reported) return;
    reported = true;
    report(`a database connection was lost (${e.message}); it is dropped`);
  });
}
