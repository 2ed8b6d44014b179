import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

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
 */
export async function startEmbeddedPostgres(dataDir: string, port = 0): Promise<EmbeddedPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const dir = resolve(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const existing = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
  );
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port });
  await server.start();
  return {
    url: `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    created: existing.rows[0].n === 0,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
