import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type pg from 'pg';
import request from 'supertest';
import { basicAuth, listeningPort, RawConnection } from '../helpers/raw-http.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { b64, importFilesFixture, itemsOf, oidOf, removeFilesFixture } from './files-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const LIMIT = 64 * 1024;
const MESSAGE = `the file is larger than the limit of ${LIMIT} bytes (FILES_MAX_SIZE)`;
const spooled = () => readdirSync(tmpdir()).filter((f) => f.startsWith('pdm-upload-')).length;

/** Resolves with `what` when `promise` does, or fails after `ms` saying what did not happen. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * An upload past FILES_MAX_SIZE is answered 413 in the error envelope, also when the client
 * keeps sending: a chunked body (no Content-Length) is only found too large while it arrives,
 * and a client still sending must be able to read the answer before the connection closes.
 */
describe('files: uploads past FILES_MAX_SIZE', () => {
  let db: pg.Pool;
  const t = useTestApp({ FILES_MAX_SIZE: String(LIMIT) });
  beforeAll(async () => {
    await importFilesFixture('FO');
    db = testPool();
  });
  afterEach(() => RawConnection.destroyAll());
  afterAll(async () => {
    await removeFilesFixture(db, 'FO');
    await db.end();
  });

  const stored = async () => (await itemsOf(db, await oidOf(db, DOC, 'FO-1'))).map((i) => i.file_name);

  /** A chunked upload as alice, on a raw connection, with a way to send 32 KiB chunks. */
  async function chunkedUpload(name: string) {
    const c = await RawConnection.connect(await listeningPort(t), { allowHalfOpen: true });
    await c.head('POST', `/files/FO-1/${name}`, {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': 'application/octet-stream',
      'Transfer-Encoding': 'chunked',
    });
    const piece = Buffer.alloc(32 * 1024, 1);
    const frame = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
    let answered = false;
    const response = c.response().then((r) => {
      answered = true;
      return r;
    });
    /** Sends chunks until the answer came (or `count` of them); false when a write failed. */
    const send = async (count = Infinity) => {
      for (let i = 0; i < count && (count !== Infinity || !answered); i++) {
        if (i > 8192) throw new Error('no answer after 256 MiB');
        if (!(await c.write(frame))) return false;
      }
      return true;
    };
    /**
     * Resolves once the server has closed the connection. The client's side stays open, so this
     * shows when a write is refused (the server answers it with a reset), tried every 50 ms.
     */
    const gone = () =>
      within(
        (async () => {
          while (await c.write(frame)) await new Promise((r) => setTimeout(r, 50));
        })(),
        20_000,
        'the server closing the connection',
      );
    return { c, response, send, gone };
  }

  const tooLarge = {
    statusCode: 413,
    error: 'Payload Too Large',
    message: MESSAGE,
    requestId: expect.any(String),
  };

  it('answers a chunked upload that goes on past the limit 413, and reads on until the client stops', async () => {
    const before = spooled();
    const { c, response, send, gone } = await chunkedUpload('endless.bin');
    expect(await send()).toBe(true);
    const res = await within(response, 20_000, 'the answer to the oversized upload');
    expect(res).toMatchObject({ status: 413, headers: { connection: 'close' } });
    expect(JSON.parse(res!.body)).toEqual(tooLarge);
    // A client that notices the answer only later is still sending: the server takes (and
    // discards) those bytes instead of resetting the connection under the unread answer.
    expect(await send(64)).toBe(true);
    expect(await c.write('0\r\n\r\n')).toBe(true);
    // Then it closes the connection, as it said it would.
    await gone();
    expect(await stored()).not.toContain('endless.bin');
    expect(spooled()).toBe(before);
  });

  it('closes the connection after a while when the client neither finishes nor closes', async () => {
    const { response, send, gone } = await chunkedUpload('stalled.bin');
    expect(await send()).toBe(true);
    expect((await within(response, 20_000, 'the answer to the oversized upload'))?.status).toBe(413);
    await gone();
  });

  it('gives its 413 to fetch streaming a large body', async () => {
    const port = await listeningPort(t);
    const piece = new Uint8Array(64 * 1024);
    for (let attempt = 0; attempt < 5; attempt++) {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => (sent++ < 1024 ? controller.enqueue(piece) : controller.close()),
      });
      const res = await fetch(`http://127.0.0.1:${port}/files/FO-1/fetched.bin`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { Authorization: basicAuth(USERS.alice), 'Content-Type': 'application/octet-stream' },
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual(tooLarge);
    }
    expect(await stored()).not.toContain('fetched.bin');
  });

  it('still answers 413 to a declared length past the limit and to base64 in JSON, storing nothing', async () => {
    const raw = await request(t.http)
      .post('/files/FO-1/declared.bin')
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(LIMIT + 1));
    expect(raw.status).toBe(413);
    expect(raw.body).toMatchObject({ statusCode: 413, message: MESSAGE });
    const json = await request(t.http)
      .post('/files/FO-1/base64.bin')
      .auth(...USERS.alice)
      .send({ data: b64(Buffer.alloc(LIMIT + 1)) });
    expect(json.status).toBe(413);
    expect(json.body).toMatchObject({ statusCode: 413, message: MESSAGE });
    expect(await stored()).toEqual(expect.not.arrayContaining(['declared.bin', 'base64.bin']));
  });

  it('serves the next request after an oversized upload', async () => {
    const ok = await request(t.http)
      .post('/files/FO-1/after.txt')
      .auth(...USERS.alice)
      .send({ data: b64('fine') });
    expect(ok.status).toBe(201);
  });
});
