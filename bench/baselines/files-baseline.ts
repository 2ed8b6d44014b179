/**
 * Baseline of the `files` benchmark: a bare node:http server that serves files from a folder
 * with fs.createReadStream (GET /files/<name>) and writes uploads to a file in that folder
 * (POST /files/<name>, the raw body), with the same cached HTTP Basic check as the service (baseline-auth.ts).
 * No database, no hashing: what Node alone moves. Started as its own process by the runner:
 * PORT, HOST, DATABASE_URL (for the users table), FILES_DIR. With FILES_DURABLE=1 an upload is
 * made durable before the answer, as the service's vault makes it: the file flushed to disk
 * (fsync) as it is closed, then its folder.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBaselineAuth } from './baseline-auth.js';
import { baselinePool, sendJson, serveBaseline } from './baseline-http.js';

const DIR = process.env.FILES_DIR ?? '.';
const DURABLE = process.env.FILES_DURABLE === '1';
// Only the users table is read, once per caller and cache period.
const pool = baselinePool(2);
const authenticate = createBaselineAuth(pool);

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const m = /^\/files\/([^/?]+)/.exec(req.url ?? '');
  if (!m) return sendJson(res, 404, { message: 'not found' });
  if (!(await authenticate(req.headers.authorization))) return sendJson(res, 401, { message: 'credentials needed' });
  const name = basename(decodeURIComponent(m[1]));
  if (req.method === 'GET') {
    const path = join(DIR, name);
    const size = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    if (size < 0) return sendJson(res, 404, { message: 'no such file' });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
    await pipeline(createReadStream(path), res);
    return;
  }
  if (req.method === 'POST') {
    const path = join(DIR, `upload-${randomUUID()}`);
    await pipeline(req, createWriteStream(path, { flush: DURABLE }));
    if (DURABLE) await syncFolder();
    await rm(path, { force: true });
    return sendJson(res, 201, { success: true });
  }
  sendJson(res, 405, { message: 'method not allowed' });
}

/** Flushes the folder's entries (the new file's name) to disk. */
async function syncFolder(): Promise<void> {
  const folder = await open(DIR, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

serveBaseline(pool, handle);
