import type pg from 'pg';
import request from 'supertest';
import type { AssociationLoader } from '../../src/query/associations/query-associations.port.js';
import { ASSOCIATION_LOADER } from '../../src/query/associations/query-associations.port.js';
import { binaryParser } from '../files/files-fixtures.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createQueryFixture, type QueryFixture } from './query-fixture.js';

const BASE = 'http://query.test';
const DOC = 'wt.doc.WTDocument';
/** The first bytes of a PNG image: enough for a client that checks what it got. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe('query associations in the application: representation URLs download the image with Basic auth', () => {
  const t = useTestApp({ PUBLIC_URL: BASE });
  let db: pg.Pool;
  let fx: QueryFixture;
  let doc: { id: number; cls: string };
  let loader: AssociationLoader;

  beforeAll(async () => {
    db = testPool();
    fx = await createQueryFixture(db, ['ann', 'ben'], { Main: { ann: 'author' }, Other: { ben: 'reader' } });
    const [id] = await fx.addObjects('Main', [{ number: `${fx.tag}-1` }]);
    doc = { id, cls: DOC };
    loader = t.app.get<AssociationLoader>(ASSOCIATION_LOADER);
    const up = await request(t.http)
      .post(`/files/OR:${DOC}:${id}/thumbnail.png`)
      .auth(...fx.user('ann'))
      .send({ data: PNG.toString('base64'), role: 'THUMBNAIL', mimetype: 'image/png' });
    expect(up.status).toBe(201);
  });
  afterAll(async () => {
    await fx.cleanup();
    await db.end();
  });

  it('gives items[].representations[] with role THUMBNAIL and a url whose bytes are the image', async () => {
    const got = await loader.load(['representations', 'files'], [doc], [fx.containerId('Main')], BASE);
    const url = `${BASE}/files/OR:${DOC}:${doc.id}/thumbnail.png`;
    expect(got.get(doc.id)).toEqual({
      representations: [{ role: 'THUMBNAIL', name: 'thumbnail.png', url, mimeType: 'image/png' }],
      files: [expect.objectContaining({ role: 'THUMBNAIL', filename: 'thumbnail.png', url, size: PNG.length })],
    });
    const image = await request(t.http)
      .get(new URL(url).pathname)
      .auth(...fx.user('ann'))
      .set('accept', 'image/jpeg')
      .buffer(true)
      .parse(binaryParser);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.body).toEqual(PNG);
  });

  it('gives a caller who may not read the item nothing, and the URL answers them 404', async () => {
    const got = await loader.load(['representations'], [doc], [fx.containerId('Other')], BASE);
    expect(got.get(doc.id)).toEqual({ representations: [] });
    const image = await request(t.http)
      .get(`/files/OR:${DOC}:${doc.id}/thumbnail.png`)
      .auth(...fx.user('ben'));
    expect(image.status).toBe(404);
    expect(image.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
