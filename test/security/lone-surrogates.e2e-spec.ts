import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { importFilesFixture, removeFilesFixture } from '../files/files-fixtures.js';
import { expectError, fingerprint } from './security-helpers.js';

const PREFIX = 'SURR';

/**
 * A UTF-16 surrogate without its partner ("\ud800" in JSON) is not text PostgreSQL can store or
 * compare: each of these reached SQL and was answered 500 (22P02, 22021).
 */
describe('lone surrogates in JSON are refused with 400', () => {
  let db: pg.Pool;
  let before: Record<string, string>;

  const t = useTestApp({ AUTH_FAILURE_LIMIT: '1000000' });
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
    before = await fingerprint(db);
  });
  afterAll(async () => {
    expect(await fingerprint(db)).toEqual(before);
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });

  const json = (path: string, text: string) =>
    request(t.http)
      .post(path)
      .auth(...USERS.alice)
      .set('Content-Type', 'application/json')
      .send(text);

  it.each([
    ['a value', '{"name":"\\ud800"}', 'q contains a lone surrogate (U+D800) at q[0].name'],
    [
      'a low surrogate in a list',
      '{"number":["0000000001","x\\udc00"]}',
      'q contains a lone surrogate (U+DC00) at q[0].number[1]',
    ],
    [
      'an attribute name',
      '{"attributes.a\\udbff":"x"}',
      'q contains a lone surrogate (U+DBFF) at q[0].attributes.a\\udbff (in the name)',
    ],
  ])('in q in the URL: %s', async (_name, q, message) => {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q })
      .auth(...USERS.alice);
    expectError(res, 400, message);
  });

  it('in the second q in the URL', async () => {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: ['{"number":"0000000001"}', '{"name":{"like":"\\ud800*"}}'] })
      .auth(...USERS.alice);
    expectError(res, 400, 'q contains a lone surrogate (U+D800) at q[1].name.like');
  });

  it('in a JSON query body', async () => {
    const res = await json('/query/1.0/query', '{"q":{"name":"\\ud800"}}');
    expectError(res, 400, 'request body contains a lone surrogate (U+D800) at q.name');
  });

  it("in a file upload's message, writing nothing", async () => {
    const res = await json(`/files/${PREFIX}-1/lone.txt`, '{"data":"aGk=","message":"\\ud800"}');
    expectError(res, 400, 'request body contains a lone surrogate (U+D800) at message');
  });

  it('in the parameter of a named report sent as JSON', async () => {
    const res = await json(`/reports/${encodeURIComponent('Documents by number')}`, '{"number":"\\udfff"}');
    expectError(res, 400, 'request body contains a lone surrogate (U+DFFF) at number');
  });

  it('still accepts characters written as surrogate pairs', async () => {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: '{"name":"\\ud83d\\ude42"}' })
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 0, items: [] });
  });
});
