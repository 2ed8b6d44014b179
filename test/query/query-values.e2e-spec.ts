import request from 'supertest';
import { createSessionsContext, numbers, type SessionsContext } from './sessions-context.js';

/**
 * Values that pass JSON and the q grammar but that PostgreSQL would refuse (22008, 22021,
 * 22P05, 22003): each is the caller's error, answered 400 naming it, or a page that is empty.
 */
describe('q values and page positions PostgreSQL cannot take', () => {
  let c: SessionsContext;
  let oldest: string;
  let newest: string;
  beforeAll(async () => {
    c = await createSessionsContext();
    oldest = `${c.fx.tag}-X0001`;
    newest = `${c.fx.tag}-X9999`;
    await c.fx.addObjects('Side', [
      { number: oldest, created: '0001-01-01T00:00:00Z' },
      { number: newest, created: '9999-12-31T23:59:59.999Z' },
    ]);
  });
  afterAll(() => c.close());

  const refused = async (res: request.Response, message: string) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message, requestId: expect.any(String) });
  };

  it.each<[string, Record<string, unknown>, string]>([
    ['year 0000', { created: { gte: '0000-01-01' } }, 'q[0].created.gte: "0000-01-01"'],
    ['year 0000 as an exact value', { modified: '0000-12-31T23:59:59Z' }, 'q[0].modified: "0000-12-31T23:59:59Z"'],
    ['year 0000 in an array', { created: ['2026-01-01', '0000-06-01'] }, 'q[0].created[1]: "0000-06-01"'],
    ['year 0000 in in', { created: { in: ['0000-01-01'] } }, 'q[0].created.in[0]: "0000-01-01"'],
    [
      'year 0000 by an offset',
      { created: { between: ['0001-01-01T00:30+01:00', '2026-01-01'] } },
      'q[0].created.between[0]: "0001-01-01T00:30+01:00"',
    ],
    [
      'year 10000 by an offset',
      { created: { lt: '9999-12-31T23:00-05:00' } },
      'q[0].created.lt: "9999-12-31T23:00-05:00"',
    ],
  ])('refuses a timestamp outside the years 0001 to 9999: %s', async (_, q, named) => {
    const res = await c.open({ q: JSON.stringify(q) });
    await refused(res, `${named} is outside the years 0001 to 9999 (UTC)`);
  });

  it('refuses year 0000 in a JSON body the same way', async () => {
    const res = await request(c.t.http)
      .post('/query/1.0/query')
      .auth(...c.ann)
      .send({ q: { created: { gte: '0000-01-01' } } });
    await refused(res, 'q[0].created.gte: "0000-01-01" is outside the years 0001 to 9999 (UTC)');
  });

  it.each([
    ['a month 13', '2026-13-01'],
    ['30 February', '2026-02-30'],
    ['a five-digit year', '10000-01-01'],
    ['an offset of 24 hours', '2026-01-01T10:00+24:00'],
    ['an offset of three digits', '2026-01-01T10:00+100:00'],
  ])('refuses %s as no timestamp', async (_, value) => {
    const res = await c.open({ q: JSON.stringify({ created: { gte: value } }) });
    await refused(res, `q[0].created.gte: ${JSON.stringify(value)} is not an ISO-8601 timestamp`);
  });

  it('finds objects at the first and the last instant it accepts', async () => {
    const first = await c.open({ q: JSON.stringify({ created: { lte: '0001-01-01T01:00+01:00' } }) });
    expect(first.status).toBe(200);
    expect(first.body.query).toEqual([{ created: { lte: '0001-01-01T00:00:00.000Z' }, latest: true }]);
    expect(numbers(first.body)).toEqual([oldest]);
    const last = await c.open({ q: JSON.stringify({ created: { gte: '9999-12-31T23:59:59.999Z' } }) });
    expect(last.status).toBe(200);
    expect(numbers(last.body)).toEqual([newest]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a value', { name: 'a\u0000b' }, 'q[0].name: "a\\u0000b" holds a NUL character, which text cannot'],
    ['a pattern', { name: { like: 'a\u0000*' } }, 'q[0].name.like: "a\\u0000*" holds a NUL character'],
    ['an array element', { state: ['INWORK', '\u0000'] }, 'q[0].state[1]: "\\u0000" holds a NUL character'],
    ['a container name', { container: 'x\u0000' }, 'q[0].container: "x\\u0000" holds a NUL character'],
    ['an attribute value', { 'attributes.x': { in: [1, 'y\u0000'] } }, 'q[0].attributes.x.in[1]: "y\\u0000" holds'],
    ['an attribute name', { 'attributes.x\u0000': 'y' }, 'q[0]: the key "attributes.x\\u0000" holds a NUL character'],
  ])('refuses a NUL character in %s, naming it', async (_, q, message) => {
    const res = await c.open({ q: JSON.stringify(q) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.message).toContain(message);
  });

  it('answers a page reaching past the last possible position empty, on open and on fetch', async () => {
    const open = await c.open({ q: c.qMain, start: 2_147_483_000, limit: 1000 });
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ total: 30, start: 2_147_483_000, limit: 1000, count: 0, items: [] });
    const id = open.body.session_id as number;
    expect(id).toBeGreaterThan(0);
    const fetched = await c.fetch(id, { page: 2_147_483, limit: 1000 });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({ session_id: id, total: 30, page: 2_147_483, count: 0, items: [] });
    expect((await c.del(id)).status).toBe(200);
  });
});
