import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { b64, importFilesFixture, removeFilesFixture, itemsOf, oidOf } from './files-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const md5b64 = (bytes: Buffer | string) => createHash('md5').update(bytes).digest('base64');
const sha256b64 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('base64');

/** A fingerprint of the rows a file change could touch, to prove a refused request changed nothing. */
async function fingerprint(db: pg.Pool): Promise<string> {
  const { rows } = await db.query<{ h: string }>(
    `SELECT md5(
       (SELECT coalesce(string_agg(t::text, '|' ORDER BY t.id), '') FROM content_items t) ||
       (SELECT coalesce(string_agg(t::text, '|' ORDER BY t.id), '') FROM iterations t) ||
       (SELECT count(*)::text FROM content_blobs)) AS h`,
  );
  return rows[0].h;
}

describe('files: refused changes', () => {
  let db: pg.Pool;
  const t = useTestApp();
  beforeAll(async () => {
    await importFilesFixture('FE');
    db = testPool();
  });
  afterAll(async () => {
    await removeFilesFixture(db, 'FE');
    await db.end();
  });

  const post = (path: string, user: readonly [string, string] = USERS.alice) =>
    request(t.http)
      .post(path)
      .auth(...user);
  const expectError = (res: request.Response, status: number, message: string | RegExp) => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({
      statusCode: status,
      error: expect.any(String),
      message: typeof message === 'string' ? message : expect.stringMatching(message),
      requestId: expect.any(String),
    });
  };

  describe('permissions', () => {
    it('lets a reader read but not write (403) and a non-member nothing (404)', async () => {
      const before = await fingerprint(db);
      expectError(
        await post('/files/FE-1/x.txt', USERS.bob).send({ data: b64('x') }),
        403,
        "changing files needs author or manager rights in container 'FE Files'; you may only read there",
      );
      expectError(
        await request(t.http)
          .delete('/files/FE-1/main.txt')
          .auth(...USERS.bob),
        403,
        /author or manager rights/,
      );
      expectError(
        await post('/files/FE-1/x.txt', USERS.carol).send({ data: b64('x') }),
        404,
        'no wt.doc.WTDocument with number FE-1',
      );
      const oid = await oidOf(db, DOC, 'FE-1');
      expectError(
        await request(t.http)
          .delete(`/files/${oid}/main.txt`)
          .auth(...USERS.carol),
        404,
        `no wt.doc.WTDocument with OID ${oid}`,
      );
      expect(await fingerprint(db)).toBe(before);
    });

    it('lets an administrator write anywhere', async () => {
      const res = await post('/files/FE-1/by-admin.txt', USERS.admin).send({ data: b64('admin') });
      expect(res.status).toBe(201);
      expect(
        (
          await request(t.http)
            .delete('/files/FE-1/by-admin.txt')
            .auth(...USERS.admin)
        ).status,
      ).toBe(200);
    });

    it('answers an unknown object 404', async () => {
      expectError(
        await post('/files/FE-404/x.txt').send({ data: b64('x') }),
        404,
        'no wt.doc.WTDocument with number FE-404',
      );
    });
  });

  describe('bad input changes nothing', () => {
    let before: string;
    beforeEach(async () => {
      before = await fingerprint(db);
    });
    afterEach(async () => {
      expect(await fingerprint(db)).toBe(before);
    });

    it.each([
      ['missing data', { message: 'no data' }, 'the JSON body needs "data": the file content in base64'],
      ['data null', { data: null }, 'the JSON body needs "data": the file content in base64'],
      ['data not a string', { data: 42 }, 'data must be a string'],
      ['a JSON array', [1, 2], 'the JSON body must be an object with "data": the file content in base64'],
      ['an unknown field', { data: b64('x'), colour: 'red' }, 'property colour should not exist'],
      ['iterate not boolean', { data: b64('x'), iterate: 'yes' }, 'iterate must be a boolean value'],
      [
        'unknown role',
        { data: b64('x'), role: 'PRIMRY' },
        /^unknown role "PRIMRY" \(known roles: .*\bPRIMARY, .*\bSECONDARY\b.*, or all when listing\)$/,
      ],
      ['bad mimetype', { data: b64('x'), mimetype: 'text' }, 'mimetype "text" is not a media type like text/plain'],
      [
        'a data: URL',
        { data: `data:text/plain;base64,${b64('x')}` },
        'data is a data: URL; send only the base64 text after the comma',
      ],
      ['line breaks', { data: 'QUJD\nREVG' }, /^data has a line break \(send base64 without line breaks/],
      ['base64url characters', { data: 'ab-_' }, /^data has '-' \(base64url/],
      ['missing padding', { data: 'QUI' }, "data is 3 characters long, not a multiple of 4 (padding '=' missing?)"],
      ['padding inside', { data: 'QQ==QUJD' }, "data has padding '=' at position 2, before the end"],
      ['non-canonical padding', { data: 'QR==' }, /^data is not canonical/],
      [
        'a message too long',
        { data: b64('x'), message: 'm'.repeat(4001) },
        'message must be shorter than or equal to 4000 characters',
      ],
    ])('JSON body with %s → 400', async (_case, body, message) => {
      expectError(await post('/files/FE-1/bad.txt').send(body), 400, message);
    });

    it('refuses a body that is not valid JSON', async () => {
      const res = await post('/files/FE-1/bad.txt').set('Content-Type', 'application/json').send('{"data": ');
      expectError(res, 400, 'request body is not valid JSON');
    });

    it('refuses a request without a body', async () => {
      expectError(await post('/files/FE-1/bad.txt'), 400, /^request body is missing/);
    });

    it('refuses other content types with 415', async () => {
      expectError(
        await post('/files/FE-1/bad.txt').set('Content-Type', 'text/plain').send('hello'),
        415,
        /^send the file as JSON .* not text\/plain$/,
      );
      expectError(
        await post('/files/FE-1/bad.txt')
          .type('form')
          .send({ data: b64('x') }),
        415,
        /^send the file as JSON/,
      );
      expectError(
        await post('/files/FE-1/bad.txt')
          .set('Content-Type', 'application/octet-stream')
          .set('Content-Encoding', 'gzip')
          .send(Buffer.from('x')),
        415,
        'Content-Encoding gzip is not supported for raw uploads',
      );
    });

    it.each([
      ['empty-looking dot', '.', 'file name "." is not a file name'],
      ['dot dot', '..', 'file name ".." is not a file name'],
      ['slash', 'a%2Fb.txt', 'file name "a/b.txt" must not contain / or \\'],
      ['backslash', 'a%5Cb.txt', 'file name "a\\\\b.txt" must not contain / or \\'],
      ['NUL', 'a%00.txt', 'file name "a\\u0000.txt" must not contain control characters'],
      ['line feed', 'a%0A.txt', 'file name "a\\n.txt" must not contain control characters'],
      ['C1 control', 'a%C2%85.txt', 'file name "a\u0085.txt" must not contain control characters'],
      ['over 255 bytes', 'ü'.repeat(128), /is longer than 255 bytes$/],
    ])('refuses a file name with %s (400)', async (_case, name, message) => {
      expectError(await post(`/files/FE-1/${name}`).send({ data: b64('x') }), 400, message);
      expectError(
        await request(t.http)
          .delete(`/files/FE-1/${name}`)
          .auth(...USERS.alice),
        400,
        message,
      );
    });

    it.each([
      ['iterate=yes', 'iterate must be true or false'],
      ['iterate=true&iterate=false', /iterate must be given at most once/],
      ['role=NOPE', /^unknown role "NOPE"/],
      ['type=wt.doc.Other', /^type must be one of/],
      ['colour=red', 'property colour should not exist'],
    ])('refuses the URL parameter %s (400)', async (query, message) => {
      expectError(await post(`/files/FE-1/bad.txt?${query}`).send({ data: b64('x') }), 400, message);
    });

    it('refuses bad DELETE parameters (400)', async () => {
      expectError(
        await request(t.http)
          .delete('/files/FE-1/main.txt?iterate=1')
          .auth(...USERS.alice),
        400,
        'iterate must be true or false',
      );
      expectError(
        await request(t.http)
          .delete('/files/FE-1/main.txt?role=PRIMARY')
          .auth(...USERS.alice),
        400,
        'property role should not exist',
      );
    });

    it('refuses content that does not match Digest or Content-MD5', async () => {
      const data = b64('the content');
      expectError(
        await post('/files/FE-1/digest.txt')
          .set('Digest', `sha-256=${sha256b64('other')}`)
          .send({ data }),
        400,
        `the content does not match the SHA-256 digest sent (received content has sha-256=${sha256b64('the content')}); nothing was stored`,
      );
      expectError(
        await post('/files/FE-1/digest.txt').set('Content-MD5', md5b64('other')).send({ data }),
        400,
        /^the content does not match the MD5 digest sent/,
      );
      expectError(
        await post('/files/FE-1/digest.txt')
          .set('Content-Type', 'application/octet-stream')
          .set('Digest', `sha-256=${sha256b64('other')}`)
          .send(Buffer.from('the content')),
        400,
        /^the content does not match the SHA-256 digest sent/,
      );
      expect((await itemsOf(db, await oidOf(db, DOC, 'FE-1'))).map((i) => i.file_name)).not.toContain('digest.txt');
    });

    it.each([
      ['Digest', 'sha-512=abc', 'Digest: no supported algorithm (use sha-256 or md5)'],
      ['Digest', 'sha-256=notbase64!', 'Digest: "notbase64!" is not a base64 SHA-256 digest'],
      ['Content-MD5', 'AAAA', 'Content-MD5: "AAAA" is not a base64 MD5 digest'],
      ['If-Match', 'abc', 'If-Match: "abc" is not an entity tag; quote it: "<sha256>"'],
    ])('refuses a malformed %s header (400)', async (header, value, message) => {
      expectError(
        await post('/files/FE-1/main.txt')
          .set(header, value)
          .send({ data: b64('x') }),
        400,
        message,
      );
    });

    it('answers a failed If-Match 412 with the current ETag', async () => {
      const res = await post('/files/FE-1/main.txt')
        .set('If-Match', '"0123"')
        .send({ data: b64('x') });
      expectError(res, 412, `If-Match: file 'main.txt' has changed; its ETag is now "${sha('main content\n')}"`);
      expect(res.headers.etag).toBe(`"${sha('main content\n')}"`);
      expectError(
        await post('/files/FE-1/absent.txt')
          .set('If-Match', '*')
          .send({ data: b64('x') }),
        412,
        "If-Match: file 'absent.txt' does not exist",
      );
      expectError(
        await request(t.http)
          .delete('/files/FE-1/main.txt')
          .auth(...USERS.alice)
          .set('If-Match', '"0123"'),
        412,
        /has changed/,
      );
    });

    it('answers If-None-Match: * on an existing file 412 (create only)', async () => {
      expectError(
        await post('/files/FE-1/main.txt')
          .set('If-None-Match', '*')
          .send({ data: b64('x') }),
        412,
        "If-None-Match: file 'main.txt' already exists",
      );
    });
  });

  describe('accepted integrity and conditions', () => {
    it('stores content whose Digest, Content-Digest and Content-MD5 match', async () => {
      const content = 'verified content';
      const res = await post('/files/FE-3/verified.txt')
        .set('Digest', `sha-256=${sha256b64(content)}, md5=${md5b64(content)}`)
        .set('Content-Digest', `sha-256=:${sha256b64(content)}:`)
        .set('Content-MD5', md5b64(content))
        .send({ data: b64(content) });
      expect(res.status).toBe(201);
      const raw = await post('/files/FE-3/verified-raw.txt')
        .set('Content-Type', 'application/octet-stream')
        .set('Content-MD5', md5b64(content))
        .send(Buffer.from(content));
      expect(raw.status).toBe(201);
      const stored = await itemsOf(db, await oidOf(db, DOC, 'FE-3'));
      expect(stored.filter((i) => i.sha256 === sha(content)).map((i) => i.file_name)).toEqual([
        'verified-raw.txt',
        'verified.txt',
      ]);
    });

    it('updates and deletes under a matching If-Match; If-None-Match: * creates', async () => {
      const created = await post('/files/FE-3/conditional.txt')
        .set('If-None-Match', '*')
        .send({ data: b64('v1') });
      expect(created.status).toBe(201);
      const updated = await post('/files/FE-3/conditional.txt')
        .set('If-Match', created.headers.etag)
        .send({ data: b64('v2') });
      expect(updated.status).toBe(200);
      expect(updated.headers.etag).toBe(`"${sha('v2')}"`);
      const stale = await request(t.http)
        .delete('/files/FE-3/conditional.txt')
        .auth(...USERS.alice)
        .set('If-Match', created.headers.etag);
      expect(stale.status).toBe(412);
      const deleted = await request(t.http)
        .delete('/files/FE-3/conditional.txt')
        .auth(...USERS.alice)
        .set('If-Match', updated.headers.etag);
      expect(deleted.status).toBe(200);
    });
  });
});
