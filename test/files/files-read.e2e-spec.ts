import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { createTestApp, USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { binaryParser, oidOf } from './files-fixtures.js';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const SPEC_TXT = 'Drive unit specification\nRevision A, iteration 2\n';
const NOTES_MD = '# Notes\n- torque 42 Nm\n';

describe('files: listing and downloading (demo data, read only)', () => {
  let db: pg.Pool;
  const base = 'http://files.test';
  let doc1: string;
  let doc1Old: string;
  let secretDoc: string;
  const t = useTestApp({ PUBLIC_URL: base });
  beforeAll(async () => {
    db = testPool();
    doc1 = await oidOf(db, 'wt.doc.WTDocument', '0000000001');
    doc1Old = await oidOf(db, 'wt.doc.WTDocument', '0000000001', 1);
    secretDoc = await oidOf(db, 'wt.doc.WTDocument', 'SP00001-X');
  });
  afterAll(async () => {
    await db.end();
  });

  const get = (path: string, user: readonly [string, string] = USERS.bob) =>
    request(t.http)
      .get(path)
      .auth(...user);

  describe('GET /files/<oid_or_number>', () => {
    it('lists the SECONDARY files of the latest iteration by default, by number', async () => {
      const res = await get('/files/0000000001');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 1,
        items: [
          {
            url: `${base}/files/0000000001/notes.md`,
            role: 'SECONDARY',
            filename: 'notes.md',
            mimetype: 'text/markdown',
            size: Buffer.byteLength(NOTES_MD),
            oid: expect.stringMatching(/^OR:wt\.content\.ApplicationData:\d+$/),
            sha256: sha(NOTES_MD),
          },
        ],
        isCheckedOut: false,
        checkedOutBy: null,
        _runtime: expect.any(Number),
      });
    });

    it('lists every role with role=all, ordered by role then name', async () => {
      const res = await get('/files/0000000001?role=all');
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
      expect(res.body.items.map((i: { role: string; filename: string }) => `${i.role}/${i.filename}`)).toEqual([
        'PRIMARY/spec.txt',
        'SECONDARY/notes.md',
      ]);
      expect(res.body.items[0]).toMatchObject({ mimetype: 'text/plain', size: Buffer.byteLength(SPEC_TXT) });
    });

    it('lists one named role', async () => {
      const res = await get('/files/0000000001?role=PRIMARY');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ count: 1, items: [{ filename: 'spec.txt', role: 'PRIMARY' }] });
    });

    it('lists an iteration named by OID, with URLs built on the OID', async () => {
      const res = await get(`/files/${doc1Old}?role=all`);
      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { filename: string }) => i.filename)).toEqual([
        'spec.txt',
        'logo.png',
        'notes.md',
        'thumb.png',
      ]);
      expect(res.body.items[0].url).toBe(`${base}/files/${doc1Old}/spec.txt`);
    });

    it('answers count 0 for an object without files in the role', async () => {
      const res = await get('/files/0000000003?role=all');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 0,
        items: [],
        isCheckedOut: false,
        checkedOutBy: null,
        _runtime: expect.any(Number),
      });
      const none = await get('/files/0000000002');
      expect(none.body).toMatchObject({ count: 0, items: [] });
    });

    it('URL-encodes file names in url', async () => {
      const res = await get('/files/0000000004');
      expect(res.status).toBe(200);
      expect(res.body.items[0].filename).toBe('a b ü.txt');
      expect(res.body.items[0].url).toBe(`${base}/files/0000000004/a%20b%20%C3%BC.txt`);
    });

    it('finds other classes by number with type, and keeps type in the URLs', async () => {
      const res = await get('/files/0000500004?type=wt.epm.EPMDocument&role=DRAWING');
      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([
        expect.objectContaining({
          filename: 'drive_unit.pdf',
          url: `${base}/files/0000500004/drive_unit.pdf?type=wt.epm.EPMDocument`,
        }),
      ]);
      const asDocument = await get('/files/0000500004');
      expect(asDocument.status).toBe(404);
      expect(asDocument.body.message).toBe('no wt.doc.WTDocument with number 0000500004');
    });

    it('uses PUBLIC_URL and BASE_PATH for url', async () => {
      const other = await createTestApp({ PUBLIC_URL: 'https://pdm.example.com', BASE_PATH: '/pdm' });
      try {
        const res = await request(other.http)
          .get('/pdm/files/0000000001')
          .auth(...USERS.bob);
        expect(res.status).toBe(200);
        expect(res.body.items[0].url).toBe('https://pdm.example.com/pdm/files/0000000001/notes.md');
      } finally {
        await other.close();
      }
    });

    it.each([
      ['unknown number', '/files/0000009999', 404, 'no wt.doc.WTDocument with number 0000009999'],
      [
        'unknown OID',
        '/files/OR:wt.doc.WTDocument:999999',
        404,
        'no wt.doc.WTDocument with OID OR:wt.doc.WTDocument:999999',
      ],
      [
        'malformed OID',
        '/files/OR:wt.doc.WTDocument:abc',
        400,
        '"OR:wt.doc.WTDocument:abc" is not an OID (OR:<class>:<id>)',
      ],
      [
        'OID of a class without files',
        '/files/OR:wt.content.ApplicationData:1',
        400,
        'files are held by wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart; wt.content.ApplicationData holds none',
      ],
      ['unknown role', '/files/0000000001?role=PRIMRY', 400, expect.stringContaining('unknown role "PRIMRY"')],
      ['role twice', '/files/0000000001?role=PRIMARY&role=SECONDARY', 400, 'role must be given at most once'],
      ['unknown type', '/files/0000000001?type=wt.doc.Nope', 400, expect.stringContaining('type must be one of')],
      ['unknown parameter', '/files/0000000001?rol=all', 400, 'property rol should not exist'],
    ])('%s → %d', async (_case, path, status, message) => {
      const res = await get(path);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({
        statusCode: status,
        error: expect.any(String),
        message,
        requestId: expect.any(String),
      });
    });

    it('answers an OID whose class does not match its master 404', async () => {
      const id = doc1.split(':')[2];
      const res = await get(`/files/OR:wt.part.WTPart:${id}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`no wt.part.WTPart with OID OR:wt.part.WTPart:${id}`);
    });

    it('refuses a type that contradicts the OID', async () => {
      const res = await get(`/files/${doc1}?type=wt.part.WTPart`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("type wt.part.WTPart contradicts the OID's class wt.doc.WTDocument");
    });

    it('answers objects of containers the caller is not a member of like unknown ones', async () => {
      const byNumber = await get('/files/SP00001-X');
      expect(byNumber.status).toBe(404);
      expect(byNumber.body.message).toBe('no wt.doc.WTDocument with number SP00001-X');
      const byOid = await get(`/files/${secretDoc}`);
      expect(byOid.status).toBe(404);
      expect(byOid.body.message).toBe(`no wt.doc.WTDocument with OID ${secretDoc}`);
      const file = await get('/files/SP00001-X/plan.txt');
      expect(file.status).toBe(404);
      const admin = await get('/files/SP00001-X?role=PRIMARY', USERS.admin);
      expect(admin.status).toBe(200);
      expect(admin.body.items[0].filename).toBe('plan.txt');
    });

    it('needs credentials', async () => {
      const res = await request(t.http).get('/files/0000000001');
      expect(res.status).toBe(401);
    });
  });

  describe('GET /files/<oid_or_number>/<filename>', () => {
    const download = (path: string, headers: Record<string, string> = {}, user = USERS.bob) =>
      request(t.http)
        .get(path)
        .auth(...user)
        .set(headers)
        .buffer(true)
        .parse(binaryParser);

    it('sends the raw bytes with type, length, ETag and safe-serving headers', async () => {
      const res = await download('/files/0000000001/spec.txt');
      expect(res.status).toBe(200);
      expect(Buffer.isBuffer(res.body)).toBe(true);
      expect(res.body.toString('utf8')).toBe(SPEC_TXT);
      expect(res.headers).toMatchObject({
        'content-type': 'text/plain',
        'content-length': String(Buffer.byteLength(SPEC_TXT)),
        etag: `"${sha(SPEC_TXT)}"`,
        'accept-ranges': 'bytes',
        'x-content-type-options': 'nosniff',
        'content-disposition': 'inline; filename="spec.txt"',
        'cache-control': 'private, no-cache',
      });
    });

    it('reads older iterations by OID', async () => {
      const res = await download(`/files/${doc1Old}/thumb.png`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const listed = await get(`/files/${doc1Old}?role=THUMBNAIL`);
      expect(res.body.length).toBe(listed.body.items[0].size);
      expect(sha(res.body)).toBe(listed.body.items[0].sha256);
    });

    it('sends unicode names as filename* and finds them in NFC and NFD spellings', async () => {
      const nfc = await download(`/files/0000000004/${encodeURIComponent('a b ü.txt')}`);
      expect(nfc.status).toBe(200);
      expect(nfc.headers['content-disposition']).toBe(
        `inline; filename="a b _.txt"; filename*=UTF-8''a%20b%20%C3%BC.txt`,
      );
      const nfd = await download(`/files/0000000004/${encodeURIComponent('a b ü.txt'.normalize('NFD'))}`);
      expect(nfd.status).toBe(200);
      expect(nfd.body.equals(nfc.body)).toBe(true);
    });

    it('answers If-None-Match with the ETag 304, and a different one 200', async () => {
      const etag = `"${sha(SPEC_TXT)}"`;
      const same = await download('/files/0000000001/spec.txt', { 'If-None-Match': `"other", ${etag}` });
      expect(same.status).toBe(304);
      expect(same.headers.etag).toBe(etag);
      expect(same.body.length).toBe(0);
      const weak = await download('/files/0000000001/spec.txt', { 'If-None-Match': `W/${etag}` });
      expect(weak.status).toBe(304);
      const other = await download('/files/0000000001/spec.txt', { 'If-None-Match': '"0000"' });
      expect(other.status).toBe(200);
      expect(other.body.toString()).toBe(SPEC_TXT);
    });

    it('answers a failed If-Match 412', async () => {
      const res = await request(t.http)
        .get('/files/0000000001/spec.txt')
        .auth(...USERS.bob)
        .set('If-Match', '"abc"');
      expect(res.status).toBe(412);
      expect(res.body.message).toBe(`If-Match: the file's ETag is "${sha(SPEC_TXT)}"`);
    });

    it('answers a malformed If-None-Match 400', async () => {
      const res = await request(t.http)
        .get('/files/0000000001/spec.txt')
        .auth(...USERS.bob)
        .set('If-None-Match', 'abc');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
        message: 'If-None-Match: "abc" is not an entity tag; quote it: "<sha256>"',
      });
    });

    it.each([
      ['bytes=0-4', 0, 4],
      ['bytes=6-', 6, SPEC_TXT.length - 1],
      ['bytes=-9', SPEC_TXT.length - 9, SPEC_TXT.length - 1],
      ['bytes=30-1000', 30, SPEC_TXT.length - 1],
    ])('sends Range %s as 206', async (range, start, end) => {
      const res = await download('/files/0000000001/spec.txt', { Range: range });
      expect(res.status).toBe(206);
      expect(res.body.toString()).toBe(SPEC_TXT.slice(start, end + 1));
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${SPEC_TXT.length}`);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
    });

    it('answers a range outside the file 416 with the size', async () => {
      const res = await request(t.http)
        .get('/files/0000000001/spec.txt')
        .auth(...USERS.bob)
        .set('Range', 'bytes=500-');
      expect(res.status).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${SPEC_TXT.length}`);
      expect(res.body.message).toBe(`range bytes=500- lies outside the file of ${SPEC_TXT.length} bytes`);
    });

    it('ignores several ranges, other units and a stale If-Range: the whole file, 200', async () => {
      const cases: Record<string, string>[] = [
        { Range: 'bytes=0-1,4-5' },
        { Range: 'items=0-1' },
        { Range: 'bytes=0-1', 'If-Range': '"stale"' },
      ];
      for (const headers of cases) {
        const res = await download('/files/0000000001/spec.txt', headers);
        expect(res.status).toBe(200);
        expect(res.body.toString()).toBe(SPEC_TXT);
      }
      const current = await download('/files/0000000001/spec.txt', {
        Range: 'bytes=0-1',
        'If-Range': `"${sha(SPEC_TXT)}"`,
      });
      expect(current.status).toBe(206);
      expect(current.body.toString()).toBe('Dr');
    });

    it('answers HEAD with the headers only', async () => {
      const res = await request(t.http)
        .head('/files/0000000001/spec.txt')
        .auth(...USERS.bob);
      expect(res.status).toBe(200);
      expect(res.headers['content-length']).toBe(String(SPEC_TXT.length));
      expect(res.headers.etag).toBe(`"${sha(SPEC_TXT)}"`);
      expect(res.text ?? '').toBe('');
    });

    it('serves files of other classes by number with type', async () => {
      const res = await download('/files/0000500004/drive_unit.pdf?type=wt.epm.EPMDocument');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-security-policy']).toBeUndefined();
    });

    it.each([
      ['unknown file', '/files/0000000001/nope.txt', 404, "no file 'nope.txt' in wt.doc.WTDocument 0000000001 A.2"],
      [
        'file of an older iteration only',
        '/files/0000000001/thumb.png',
        404,
        "no file 'thumb.png' in wt.doc.WTDocument 0000000001 A.2",
      ],
      ['unknown object', '/files/0000009999/spec.txt', 404, 'no wt.doc.WTDocument with number 0000009999'],
      ['dot-dot name', '/files/0000000001/%2E%2E', 400, 'file name ".." is not a file name'],
      ['name with a slash', '/files/0000000001/a%2Fb', 400, 'file name "a/b" must not contain / or \\'],
      ['name with a backslash', '/files/0000000001/a%5Cb', 400, 'file name "a\\\\b" must not contain / or \\'],
      ['name with NUL', '/files/0000000001/a%00b', 400, 'file name "a\\u0000b" must not contain control characters'],
      [
        'name over 255 bytes',
        `/files/0000000001/${'é'.repeat(128)}`,
        400,
        expect.stringContaining('is longer than 255 bytes'),
      ],
    ])('%s → %d', async (_case, path, status, message) => {
      const res = await request(t.http)
        .get(path)
        .auth(...USERS.bob);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        statusCode: status,
        error: expect.any(String),
        message,
        requestId: expect.any(String),
      });
    });

    it('does not let a non-member download', async () => {
      const res = await request(t.http)
        .get('/files/SP00001-X/plan.txt')
        .auth(...USERS.alice);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('no wt.doc.WTDocument with number SP00001-X');
    });
  });
});
