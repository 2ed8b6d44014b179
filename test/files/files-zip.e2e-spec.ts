import { createHash, randomBytes } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import type pg from 'pg';
import request from 'supertest';
import { pollUntil } from '../helpers/bounded-wait.js';
import { listeningPort } from '../helpers/raw-http.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { binaryParser, oidOf, uploadRaw } from './files-fixtures.js';
import { importZipFixture, removeZipFixture, unzip } from './zip-fixtures.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const P = 'FZIP';

interface ManifestFile {
  path: string;
  file: string;
  role: string;
  size: number;
  sha256: string;
}

describe('files: ZIP downloads and collections', () => {
  let db: pg.Pool;
  const t = useTestApp({ FILES_DISK_CACHE_SIZE: '0' });
  beforeAll(async () => {
    db = testPool();
    await removeZipFixture(db, P);
    await importZipFixture(P);
  });
  afterAll(async () => {
    await removeZipFixture(db, P);
    await db.end();
  });
  afterEach(() => jest.restoreAllMocks());

  const zipGet = (path: string, user: readonly [string, string] = USERS.bob) =>
    request(t.http)
      .get(path)
      .auth(...user)
      .buffer(true)
      .parse(binaryParser);
  const collect = (body: object, user: readonly [string, string] = USERS.bob) =>
    request(t.http)
      .post('/files/collect')
      .auth(...user)
      .send(body)
      .buffer(true)
      .parse(binaryParser);
  const json = (body: unknown) => JSON.parse((body as Buffer).toString()) as Record<string, unknown>;

  describe('GET /files/<ref>?format=zip', () => {
    it('answers every file of the object with a manifest, the entries matching their digests', async () => {
      const res = await zipGet(`/files/${P}-ASM?type=wt.part.WTPart&format=zip`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${P}-ASM.zip"`);
      expect(Number(res.headers['content-length'])).toBe((res.body as Buffer).length);
      const entries = await unzip(res.body as Buffer);
      expect([...entries.keys()]).toEqual(['manifest.json', 'asm.txt', 'notes.txt']);
      expect(entries.get('asm.txt')!.toString()).toBe('assembly\n');
      expect(entries.get('notes.txt')!.toString()).toBe('assembly notes\n');
      const manifest = JSON.parse(entries.get('manifest.json')!.toString());
      expect(manifest).toEqual({
        object: await oidOf(db, 'wt.part.WTPart', `${P}-ASM`),
        class: 'wt.part.WTPart',
        number: `${P}-ASM`,
        version: 'A.1',
        role: 'all',
        files: [
          {
            path: 'asm.txt',
            file: 'asm.txt',
            role: 'PRIMARY',
            mimetype: 'text/plain',
            size: 9,
            sha256: sha('assembly\n'),
          },
          {
            path: 'notes.txt',
            file: 'notes.txt',
            role: 'SECONDARY',
            mimetype: 'text/plain',
            size: 15,
            sha256: sha('assembly notes\n'),
          },
        ],
      });
      for (const f of manifest.files as ManifestFile[]) expect(sha(entries.get(f.path)!)).toBe(f.sha256);
    });

    it('keeps to one role with role=', async () => {
      const res = await zipGet(`/files/${P}-ASM?type=wt.part.WTPart&format=zip&role=SECONDARY`);
      expect(res.status).toBe(200);
      const entries = await unzip(res.body as Buffer);
      expect([...entries.keys()]).toEqual(['manifest.json', 'notes.txt']);
      expect(JSON.parse(entries.get('manifest.json')!.toString())).toMatchObject({ role: 'SECONDARY' });
    });

    it('answers a list without format=zip, and 400 for an unknown format or role', async () => {
      const list = await request(t.http)
        .get(`/files/${P}-ASM?type=wt.part.WTPart&role=all`)
        .auth(...USERS.bob);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ count: 2 });
      const format = await request(t.http)
        .get(`/files/${P}-ASM?type=wt.part.WTPart&format=tar`)
        .auth(...USERS.bob);
      expect(format.status).toBe(400);
      expect(format.body.message).toBe('format must be one of json, zip');
      const role = await zipGet(`/files/${P}-ASM?type=wt.part.WTPart&format=zip&role=NOPE`);
      expect(role.status).toBe(400);
      expect(json(role.body).message).toMatch(/^unknown role "NOPE"/);
    });

    it('makes names unique and safe: duplicates without regard to case, the manifest name, the archive name', async () => {
      const res = await zipGet(`/files/${P}-dup?type=wt.part.WTPart&format=zip`);
      expect(res.status).toBe(200);
      const entries = await unzip(res.body as Buffer);
      expect([...entries.keys()]).toEqual(['manifest.json', 'Same.txt', 'manifest (2).json', 'same (2).txt']);
      expect(entries.get('same (2).txt')!.toString()).toBe('lower\n');
      expect(entries.get('manifest (2).json')!.toString()).toBe('{}\n');
      const up = await zipGet(`/files/${encodeURIComponent(`../../${P}-up`)}?type=wt.part.WTPart&format=zip`);
      expect(up.status).toBe(200);
      expect(up.headers['content-disposition']).toBe(`attachment; filename="__.._${P}-up.zip"`);
      expect([...(await unzip(up.body as Buffer)).keys()]).toEqual(['manifest.json', '_txt']);
    });

    it('is 404 for an object the caller may not read, 401 without credentials', async () => {
      const hidden = await zipGet(`/files/${P}-HID?type=wt.part.WTPart&format=zip`);
      expect(hidden.status).toBe(404);
      expect(json(hidden.body).message).toBe(`no wt.part.WTPart with number ${P}-HID`);
      const anonymous = await request(t.http).get(`/files/${P}-ASM?type=wt.part.WTPart&format=zip`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    });
  });

  describe('POST /files/collect', () => {
    it('collects an assembly: a folder per object, the hidden member absent and listed as restricted', async () => {
      const res = await collect({ root: `${P}-ASM`, type: 'wt.part.WTPart', follow: ['structure'], levels: 2 });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      const entries = await unzip(res.body as Buffer);
      expect([...entries.keys()]).toEqual([
        'manifest.json',
        `${P}-ASM A.1/asm.txt`,
        `${P}-ASM A.1/notes.txt`,
        `${P}-SUB A.1/sub.txt`,
        `${P}-LEAF A.1/leaf.txt`,
      ]);
      const text = entries.get('manifest.json')!.toString();
      expect(text).not.toContain(`${P}-HID`);
      expect(text).not.toContain('secret');
      const manifest = JSON.parse(text);
      const asm = await oidOf(db, 'wt.part.WTPart', `${P}-ASM`);
      const sub = await oidOf(db, 'wt.part.WTPart', `${P}-SUB`);
      expect(manifest).toMatchObject({ root: asm, follow: ['structure'], levels: 2, role: 'all' });
      expect(manifest.objects).toEqual([
        expect.objectContaining({ status: 'included', object: asm, number: `${P}-ASM`, via: null, parent: null }),
        expect.objectContaining({
          status: 'included',
          object: sub,
          folder: `${P}-SUB A.1`,
          via: 'structure',
          parent: asm,
        }),
        { status: 'restricted', via: 'structure', parent: asm },
        expect.objectContaining({ status: 'included', number: `${P}-LEAF`, via: 'structure', parent: sub }),
      ]);
      for (const o of manifest.objects as { files?: ManifestFile[] }[]) {
        for (const f of o.files ?? []) expect(sha(entries.get(f.path)!)).toBe(f.sha256);
      }
    });

    it('follows documents and drawings of a part, with a role', async () => {
      const res = await collect({
        root: `${P}-ASM`,
        type: 'wt.part.WTPart',
        follow: ['documents', 'drawings'],
        role: 'PRIMARY',
      });
      expect(res.status).toBe(200);
      const entries = await unzip(res.body as Buffer);
      expect([...entries.keys()]).toEqual([
        'manifest.json',
        `${P}-ASM A.1/asm.txt`,
        `${P}-DOC A.1/spec.txt`,
        `${P}-DRW A.1/asm.drw`,
      ]);
      expect(entries.get(`${P}-DOC A.1/spec.txt`)!.toString()).toBe('specification\n');
      const manifest = JSON.parse(entries.get('manifest.json')!.toString());
      expect(manifest.objects.map((o: { via: string | null }) => o.via)).toEqual([null, 'documents', 'drawings']);
    });

    it("collects a change order's affected objects and their structure", async () => {
      const res = await collect({ root: `${P}-CN`, follow: ['affected', 'structure'] });
      expect(res.status).toBe(200);
      const entries = await unzip(res.body as Buffer);
      expect([...entries.keys()]).toEqual(['manifest.json', `${P}-SUB A.1/sub.txt`, `${P}-LEAF A.1/leaf.txt`]);
      const manifest = JSON.parse(entries.get('manifest.json')!.toString());
      expect(manifest.objects).toEqual([
        expect.objectContaining({ class: 'wt.change2.WTChangeOrder2', number: `${P}-CN`, files: [] }),
        expect.objectContaining({ number: `${P}-SUB`, via: 'affected' }),
        expect.objectContaining({ number: `${P}-LEAF`, via: 'structure' }),
      ]);
    });

    it('names folders safely: no escaping numbers, no absolute paths, no duplicates', async () => {
      const res = await collect({ root: `${P}-NAMES`, type: 'wt.part.WTPart' });
      expect(res.status).toBe(200);
      const entries = await unzip(res.body as Buffer);
      const names = [...entries.keys()];
      expect(names).toEqual([
        'manifest.json',
        `__.._${P}-up A.1/_txt`,
        `_${P}-abs A.1/abs.txt`,
        `${P}-dup A.1/Same.txt`,
        `${P}-dup A.1/manifest.json`,
        `${P}-dup A.1/same (2).txt`,
      ]);
      for (const name of names) {
        expect(name.split('/').every((s) => s !== '..' && s !== '.' && s !== '')).toBe(true);
        expect(name).not.toMatch(/^[/\\]|[\\\u0000-\u001f]/);
      }
      const manifest = JSON.parse(entries.get('manifest.json')!.toString());
      expect(manifest.objects[1]).toMatchObject({ number: `../../${P}-up`, folder: `__.._${P}-up A.1` });
    });

    it('answers 400 for a bad body, 404 for a root the caller may not read, 401 without credentials', async () => {
      const bad = await collect({ root: `${P}-ASM`, follow: ['everything'], levels: 0 });
      expect(bad.status).toBe(400);
      expect(json(bad.body).message).toBe(
        'follow: each must be one of structure, members, documents, drawings, affected; levels must not be less than 1',
      );
      const hidden = await collect({ root: `${P}-HID`, type: 'wt.part.WTPart' });
      expect(hidden.status).toBe(404);
      expect(json(hidden.body).message).toBe(`no object "${P}-HID"`);
      const anonymous = await request(t.http)
        .post('/files/collect')
        .send({ root: `${P}-ASM` });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    });

    it('stops reading when the client goes away, without logging an error', async () => {
      const big = Array.from({ length: 6 }, () => randomBytes(4 * 1024 * 1024 + 1));
      for (const [i, bytes] of big.entries()) await uploadRaw(t.http, `${P}-BIG`, `big-${i}.bin`, bytes);
      const logs = jest.spyOn(Logger.prototype, 'log');
      const errors = jest.spyOn(Logger.prototype, 'error');
      const port = await listeningPort(t);
      const auth = Buffer.from(USERS.bob.join(':')).toString('base64');
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpGet(
          { port, host: '127.0.0.1', path: `/files/${P}-BIG?format=zip`, headers: { Authorization: `Basic ${auth}` } },
          (res) => {
            res.once('data', () => {
              resolve(res.statusCode!);
              req.destroy();
            });
          },
        );
        req.on('error', () => undefined);
        setTimeout(() => reject(new Error('no answer')), 10_000).unref();
      });
      expect(status).toBe(200);
      const stopped = () =>
        logs.mock.calls.map((c) => String(c[0])).find((m) => m.startsWith('a ZIP archive stopped after'));
      await pollUntil(async () => stopped() !== undefined, 'the archive stopped');
      const [, opened, total] = /stopped after (\d+) of (\d+) files/.exec(stopped()!)!.map(Number);
      expect(total).toBe(6);
      expect(opened).toBeLessThan(total);
      expect(errors).not.toHaveBeenCalled();
      // The service still answers (nothing is left holding a connection).
      const after = await request(t.http)
        .get(`/files/${P}-BIG?role=all`)
        .auth(...USERS.bob);
      expect(after.status).toBe(200);
      expect(after.body.count).toBe(6);
    });
  });
});

