import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { b64, importFilesFixture, removeFilesFixture } from '../files/files-fixtures.js';
import { expectError, fingerprint } from './security-helpers.js';

const PREFIX = 'SECL';
const FILES_MAX = 4096;
const JSON_LIMIT = 16 * 1024;

/** Numbers that are not small non-negative integers, or overflow 32, 53 or 64 bits. */
const BAD_INTEGERS = ['-1', '1.5', 'abc', '', '1e3', '0x10', '+1', '9223372036854775808', '1'.repeat(400)];
const HUGE = ['2147483648', '9007199254740993', '9223372036854775807', '9223372036854775808', '18446744073709551616'];

describe('limits on sizes, counts and numbers', () => {
  let db: pg.Pool;
  let before: Record<string, string>;

  const t = useTestApp({
    AUTH_FAILURE_LIMIT: '1000000',
    FILES_MAX_SIZE: String(FILES_MAX),
    JSON_BODY_LIMIT: String(JSON_LIMIT),
    NUMBERS_MAX_COUNT: '50',
  });
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
    before = await fingerprint(db);
  });
  afterAll(async () => {
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });
  afterEach(async () => {
    // Opening a query session is not a change of data; the sessions are checked where they matter.
    const { query_sessions: _s, query_session_chunks: _i, ...now } = await fingerprint(db);
    const { query_sessions: _bs, query_session_chunks: _bi, ...then } = before;
    expect(now).toEqual(then);
  });
  const openSessions = async () =>
    Number(
      (await db.query<{ n: string }>('SELECT count(*) AS n FROM query_sessions WHERE closed_at IS NULL')).rows[0].n,
    );

  const open = (query: Record<string, string>) =>
    request(t.http)
      .get('/query/1.0/query')
      .query({ q: '{"type":"wt.enterprise.RevisionControlled"}', ...query })
      .auth(...USERS.alice);

  it.each(['limit', 'page', 'start'])('refuses a bad %s when opening a query, opening no session', async (name) => {
    const sessions = await openSessions();
    for (const value of [...BAD_INTEGERS, ...(name === 'limit' ? ['0', '1001', ...HUGE] : [])]) {
      const res = await open({ [name]: value });
      expect({ value, status: res.status }).toEqual({ value, status: 400 });
      expectError(res, 400, expect.stringContaining(name) as unknown as RegExp, [value]);
    }
    expect(await openSessions()).toBe(sessions);
  });

  it.each(HUGE)('answers page and start %s with an empty page or a 400, never a 5xx', async (value) => {
    for (const name of ['page', 'start']) {
      const res = await open({ [name]: value, limit: '1000' });
      if (res.status === 200) {
        // A page past the end is an empty page of a kept session (only page 0 holding all needs none).
        expect(res.body).toMatchObject({ count: 0, items: [], total: expect.any(Number) });
        await request(t.http)
          .delete(`/query/1.0/query/${res.body.session_id}`)
          .auth(...USERS.alice);
      } else expectError(res, 400, expect.stringContaining(name) as unknown as RegExp, [value]);
    }
  });

  it('refuses a bad session id, and answers a huge unknown one 404', async () => {
    for (const id of ['0', '-1', '1.5', 'abc', '1e3', '0x1', '+1', ' 1', '%00', '1%0D%0AX-Injected:%201']) {
      const res = await request(t.http)
        .get(`/query/1.0/query/${id}`)
        .auth(...USERS.alice);
      expect({ id, status: res.status }).toEqual({ id, status: 400 });
      expectError(res, 400);
      expect(res.headers['x-injected']).toBeUndefined();
    }
    const api = request(t.http);
    for (const id of HUGE) {
      for (const method of ['get', 'delete'] as const) {
        const res = await api[method](`/query/1.0/query/${id}`).auth(...USERS.alice);
        expect({ id, status: res.status }).toEqual({ id, status: expect.any(Number) });
        expect([400, 404]).toContain(res.status);
        expectError(res, res.status, undefined, [id]);
      }
    }
  });

  it('refuses a bad page, limit or close when fetching', async () => {
    const res = await open({ limit: '1' });
    const id = res.body.session_id as number;
    expect(id).toBeGreaterThan(0);
    try {
      for (const [name, value] of [
        ...BAD_INTEGERS.map((v) => ['page', v]),
        ...['0', '1001', ...HUGE].map((v) => ['limit', v]),
        ...['2', '-1', 'true', 'yes'].map((v) => ['close', v]),
      ]) {
        const page = await request(t.http)
          .get(`/query/1.0/query/${id}`)
          .query({ [name]: value })
          .auth(...USERS.alice);
        expect({ name, value, status: page.status }).toEqual({ name, value, status: 400 });
        expectError(page, 400);
      }
      const still = await request(t.http)
        .get(`/query/1.0/query/${id}?limit=1`)
        .auth(...USERS.alice);
      expect(still.status).toBe(200);
    } finally {
      await request(t.http)
        .delete(`/query/1.0/query/${id}`)
        .auth(...USERS.alice);
    }
  });

  it('refuses deep nesting, too many q and too long arrays in q', async () => {
    // Deep enough to overflow a naive recursive walk, short enough for the URL and body limits.
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const deepObject = (n: number) => `${'{"eq":'.repeat(n)}1${'}'.repeat(n)}`;
    const cases: [string, Record<string, string | string[]>][] = [
      ['a deep array', { q: deep(2000) }],
      ['a deep operator object', { q: `{"number":${deepObject(500)}}` }],
      ['21 q', { q: Array.from({ length: 21 }, () => '{"number":"1"}') }],
      ['an array of 1001 values', { q: JSON.stringify({ number: Array.from({ length: 1001 }, (_, i) => String(i)) }) }],
      [
        '21 criteria',
        { q: JSON.stringify(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`attributes.a${i}`, 'x']))) },
      ],
    ];
    for (const [name, query] of cases) {
      const res = await request(t.http)
        .get('/query/1.0/query')
        .query(query)
        .auth(...USERS.alice);
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expectError(res, 400);
    }
    for (const body of [`{"q":${deep(7000)}}`, `{"q":{"number":${deepObject(2000)}}}`, `{"q":[${deep(7000)}]}`]) {
      const res = await request(t.http)
        .post('/query/1.0/query')
        .auth(...USERS.alice)
        .set('Content-Type', 'application/json')
        .send(body);
      expectError(res, 400, 'request body is nested deeper than 64 levels');
    }
    const upload = await request(t.http)
      .post(`/files/${PREFIX}-3/deep.txt`)
      .auth(...USERS.alice)
      .set('Content-Type', 'application/json')
      .send(`{"data":${deep(7000)}}`);
    expectError(upload, 400, 'request body is nested deeper than 64 levels');
    // A q sent as text (form field) is parsed by the query service itself.
    const form = await request(t.http)
      .post('/query/1.0/query')
      .auth(...USERS.alice)
      .type('form')
      .send({ q: `{"number":${deep(2500)}}` });
    expectError(
      form,
      400,
      expect.stringMatching(/^q\[0\]\.number\[0\]: \[+\.\.\. is not a plain value$/) as unknown as RegExp,
    );
  });

  it('refuses a JSON body past JSON_BODY_LIMIT on the query and file services', async () => {
    const big = { q: { name: 'x'.repeat(JSON_LIMIT) } };
    expectError(
      await request(t.http)
        .post('/query/1.0/query')
        .auth(...USERS.alice)
        .send(big),
      413,
    );
    expectError(
      await request(t.http)
        .post(`/files/${PREFIX}-3/big.txt`)
        .auth(...USERS.alice)
        .send({ data: b64(Buffer.alloc(JSON_LIMIT)) }),
      413,
    );
  });

  it('refuses a file past FILES_MAX_SIZE, raw or as JSON, and stores nothing', async () => {
    const raw = await request(t.http)
      .post(`/files/${PREFIX}-3/big.bin`)
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(FILES_MAX + 1, 7));
    expectError(raw, 413);
    const stream = await request(t.http)
      .post(`/files/${PREFIX}-3/big.bin`)
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(FILES_MAX * 200, 7));
    expectError(stream, 413);
    const json = await request(t.http)
      .post(`/files/${PREFIX}-3/big.bin`)
      .auth(...USERS.alice)
      .send({ data: b64(Buffer.alloc(FILES_MAX + 1, 7)) });
    expectError(json, 413);
    const list = await request(t.http)
      .get(`/files/${PREFIX}-3?role=all`)
      .auth(...USERS.alice);
    expect(list.body).toMatchObject({ count: 0, items: [] });
  });

  it('answers ranges with huge or negative bounds without a 5xx', async () => {
    const path = `/files/${PREFIX}-1/main.txt`;
    for (const [range, status] of [
      ['bytes=0-99999999999999999999', 200],
      ['bytes=9223372036854775808-', 416],
      ['bytes=99999999999999999999-', 416],
      ['bytes=--1', 200],
      ['bytes=-99999999999999999999', 200],
      ['bytes=1-0', 200],
    ] as const) {
      const res = await request(t.http)
        .get(path)
        .set('Range', range)
        .auth(...USERS.alice);
      expect({ range, status: res.status === 206 ? 200 : res.status }).toEqual({ range, status });
      if (status === 416) expect(res.headers['content-range']).toBe('bytes */13');
    }
  });

  it.each([...BAD_INTEGERS, '0', '51', ...HUGE])(
    'refuses count=%j for numbers without moving a counter',
    async (count) => {
      const res = await request(t.http)
        .post('/numbers/generate/wt.doc.WTDocument')
        .query({ 'container-name': 'Drive Unit', count })
        .auth(...USERS.alice);
      expectError(res, 400, expect.stringContaining('count must be a whole number from 1 to 50') as unknown as RegExp, [
        count,
      ]);
    },
  );

  it.each(['-1', '0', '1.5', 'abc', ...HUGE])('refuses or caps the report list limit %j', async (limit) => {
    const res = await request(t.http)
      .get('/reports')
      .query({ limit })
      .auth(...USERS.alice);
    if (res.status === 200) expect(res.body.count).toBe(res.body.items.length);
    else expectError(res, 400, expect.stringContaining('limit') as unknown as RegExp, [limit]);
  });
});
