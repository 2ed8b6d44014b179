/**
 * Patch of Node.js itself, written for 20.20.2 and the Node 22 of the Docker image (accepted on
 * Node 20, 22 and 24: see versions.ts; the code it relies on is the same in each).
 *
 * Touches: net.Socket's `destroySoon()` (not documented), which Node's HTTP server calls on a
 * connection once the last answer on it ("Connection: close") is written (resOnFinish in
 * lib/_http_server.js: end, then destroy once flushed). It is replaced on one socket.
 *
 * Why: an answer sent before the request body was read to its end must close the connection in
 * stages (src/common/lingering-close.ts): Node's destroySoon() destroys the socket as soon as the
 * answer is flushed, while the client is still sending its body, and a client still writing then
 * fails with EPIPE or ECONNRESET instead of reading the answer. Node offers no hook for how the
 * server ends a connection.
 *
 * Remove when: Node's HTTP server lingers itself before closing a connection whose request body
 * is unread; test/files/files-oversize.e2e-spec.ts (a chunked upload and fetch, still sending,
 * read their 413) and test/security/request-bodies.e2e-spec.ts (401 before the body) show what
 * must still hold.
 */
import { Socket } from 'node:net';
import { PatchError } from './patch-error.js';

const PATCH = 'node-socket-destroy-soon';

interface SocketInternals {
  destroySoon?: () => void;
}

/**
 * Has Node's HTTP server call `close` instead of destroySoon() when it ends this connection after
 * its last answer.
 */
export function onServerEndsConnection(socket: Socket, close: () => void): void {
  const internals = socket as Socket & SocketInternals;
  // The server calls destroySoon() only when the socket has it (and socket.end() otherwise).
  if (typeof internals.destroySoon !== 'function') throw new PatchError(PATCH, 'the socket has no destroySoon()');
  internals.destroySoon = close;
}

// Checked at start (this module is loaded with the HTTP error filter) rather than per answer.
if (typeof (Socket.prototype as Socket & SocketInternals).destroySoon !== 'function')
  throw new PatchError(PATCH, 'net.Socket has no destroySoon()');
