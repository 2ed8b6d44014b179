import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import {
  ALL_BYTES,
  b64,
  binaryParser,
  blobBytes,
  importFilesFixture,
  removeFilesFixture,
  itemsOf,
  oidOf,
} from './files-fixtures.js';

const BASE = 'http://files.test';
const DOC = 'wt.doc.WTDocument';
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const CONTENT_OID = /^OR:wt\.content\.ApplicationData:\d+$/;

describe('files: create, update and delete', () => {
  let db: pg.Pool;
  const t = useTestApp({ PUBLIC_URL: BASE });
  beforeAll(async () => {
    await importFilesFixture('FW');
    db = testPool();
  });
  afterAll(async () => {
    await removeFilesFixture(db, 'FW');
    await db.end();
  });

  const post = (path: string, body?: object, user: readonly [string, string] = USERS.alice) => {
    const req = request(t.http)
      .post(path)
      .auth(...user);
    return body === undefined ? req : req.send(body);
  };
  const del = (path: string, user: readonly [string, string] = USERS.alice) =>
    request(t.http)
      .delete(path)
      .auth(...user);
  const download = (path: string) =>
    request(t.http)
      .get(path)
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);
  const iterationNumbers = async (number: string, cls = DOC) =>
    (
      await db.query<{ iteration: number; latest: boolean }>(
        `SELECT i.iteration, i.latest FROM iterations i JOIN masters m ON m.id = i.master_id
         WHERE m.class = $1 AND m.number = $2 ORDER BY i.iteration`,
        [cls, number],
      )
    ).rows;

  describe('POST', () => {
    it('creates a file: 201, SECONDARY, the default message, a guessed type, Location and ETag', async () => {
      const holder = await oidOf(db, DOC, 'FW-1');
      const res = await post('/files/FW-1/created.txt', { data: b64('hello\n') });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        oid: expect.stringMatching(CONTENT_OID),
        url: `${BASE}/files/FW-1/created.txt`,
        holder,
      });
      expect(res.headers.location).toBe(`${BASE}/files/FW-1/created.txt`);
      expect(res.headers.etag).toBe(`"${sha('hello\n')}"`);
      const stored = (await itemsOf(db, holder)).find((i) => i.file_name === 'created.txt');
      expect(stored).toEqual({
        role: 'SECONDARY',
        file_name: 'created.txt',
        mime_type: 'text/plain',
        size: '6',
        sha256: sha('hello\n'),
        message: "update file 'created.txt'",
      });
      const { rows } = await db.query('SELECT id FROM content_items WHERE id = $1', [
        Number(res.body.oid.split(':')[2]),
      ]);
      expect(rows).toHaveLength(1);
      const got = await download('/files/FW-1/created.txt');
      expect(got.body.toString()).toBe('hello\n');
    });

    it('updates a file in place: 200, the same item, new content, iteration modified by the caller', async () => {
      const holder = await oidOf(db, DOC, 'FW-1');
      const first = await post('/files/FW-1/update-me.txt', { data: b64('one') });
      expect(first.status).toBe(201);
      await db.query(
        "UPDATE iterations SET modified_at = '2020-01-01', modified_by = (SELECT id FROM users WHERE name = 'admin') WHERE id = $1",
        [Number(holder.split(':')[2])],
      );
      const second = await post('/files/FW-1/update-me.txt', { data: b64('two'), message: 'second version' });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({
        success: true,
        oid: first.body.oid,
        url: `${BASE}/files/FW-1/update-me.txt`,
        holder,
      });
      const stored = (await itemsOf(db, holder)).find((i) => i.file_name === 'update-me.txt');
      expect(stored).toMatchObject({ sha256: sha('two'), size: '3', message: 'second version', role: 'SECONDARY' });
      const it = await db.query<{ name: string; recent: boolean }>(
        `SELECT u.name, i.modified_at > now() - interval '1 minute' AS recent
         FROM iterations i JOIN users u ON u.id = i.modified_by WHERE i.id = $1`,
        [Number(holder.split(':')[2])],
      );
      expect(it.rows[0]).toEqual({ name: 'alice', recent: true });
      expect(await iterationNumbers('FW-1')).toEqual([{ iteration: 1, latest: true }]);
    });

    it('round-trips all 256 byte values and an empty file exactly', async () => {
      const res = await post('/files/FW-1/bytes.bin', { data: b64(ALL_BYTES) });
      expect(res.status).toBe(201);
      const got = await download('/files/FW-1/bytes.bin');
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('application/octet-stream');
      expect(got.body.equals(ALL_BYTES)).toBe(true);
      expect((await blobBytes(db, sha(ALL_BYTES))).equals(ALL_BYTES)).toBe(true);

      const empty = await post('/files/FW-1/empty.txt', { data: '' });
      expect(empty.status).toBe(201);
      const gotEmpty = await download('/files/FW-1/empty.txt');
      expect(gotEmpty.status).toBe(200);
      expect(gotEmpty.headers['content-length']).toBe('0');
      expect(gotEmpty.body.length).toBe(0);
      const list = await request(t.http)
        .get('/files/FW-1?role=all')
        .auth(...USERS.bob);
      expect(list.body.items.find((i: { filename: string }) => i.filename === 'empty.txt')).toMatchObject({ size: 0 });
    });

    it.each([
      ['page.html', 'text/html', '<script>alert(1)</script>'],
      ['drawing.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ['data.xml', 'application/xml', '<a/>'],
    ])('serves %s (active content) as a sandboxed attachment', async (name, type, text) => {
      expect((await post(`/files/FW-1/${name}`, { data: b64(text) })).status).toBe(201);
      const got = await download(`/files/FW-1/${name}`);
      expect(got.status).toBe(200);
      expect(got.body.toString()).toBe(text);
      expect(got.headers).toMatchObject({
        'content-type': type,
        'content-disposition': `attachment; filename="${name}"`,
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        'x-content-type-options': 'nosniff',
      });
    });

    it('keeps a unicode name in NFC and finds it again', async () => {
      const name = 'Prüfbericht 日本 ü.txt';
      const res = await post(`/files/FW-1/${encodeURIComponent(name.normalize('NFD'))}`, { data: b64('unicode') });
      expect(res.status).toBe(201);
      expect(res.body.url).toBe(`${BASE}/files/FW-1/${encodeURIComponent(name.normalize('NFC'))}`);
      const got = await download(`/files/FW-1/${encodeURIComponent(name)}`);
      expect(got.body.toString()).toBe('unicode');
      expect(got.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
      const stored = (await itemsOf(db, await oidOf(db, DOC, 'FW-1'))).map((i) => i.file_name);
      expect(stored).toContain(name.normalize('NFC'));
    });

    it('takes role, message, iterate and mimetype from URL parameters', async () => {
      const res = await post('/files/FW-3/from-url.dat?role=PRIMARY&message=via%20url&mimetype=text/csv', {
        data: b64('a,b'),
      });
      expect(res.status).toBe(201);
      const stored = (await itemsOf(db, await oidOf(db, DOC, 'FW-3'))).find((i) => i.file_name === 'from-url.dat');
      expect(stored).toMatchObject({ role: 'PRIMARY', message: 'via url', mime_type: 'text/csv' });
    });

    it('lets the JSON body win over URL parameters', async () => {
      const before = (await iterationNumbers('FW-3')).length;
      const res = await post('/files/FW-3/precedence.txt?role=PRIMARY&message=url&iterate=true&mimetype=text/csv', {
        data: b64('x'),
        role: 'THUMBNAIL',
        message: 'body',
        iterate: false,
        mimetype: 'text/plain',
      });
      expect(res.status).toBe(201);
      expect((await iterationNumbers('FW-3')).length).toBe(before);
      const stored = (await itemsOf(db, await oidOf(db, DOC, 'FW-3'))).find((i) => i.file_name === 'precedence.txt');
      expect(stored).toMatchObject({ role: 'THUMBNAIL', message: 'body', mime_type: 'text/plain' });
    });

    it('keeps the role and type of an existing file unless new ones are given', async () => {
      expect(
        (await post('/files/FW-3/keep.txt', { data: b64('1'), role: 'PRIMARY', mimetype: 'text/x-own' })).status,
      ).toBe(201);
      expect((await post('/files/FW-3/keep.txt', { data: b64('2') })).status).toBe(200);
      let stored = (await itemsOf(db, await oidOf(db, DOC, 'FW-3'))).find((i) => i.file_name === 'keep.txt');
      expect(stored).toMatchObject({ role: 'PRIMARY', mime_type: 'text/x-own' });
      expect((await post('/files/FW-3/keep.txt', { data: b64('3'), role: 'DRAWING' })).status).toBe(200);
      stored = (await itemsOf(db, await oidOf(db, DOC, 'FW-3'))).find((i) => i.file_name === 'keep.txt');
      expect(stored).toMatchObject({ role: 'DRAWING', sha256: sha('3') });
    });

    it('writes to the iteration an OID names, and to other classes by number with type', async () => {
      const cad = await oidOf(db, 'wt.epm.EPMDocument', 'FW-1');
      const byOid = await post(`/files/${cad}/by-oid.txt`, { data: b64('cad') });
      expect(byOid.status).toBe(201);
      expect(byOid.body).toMatchObject({ url: `${BASE}/files/${cad}/by-oid.txt`, holder: cad });
      const byNumber = await post('/files/FW-1/by-number.txt?type=wt.epm.EPMDocument', { data: b64('cad 2') });
      expect(byNumber.status).toBe(201);
      expect(byNumber.body).toMatchObject({
        url: `${BASE}/files/FW-1/by-number.txt?type=wt.epm.EPMDocument`,
        holder: cad,
      });
      expect((await itemsOf(db, cad)).map((i) => i.file_name)).toEqual(['by-number.txt', 'by-oid.txt', 'model.prt']);
      expect((await itemsOf(db, await oidOf(db, DOC, 'FW-1'))).map((i) => i.file_name)).not.toContain('by-oid.txt');
    });

    it('iterate=true makes a new iteration carrying everything over, then writes there', async () => {
      const old = await oidOf(db, 'wt.part.WTPart', 'FW-P1');
      const oldItems = await itemsOf(db, old);
      const res = await post(`/files/${old}/added.txt?iterate=true`, { data: b64('in the new iteration') });
      expect(res.status).toBe(201);
      const fresh = await oidOf(db, 'wt.part.WTPart', 'FW-P1');
      expect(fresh).not.toBe(old);
      expect(res.body).toEqual({
        success: true,
        oid: expect.stringMatching(CONTENT_OID),
        url: `${BASE}/files/${fresh}/added.txt`,
        holder: fresh,
      });
      expect(await iterationNumbers('FW-P1', 'wt.part.WTPart')).toEqual([
        { iteration: 1, latest: false },
        { iteration: 2, latest: true },
      ]);
      expect(await itemsOf(db, old)).toEqual(oldItems);
      expect((await itemsOf(db, fresh)).map((i) => i.file_name)).toEqual(['added.txt', 'part.txt']);
      const rows = await db.query(
        `SELECT o.state = n.state AND o.attributes = n.attributes AND o.version = n.version AND o.title IS NOT DISTINCT FROM n.title AS same,
                u.name AS modifier, n.created_by = n.modified_by AS created_by_caller
         FROM iterations o, iterations n JOIN users u ON u.id = n.modified_by WHERE o.id = $1 AND n.id = $2`,
        [Number(old.split(':')[2]), Number(fresh.split(':')[2])],
      );
      expect(rows.rows[0]).toEqual({ same: true, modifier: 'alice', created_by_caller: true });
      const links = await db.query(
        'SELECT parent_id, child_id, quantity FROM usage_links WHERE parent_id = ANY($1::int[]) ORDER BY parent_id',
        [[Number(old.split(':')[2]), Number(fresh.split(':')[2])]],
      );
      expect(links.rows.map((r) => r.quantity)).toEqual([2, 2]);
      const blobs = await db.query('SELECT count(*)::int AS n FROM content_blobs WHERE sha256 = $1', [
        sha('part notes'),
      ]);
      expect(blobs.rows[0].n).toBe(1);
    });

    it('iterate=true on an existing file updates the carried-over copy (200), the old iteration keeps its bytes', async () => {
      const old = await oidOf(db, DOC, 'FW-1');
      const before = (await itemsOf(db, old)).find((i) => i.file_name === 'main.txt');
      const res = await post('/files/FW-1/main.txt', { data: b64('main v2'), iterate: true });
      expect(res.status).toBe(200);
      const fresh = await oidOf(db, DOC, 'FW-1');
      expect(res.body).toMatchObject({ url: `${BASE}/files/FW-1/main.txt`, holder: fresh });
      expect((await itemsOf(db, old)).find((i) => i.file_name === 'main.txt')).toEqual(before);
      expect((await itemsOf(db, fresh)).find((i) => i.file_name === 'main.txt')).toMatchObject({
        sha256: sha('main v2'),
        role: 'PRIMARY',
      });
      expect((await download(`/files/${old}/main.txt`)).body.toString()).toBe('main content\n');
      expect((await download('/files/FW-1/main.txt')).body.toString()).toBe('main v2');
    });

    it('refuses writes to an iteration that is not the latest: 409 naming the latest', async () => {
      const old = await oidOf(db, DOC, 'FW-2', 1);
      const latest = await oidOf(db, DOC, 'FW-2');
      const res = await post(`/files/${old}/x.txt`, { data: b64('x') });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        `${old} is iteration A.1 of FW-2, not the latest; files of older iterations are read-only. The latest is ${latest} (A.2)`,
      );
      const gone = await del(`/files/${old}/v1.txt`);
      expect(gone.status).toBe(409);
      expect((await itemsOf(db, old)).map((i) => i.file_name)).toEqual(['v1.txt']);
    });
  });

  describe('DELETE', () => {
    it('deletes a file: 200 with the removed item OID; then 404', async () => {
      const holder = await oidOf(db, DOC, 'FW-3');
      const created = await post('/files/FW-3/doomed.txt', { data: b64('bye') });
      const res = await del('/files/FW-3/doomed.txt');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, oid: created.body.oid, url: `${BASE}/files/FW-3/doomed.txt`, holder });
      expect((await itemsOf(db, holder)).map((i) => i.file_name)).not.toContain('doomed.txt');
      const again = await del('/files/FW-3/doomed.txt');
      expect(again.status).toBe(404);
      expect(again.body.message).toMatch(/^no file 'doomed.txt' in wt.doc.WTDocument FW-3 A\.\d+$/);
      expect((await download('/files/FW-3/doomed.txt')).status).toBe(404);
    });

    it('iterate=true deletes in a new iteration; the old one keeps the file', async () => {
      await post('/files/FW-3/iterated-away.txt', { data: b64('old') });
      const old = await oidOf(db, DOC, 'FW-3');
      const res = await del(`/files/${old}/iterated-away.txt?iterate=true&message=cleanup`);
      expect(res.status).toBe(200);
      const fresh = await oidOf(db, DOC, 'FW-3');
      expect(fresh).not.toBe(old);
      expect(res.body).toEqual({
        success: true,
        oid: expect.stringMatching(CONTENT_OID),
        url: `${BASE}/files/${fresh}/iterated-away.txt`,
        holder: fresh,
      });
      expect((await itemsOf(db, old)).map((i) => i.file_name)).toContain('iterated-away.txt');
      const after = (await itemsOf(db, fresh)).map((i) => i.file_name);
      expect(after).not.toContain('iterated-away.txt');
      expect(after.length).toBe((await itemsOf(db, old)).length - 1);
    });

    it('answers 404 for an unknown file without making an iteration', async () => {
      const before = await iterationNumbers('FW-3');
      const res = await del('/files/FW-3/never-was.txt?iterate=true');
      expect(res.status).toBe(404);
      expect(await iterationNumbers('FW-3')).toEqual(before);
    });
  });
});
