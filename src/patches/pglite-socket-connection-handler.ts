/**
 * Patch of @electric-sql/pglite-socket, written for 0.2.17 (accepted on that version only, as a
 * 0.x package: see versions.ts).
 *
 * Touches: PGLiteSocketServer's private `handleConnection(socket)`, which the server's
 * net.Server calls for each new connection (looked up on the instance each time) and which
 * attaches the connection to the database (or refuses it). It is replaced on the instance by a
 * function that runs first and calls the original when it lets the connection in.
 *
 * Why: the package offers no hook before a connection is attached, and the embedded database
 * needs one (src/prisma/embedded-postgres.ts): PGlite has a single session, which must be reset
 * before each new connection gets it, and a connection arriving while the previous one is still
 * being closed must wait for its turn instead of being refused.
 *
 * Remove when: the package resets the session for each connection and queues connections itself
 * (or offers a hook before one is attached); test/startup/embedded-database.e2e-spec.ts (a fresh
 * session per connection, the app answering the same after its connection was dropped) shows
 * what must still hold.
 */
import type { Socket } from 'node:net';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PatchError } from './patch-error.js';

const PATCH = 'pglite-socket-connection-handler';

interface SocketServerInternals {
  handleConnection(socket: Socket): Promise<void>;
}

/**
 * Has `server` call `intercept` for each new connection instead of attaching it: `intercept`
 * calls `attach` to hand the connection to the server (which attaches or refuses it before
 * `attach` resolves), or destroys the socket itself.
 */
export function interceptConnections(
  server: PGLiteSocketServer,
  intercept: (socket: Socket, attach: () => Promise<void>) => Promise<void>,
): void {
  const internals = server as unknown as Partial<SocketServerInternals>;
  if (typeof internals.handleConnection !== 'function')
    throw new PatchError(PATCH, 'PGLiteSocketServer has no handleConnection() to intercept');
  const handle = internals.handleConnection.bind(server);
  internals.handleConnection = (socket: Socket) => intercept(socket, () => handle(socket));
}
