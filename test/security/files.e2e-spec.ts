import contentDisposition from 'content-disposition';
import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { b64, importFilesFixture, itemsOf, oidOf, removeFilesFixture } from '../files/files-fixtures.js';
import { expectError, fingerprint, type Creds } from './security-helpers.js';

const PREFIX = 'SECF';
const DOC = `${PREFIX}-3`;
const CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const parseDisposition = (
  contentDisposition as unknown as { parse(header: string): { type: string; parameters: Record<string, string> } }
).parse;

/** No header name or value of the answer holds a raw CR, LF or NUL, and none was injected. */
function expectCleanHeaders(res: request.Response): void {
  expect(res.headers['x-injected']).toBeUndefined();
  expect(res.headers['set-cookie']).toBeUndefined();
  for (const [name, value] of Object.entries(res.headers)) {
    expect({ name, value }).toEqual({ name: expect.not.stringMatching(/[\r\n\0]/), value: expect.anything() });
    for (const v of [value].flat()) expect({ name, v }).toEqual({ name, v: expect.not.stringMatching(/[\r\n\0]/) });
  }
}

describe('file names, stored scripts and headers', () => {
  let db: pg.Pool;

  const t = useTestApp();
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
  });
  afterAll(async () => {
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });

  const path = (name: string) => `/files/${DOC}/${encodeURIComponent(name)}`;
  const upload = (name: string, body: string, query: Record<string, string> = {}) =>
    request(t.http)
      .post(path(name))
      .query(query)
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from(body));

  const BAD_NAMES = [
    '..',
    '.',
    '../../etc/passwd',
    '..\\..\\windows\\win.ini',
    'a/b.txt',
    'evil.txt\r\nX-Injected: 1',
    'evil.txt\nSet-Cookie: a=b',
    'evil\r.txt',
    'nul\u0000.txt',
    'esc\u001b[31m.txt',
    'del\u007f.txt',
    'c1\u0085.txt',
    'x'.repeat(256),
    'é'.repeat(128),
  ];

  it.each(BAD_NAMES.map((n) => [JSON.stringify(n).slice(0, 40), n]))(
    'refuses the name %s on every method, storing nothing',
    async (_label, name) => {
      const before = await fingerprint(db);
      const answers: [string, request.Response][] = [
        ['POST raw', await upload(name, 'payload')],
        [
          'POST JSON',
          await request(t.http)
            .post(path(name))
            .auth(...USERS.alice)
            .send({ data: b64('payload') }),
        ],
        [
          'GET',
          await request(t.http)
            .get(path(name))
            .auth(...USERS.alice),
        ],
        [
          'HEAD',
          await request(t.http)
            .head(path(name))
            .auth(...USERS.alice),
        ],
        [
          'DELETE',
          await request(t.http)
            .delete(path(name))
            .auth(...USERS.alice),
        ],
      ];
      for (const [method, res] of answers) {
        expectCleanHeaders(res);
        if (method === 'HEAD') expect(res.status).toBe(400);
        else expectError(res, 400, expect.stringMatching(/file name|filename/i) as unknown as RegExp, [name]);
      }
      expect(await fingerprint(db)).toEqual(before);
    },
  );

  it('never resolves raw dot segments in the URL to another resource', async () => {
    for (const url of [`/files/${DOC}/../../reports`, `/files/${DOC}/..%2F..%2Freports`, `/files/${DOC}/%2e%2e`]) {
      const res = await request(t.http)
        .get(url)
        .auth(...USERS.alice);
      expect([400, 404]).toContain(res.status);
      expectError(res, res.status);
    }
  });

  it.each([
    ['mimetype', { mimetype: 'text/plain\r\nX-Injected: 1' }],
    ['mimetype', { mimetype: 'text/html; charset="x\ny"' }],
    ['message', { message: 'x'.repeat(4001) }],
    ['role', { role: "SECONDARY' OR '1'='1" }],
  ])('refuses a bad %s parameter without storing', async (_what, query) => {
    const before = await fingerprint(db);
    const res = await upload('ok.txt', 'x', query);
    expectError(res, 400, undefined, Object.values(query));
    expectCleanHeaders(res);
    expect(await fingerprint(db)).toEqual(before);
  });

  it.each([
    ['page.html', '<script>alert(document.cookie)</script>', {}, 'text/html'],
    ['image.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', {}, 'image/svg+xml'],
    ['data.xml', '<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>', {}, null],
    ['page.xhtml', '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>', {}, null],
    ['script.js', 'alert(1)', {}, null],
    ['disguised.png', '<script>alert(1)</script>', { mimetype: 'text/html' }, 'text/html'],
    ['disguised.txt', '<svg onload="alert(1)"/>', { mimetype: 'image/svg+xml' }, 'image/svg+xml'],
  ])(
    'serves %s uploaded by an author as a sandboxed attachment',
    async (name, body, query: Record<string, string>, type) => {
      const created = await upload(name, body, query);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ success: true });
      for (const user of [USERS.alice, USERS.bob] as Creds[]) {
        const res = await request(t.http)
          .get(path(name))
          .auth(...user)
          .buffer(true)
          .parse((r, cb) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => cb(null, Buffer.concat(chunks)));
          });
        expect(res.status).toBe(200);
        expect(res.headers['content-disposition']).toMatch(/^attachment; filename="/);
        expect(res.headers['content-security-policy']).toBe(CSP);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        if (type) expect(res.headers['content-type']).toMatch(new RegExp(`^${type.replace('+', '\\+')}`));
        expect((res.body as Buffer).toString()).toBe(body);
      }
    },
  );

  it('sandboxes inline types too, and quotes hostile but valid names in Content-Disposition', async () => {
    const names = [
      'quote"; filename=evil.html; x=".txt',
      'semi;colon, comma.txt',
      'line\u2028sep\u2029para.txt',
      'spaces   .txt',
    ];
    for (const name of names) {
      expect((await upload(name, 'plain text')).status).toBe(201);
      const res = await request(t.http)
        .get(path(name))
        .auth(...USERS.bob);
      expect(res.status).toBe(200);
      expectCleanHeaders(res);
      expect(res.headers['content-security-policy']).toBe(CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const cd = res.headers['content-disposition'] as string;
      expect(cd).toMatch(/^inline; filename="/);
      // Parsed as a browser would, the header names exactly the stored file: the name adds no parameter.
      expect(parseDisposition(cd)).toEqual({ type: 'inline', parameters: { filename: name } });
    }
    const stored = (await itemsOf(db, await oidOf(db, 'wt.doc.WTDocument', DOC))).map((i) => i.file_name);
    expect(stored).toEqual(expect.arrayContaining(names.map((n) => n.normalize('NFC'))));
  });

  it('answers the listing with names as JSON strings, never as markup', async () => {
    const res = await request(t.http)
      .get(`/files/${DOC}?role=all`)
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.items.map((i: { filename: string }) => i.filename)).toContain('page.html');
  });
});
