import type pg from 'pg';
import type request from 'supertest';
import supertest from 'supertest';
import type { App } from 'supertest/types.js';
import { validateDataset } from '../../src/import/dataset.js';
import { importDataset } from '../../src/import/importer.js';
import { createPrismaService } from '../../src/prisma/client.js';
import { testDatabaseUrl } from '../helpers/test-database.js';

/** Every byte value once, in order: the round-trip test content. */
export const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

export const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

/**
 * A container of the test file's own ("<prefix> Files": alice author, bob reader, carol not a
 * member) with documents, a CAD document sharing a number with a document, a part with a
 * usage link, and a document with two iterations. Numbers start with the prefix. Remove it
 * with removeFilesFixture when the test file is done. Into the run's database unless another
 * is named.
 */
export async function importFilesFixture(prefix: string, databaseUrl = testDatabaseUrl()): Promise<void> {
  const container = `${prefix} Files`;
  const doc = (
    number: string,
    files: { role: string; filename: string; text: string; mimetype?: string }[],
    more = {},
  ) => ({
    class: 'wt.doc.WTDocument',
    number,
    name: `document ${number}`,
    container,
    files,
    attributes: { origin: 'fixture' },
    title: `title ${number}`,
    ...more,
  });
  const data = validateDataset({
    format: 'pdm-dataset/1',
    containers: [{ name: container, class: 'wt.pdmlink.PDMLinkProduct', members: { alice: 'author', bob: 'reader' } }],
    objects: [
      doc(`${prefix}-1`, [
        { role: 'PRIMARY', filename: 'main.txt', text: 'main content\n' },
        { role: 'SECONDARY', filename: 'notes.md', text: '# notes\n' },
      ]),
      doc(`${prefix}-2`, [{ role: 'PRIMARY', filename: 'v1.txt', text: 'first iteration\n' }], { iteration: 1 }),
      doc(`${prefix}-2`, [{ role: 'PRIMARY', filename: 'v2.txt', text: 'second iteration\n' }], { iteration: 2 }),
      doc(`${prefix}-3`, []),
      {
        class: 'wt.epm.EPMDocument',
        subtype: 'CADCOMPONENT',
        number: `${prefix}-1`,
        name: `cad ${prefix}-1`,
        container,
        files: [{ role: 'PRIMARY', filename: 'model.prt', text: 'cad bytes' }],
      },
      { class: 'wt.part.WTPart', number: `${prefix}-P2`, name: 'child part', container },
      {
        class: 'wt.part.WTPart',
        number: `${prefix}-P1`,
        name: 'parent part',
        container,
        uses: [{ number: `${prefix}-P2`, quantity: 2 }],
        files: [{ role: 'SECONDARY', filename: 'part.txt', text: 'part notes' }],
      },
    ],
  });
  const { prisma, close } = createPrismaService(databaseUrl, 1);
  try {
    await importDataset(prisma, data);
  } finally {
    await close();
  }
}

/**
 * Removes what importFilesFixture made. alice and bob are members of the fixture container, so
 * its objects would show up in other test files that list everything they can read.
 */
export async function removeFilesFixture(db: pg.Pool, prefix: string): Promise<void> {
  const container = `${prefix} Files`;
  await db.query('DELETE FROM masters WHERE container_id IN (SELECT id FROM containers WHERE name = $1)', [container]);
  await db.query('DELETE FROM containers WHERE name = $1', [container]);
}

/** The OID of an iteration (the latest unless one is named). */
export async function oidOf(db: pg.Pool, cls: string, number: string, iteration?: number): Promise<string> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT i.id FROM iterations i JOIN masters m ON m.id = i.master_id
     WHERE m.class = $1 AND m.number = $2 AND (CASE WHEN $3::int IS NULL THEN i.latest ELSE i.iteration = $3 END)`,
    [cls, number, iteration ?? null],
  );
  if (rows.length !== 1) throw new Error(`no single iteration of ${cls} ${number}`);
  return `OR:${cls}:${rows[0].id}`;
}

export interface StoredItem {
  role: string;
  file_name: string;
  mime_type: string;
  size: string;
  sha256: string;
  message: string | null;
}

/** The content items of an iteration, by OID, ordered by name. */
export async function itemsOf(db: pg.Pool, oid: string): Promise<StoredItem[]> {
  const id = Number(oid.split(':')[2]);
  const { rows } = await db.query<StoredItem>(
    `SELECT role, file_name, mime_type, size::text, sha256, message FROM content_items
     WHERE iteration_id = $1 ORDER BY file_name`,
    [id],
  );
  return rows;
}

/** The bytes of a blob, reassembled from its chunks. */
export async function blobBytes(db: pg.Pool, sha256: string): Promise<Buffer> {
  const { rows } = await db.query<{ data: Buffer }>('SELECT data FROM blob_chunks WHERE sha256 = $1 ORDER BY seq', [
    sha256,
  ]);
  return Buffer.concat(rows.map((r) => r.data));
}

/** supertest: collect a binary response body as a Buffer (the response is the Node stream here). */
export const binaryParser: Parameters<request.Test['parse']>[0] = (res, done) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const parts: Buffer[] = [];
  stream.on('data', (c: Buffer) => parts.push(c));
  stream.on('end', () => done(null, Buffer.concat(parts)));
  stream.on('error', (e: Error) => done(e, Buffer.alloc(0)));
};

/** Uploads raw bytes as `<number>/<name>` as alice (an author of the fixture container). */
export async function uploadRaw(http: App, number: string, name: string, bytes: Buffer): Promise<void> {
  const res = await supertest(http)
    .post(`/files/${number}/${name}`)
    .auth('alice', 'alice-pw')
    .set('Content-Type', 'application/octet-stream')
    .send(bytes);
  if (res.status !== 200 && res.status !== 201) throw new Error(`uploading ${name}: ${res.status}`);
}

/**
 * Overwrites the stored bytes of a blob with zeros of the same length: stored bytes never
 * change, so a download that still gets the old bytes was served from a cache.
 */
export async function scribbleBlob(db: pg.Pool, sha256: string): Promise<void> {
  await db.query("UPDATE blob_chunks SET data = decode(repeat('00', octet_length(data)), 'hex') WHERE sha256 = $1", [
    sha256,
  ]);
}

/** Puts back what scribbleBlob overwrote (chunks of 256 KiB, as the service stores them). */
export async function restoreBlob(db: pg.Pool, sha256: string, bytes: Buffer, chunk = 256 * 1024): Promise<void> {
  for (let seq = 0; seq * chunk < bytes.length; seq++) {
    await db.query('UPDATE blob_chunks SET data = $3 WHERE sha256 = $1 AND seq = $2', [
      sha256,
      seq,
      bytes.subarray(seq * chunk, (seq + 1) * chunk),
    ]);
  }
}
