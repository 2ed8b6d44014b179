/** Creating, checking and dropping the benchmark databases on a PostgreSQL server. */
import pg from 'pg';

export const DEFAULT_BENCH_URL = 'postgresql://postgres@127.0.0.1:5432/pdm_bench';

/** The benchmark database: DATABASE_URL when set, else pdm_bench on the local server. */
export function benchDatabaseUrl(explicit?: string): string {
  return explicit || process.env.DATABASE_URL || DEFAULT_BENCH_URL;
}

export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`no database name in ${redact(url)}`);
  return name;
}

/** The same server's maintenance database, for CREATE and DROP DATABASE. */
function adminUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates the database unless it exists; true when it was created. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  return withClient(adminUrl(url), async (c) => {
    const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    await c.query(`CREATE DATABASE ${quoteIdent(name)}`);
    return true;
  });
}

export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  // FORCE: a service that did not stop cleanly must not keep the database alive.
  await withClient(adminUrl(url), (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

export async function serverVersion(url: string): Promise<string> {
  return withClient(
    url,
    async (c) => (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v,
  );
}