describe('files: ZIP limits', () => {
  const L = 'FZIPL';
  let db: pg.Pool;
  const t = useTestApp({ FILES_ZIP_MAX_OBJECTS: '2', FILES_ZIP_MAX_BYTES: '20' });
  beforeAll(async () => {
    db = testPool();
    await removeZipFixture(db, L);
    await importZipFixture(L);
  });
  afterAll(async () => {
    await removeZipFixture(db, L);
    await db.end();
  });

  it('answers 400 before the first byte when a collection holds too many objects, saying what to narrow', async () => {
    const res = await request(t.http)
      .post('/files/collect')
      .auth(...USERS.bob)
      .send({ root: `${L}-ASM`, type: 'wt.part.WTPart', levels: 2 });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'the collection holds more than 2 objects (FILES_ZIP_MAX_OBJECTS); narrow it: fewer levels (levels=1), ' +
        'fewer relations to follow, or a root lower in the structure',
      requestId: expect.any(String),
    });
  });

  it('answers 400 when the files come to too many bytes, suggesting a role', async () => {
    const res = await request(t.http)
      .post('/files/collect')
      .auth(...USERS.bob)
      .send({ root: `${L}-SUB`, type: 'wt.part.WTPart' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'the files come to 23 bytes, more than 20 (FILES_ZIP_MAX_BYTES); narrow it: a role (role=PRIMARY), fewer relations to follow',
    );
    const one = await request(t.http)
      .get(`/files/${L}-ASM?type=wt.part.WTPart&format=zip`)
      .auth(...USERS.bob);
    expect(one.status).toBe(400);
    expect(one.body.message).toBe(
      'the files come to 24 bytes, more than 20 (FILES_ZIP_MAX_BYTES); narrow it: choose a role (role=PRIMARY)',
    );
    const narrowed = await request(t.http)
      .get(`/files/${L}-ASM?type=wt.part.WTPart&format=zip&role=PRIMARY`)
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);
    expect(narrowed.status).toBe(200);
    expect([...(await unzip(narrowed.body as Buffer)).keys()]).toEqual(['manifest.json', 'asm.txt']);
  });
});
