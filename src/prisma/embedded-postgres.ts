import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { interceptConnections } from '../patches/pglite-socket-connection-handler.js';
import { lockDataDir } from './data-dir-lock.js';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  /** True when the data folder was empty: the database is new. */
  created: boolean;
  stop(): Promise<void>;
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) on a local TCP port, storing its data
 * under `dataDir/pglite`. It serves one connection at a time, so the pool must have max 1.
 * For trying the service out with `npm start`; production runs on a PostgreSQL server.
 * `dataDir` is locked for this process first (see lockDataDir): a second process fails with a
 * DataDirError naming the holder before it opens the database.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port = 0,
  onError: (e: unknown) => void = (e) =>
    console.error('embedded PostgreSQL: resetting the session failed, connection refused:', e),
): Promise<EmbeddedPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const lock = lockDataDir(dataDir);
  try {
    const dir = resolve(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    const db = await PGlite.create(dir);
    const existing = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
    );
    // One connection at a time is enforced below; the server's own limit (which is also Node's
    // net.Server.maxConnections) would drop a new connection while the last one is still closing.
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: WAITING_CONNECTIONS });
    oneSessionAtATime(server, db, onError);
    await server.start();
    return {
      url: `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
      created: existing.rows[0].n === 0,
      async stop() {
        try {
          await server.stop();
          await db.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (e) {
    lock.release();
    throw e;
  }
}

const TURN_WAIT_MS = 5000;
const WAITING_CONNECTIONS = 16;

/**
 * PGlite has a single session, which every connection to the socket server shares in turn: what
 * one connection leaves behind (named prepared statements, settings, advisory locks) would reach
 * the next. A pool that closes an idle connection and opens a new one then failed on its first
 * named statement with `prepared statement "…" already exists`. So each new connection starts
 * as on a PostgreSQL server, with a fresh session, reset before the connection is attached (its
 * first message is read only then).
 *
 * The server also refuses a connection while the previous one is still being closed (it serves
 * one at a time), which a pool reopening a dropped connection at once runs into: a new connection
 * waits up to TURN_WAIT_MS for its turn instead. Both are done before the server's own connection
 * handler, as the package offers no hook before a connection is attached (see
 * src/patches/pglite-socket-connection-handler.ts).
 */
function oneSessionAtATime(server: PGLiteSocketServer, db: PGlite, onError: (e: unknown) => void): void {
  let starting = false; // a connection is being reset and attached: the next one waits too
  interceptConnections(server, async (socket, attach) => {
    const until = Date.now() + TURN_WAIT_MS;
    const busy = () => starting || server.getStats().activeConnections > 0;
    while (busy() && Date.now() < until && !socket.destroyed) await new Promise((r) => setTimeout(r, 5));
    if (socket.destroyed) return;
    if (busy()) {
      socket.destroy(); // still busy: refused, as a full server would
      return;
    }
    starting = true;
    try {
      try {
        await freshSession(db);
      } catch (e) {
        onError(e);
        socket.destroy(); // never hand out a session that may hold another connection's state
        return;
      }
      await attach(); // attaches the connection (or refuses it) before it returns
    } finally {
      starting = false;
    }
  });
}

async function freshSession(db: PGlite): Promise<void> {
  // A transaction the previous connection left open (it was dropped mid-way); DISCARD ALL
  // cannot run inside one.
  if (db.isInTransaction()) await db.exec('ROLLBACK');
  await db.exec('DISCARD ALL');
}
