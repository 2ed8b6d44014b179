/**
 * What every baseline server shares besides authentication: a pg pool sized like the service's
 * (DB_POOL_MAX, default 10), JSON answers, listening on PORT/HOST as the runner asks, and a
 * clean stop on SIGTERM (the runner's ChildServer.stop()).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import pg from 'pg';

export function baselinePool(max = Number(process.env.DB_POOL_MAX ?? 10)): pg.Pool {
  return new pg.Pool({ connectionString: process.env.DATABASE_URL, max });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A node:http server running `handle` per request; a thrown error is a 500 (or a cut stream). */
export function serveBaseline(
  pool: pg.Pool,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Server {
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      console.error(e);
      if (!res.headersSent) sendJson(res, 500, { statusCode: 500, message: String(e) });
      else res.destroy();
    });
  });
  return listenBaseline(server, pool);
}

/** Listens on PORT/HOST and closes the server and the pool on SIGTERM. */
export function listenBaseline(server: Server, pool: pg.Pool): Server {
  server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
  process.once('SIGTERM', () => {
    server.close(() => void pool.end().then(() => process.exit(0)));
    server.closeAllConnections();
  });
  return server;
}
