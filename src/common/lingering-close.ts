import type { Request, Response } from 'express';
import { onServerEndsConnection } from '../patches/node-socket-destroy-soon.js';

/** How long a closing connection goes on taking (and discarding) what the client still sends. */
export const LINGER_MS = 5_000;

/**
 * An answer sent before the request body was read to its end (413 past FILES_MAX_SIZE found
 * while a chunked upload arrives, 401 before a body is read, …) closes the connection: otherwise
 * Node would read and discard the rest of the body, however large, to keep the connection.
 *
 * Closing the socket as soon as the answer is written is what Node does, but the client is then
 * still sending: the kernel answers the bytes that keep arriving at a closed socket with a reset,
 * and a client still writing fails with EPIPE or ECONNRESET instead of reading the answer (as
 * fetch does). So the connection is closed in stages (RFC 9112 §9.6): the answer goes out, then the
 * server's side of the connection is shut (FIN: "nothing more from me"), and what the client
 * still sends is read and discarded until its body ends, it closes its side, or LINGER_MS pass;
 * only then is the socket destroyed.
 */
export function closeIfBodyUnread(req: Request, res: Response): void {
  if (req.complete || res.headersSent) return;
  res.setHeader('Connection', 'close');
  const socket = req.socket;
  // Node ends a connection whose last answer said "Connection: close" with socket.destroySoon()
  // (net.Socket's: end, then destroy once the answer is flushed): this socket's one lingers first
  // (see src/patches/node-socket-destroy-soon.ts).
  onServerEndsConnection(socket, () => {
    if (socket.writable) socket.end();
    // The body goes on being read and discarded (Node dumps a body its handler left unread).
    req.resume();
    // Destroyed once the answer and the FIN are flushed, as Node's own would.
    const close = () => (socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()));
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', close);
    if (req.complete) close();
    else req.once('end', close);
  });
}
