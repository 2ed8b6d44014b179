/**
 * Baseline of the `files-zip` benchmark: a bare node:http server that answers GET /zip/<set>
 * with a ZIP archive, made with the same library and options as the service (yazl, entries
 * stored, sizes given, each file opened with fs.createReadStream when the archive reaches it),
 * of the files of a folder under FILES_DIR (`small`: the hundred 1 MiB files; `large`: the
 * 1 GiB collection), with the same cached HTTP Basic check as the service (baseline-auth.ts).
 * No database reads of files, no permissions, no manifest: what yazl and Node alone move.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { createBaselineAuth } from './baseline-auth.js';
import { baselinePool, sendJson, serveBaseline } from './baseline-http.js';

const DIR = process.env.FILES_DIR ?? '.';
const pool = baselinePool(2);
const authenticate = createBaselineAuth(pool);

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const m = /^\/zip\/(small|large)$/.exec(req.url ?? '');
  if (!m) return sendJson(res, 404, { message: 'not found' });
  if (!(await authenticate(req.headers.authorization))) return sendJson(res, 401, { message: 'credentials needed' });
  const folder = join(DIR, m[1]);
  const names = (await readdir(folder)).sort();
  const zip = new ZipFile();
  const mtime = new Date();
  for (const name of names) {
    const path = join(folder, name);
    const { size } = await stat(path);
    zip.addReadStreamLazy(`${m[1]}/${name}`, { mtime, compress: false, size }, (done) =>
      done(null, createReadStream(path)),
    );
  }
  let length = -1;
  const end = zip.end.bind(zip) as (options: object, sized: (total: number) => void) => void;
  end({}, (total) => (length = total));
  res.writeHead(200, { 'content-type': 'application/zip', 'content-length': length });
  await pipeline(zip.outputStream, res);
}

serveBaseline(pool, handle);
