/**
 * Baseline of the `files` benchmark: a bare node:http server that serves files from a folder
 * with fs.createReadStream (GET /files/<name>) and writes uploads to a file in that folder
 * (POST /files/<name>, the raw body), with the same cached HTTP Basic check as the service.
 * No database, no hashing: what Node alone moves. Started as its own process by the runner:
 * PORT, HOST, DATABASE_URL (for the users table), FILES_DIR.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { parseBasicAuth } from '../../src/auth/basic-credentials.js';
import { verifyPassword } from '../../src/auth/password.js';

const CACHE_TTL_MS = Number(process.env.AUTH_CACHE_TTL_MS ?? 60_000);
const DIR = process.env.FILES_DIR ?? '.';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
const cache = new Map<string, number>();

async function authenticate(header: string | undefined): Promise<boolean> {
  const creds = parseBasicAuth(header);
  if (!creds) return false;
  const key = createHash('sha256').update(creds.name).update('\u0000').update(creds.password).digest('base64');
  if ((cache.get(key) ?? 0) > Date.now()) return true;
  const r = await pool.query<{ password_hash: string; disabled: boolean }>(
    'SELECT password_hash, disabled FROM users WHERE name = $1',
    [creds.name],
  );
  const row = r.rows[0];
  if (!(await verifyPassword(creds.password, row?.password_hash ?? null)) || !row || row.disabled) return false;
  cache.set(key, Date.now() + CACHE_TTL_MS);
  return true;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const m = /^\/files\/([^/?]+)/.exec(req.url ?? '');
  if (!m) return send(res, 404, { message: 'not found' });
  if (!(await authenticate(req.headers.authorization))) return send(res, 401, { message: 'credentials needed' });
  const name = basename(decodeURIComponent(m[1]));
  if (req.method === 'GET') {
    const path = join(DIR, name);
    const size = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    if (size < 0) return send(res, 404, { message: 'no such file' });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
    await pipeline(createReadStream(path), res);
    return;
  }
  if (req.method === 'POST') {
    const path = join(DIR, `upload-${randomUUID()}`);
    await pipeline(req, createWriteStream(path));
    await rm(path, { force: true });
    return send(res, 201, { success: true });
  }
  send(res, 405, { message: 'method not allowed' });
}

createServer((req, res) => {
  handle(req, res).catch((e: unknown) => {
    if (!res.headersSent) send(res, 500, { message: String(e) });
    else res.destroy();
  });
}).listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
