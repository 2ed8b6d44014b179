import pg from 'pg';
import { sqlState } from '../common/database-errors.js';

/** The database server cannot be reached, or refuses this connection. */
export class DatabaseUnreachableError extends Error {}

/** Waits this long for the server to accept a connection (a server that does not answer at all). */
const CONNECT_TIMEOUT_MS = 10_000;

/** `host:port` of a connection string, as shown to the operator (never the user or password). */
export function serverAddress(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    const host = url.searchParams.get('host') ?? (url.hostname || 'localhost');
    return `${host}:${url.port || '5432'}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** The operator's message for a failed connection to the server at `databaseUrl`. */
export function unreachableMessage(databaseUrl: string, e: unknown): string {
  const cause = describe(e);
  // A server that answered with an error (wrong password, no such database) is reachable.
  return sqlState(e)
    ? `the database server at ${serverAddress(databaseUrl)} refused the connection: ${cause}`
    : `cannot reach the database server at ${serverAddress(databaseUrl)}: ${cause}`;
}

/**
 * Opens one connection to `databaseUrl` and closes it again; throws a DatabaseUnreachableError
 * saying why it failed. Run before the Prisma CLI, whose own message on this comes after several
 * lines about its configuration.
 */
export async function checkDatabaseReachable(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined); // the connection lost after connect: end() below reports nothing
  try {
    await client.connect();
  } catch (e) {
    throw new DatabaseUnreachableError(unreachableMessage(databaseUrl, e));
  }
  await client.end().catch(() => undefined);
}

/** Node reports a refused `localhost` (tried as ::1 and 127.0.0.1) as an AggregateError without a message. */
function describe(e: unknown): string {
  if (e instanceof AggregateError && !e.message) return [...new Set(e.errors.map(describe))].join('; ');
  if (e instanceof Error) return e.message || String((e as NodeJS.ErrnoException).code ?? e.name);
  return String(e);
}
