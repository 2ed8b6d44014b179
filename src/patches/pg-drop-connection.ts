/**
 * Patch of pg (node-postgres), written for 8.23.1 (accepted on 8.23.x: see versions.ts).
 *
 * Touches: `client.connection.stream` (in pg's types, not in its documentation), the socket (or
 * TLS stream) under a client's connection; it is destroyed.
 *
 * Why: a replica whose processes hang keeps its connections open without answering, and pg has
 * no call that closes a connection without a word to the server: client.end() sends Terminate
 * and waits for the server to close. Destroying the socket fails the query under way at once, and
 * the client ends (a pool then discards it). src/prisma/read-replica.ts does so to every
 * connection to a replica found hung.
 *
 * Remove when: pg offers to close a connection at once (a client.destroy() or end({ force }));
 * test/scaleout/read-replica-faults.e2e-spec.ts (a replica whose processes are stopped) shows
 * what must still hold.
 */
import type pg from 'pg';
import { PatchError } from './patch-error.js';

const PATCH = 'pg-drop-connection';

interface ClientInternals {
  connection?: { stream?: { destroy?: (error?: Error) => void } };
}

/** Closes `client`'s connection at once, without a word to the server (a pool's clients are pg.Clients). */
export function dropConnection(client: pg.ClientBase): void {
  const stream = (client as unknown as ClientInternals).connection?.stream;
  if (typeof stream?.destroy !== 'function')
    throw new PatchError(PATCH, 'the client has no connection.stream to destroy');
  stream.destroy();
}
