import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { basicAuth, listeningPort, RawConnection, type RawResponse } from '../helpers/raw-http.js';
import { checksum } from '../../src/auth/tokens/token-format.js';

const CHALLENGE = 'Basic realm="pdm", charset="UTF-8", Bearer realm="pdm"';
const TOKEN_REFUSED = 'the personal access token is not valid (unknown or revoked, or its user is disabled)';
const OTHER_BEARER =
  'a Bearer credential must be a personal access token (pdm_pat_…) or a JWT of a configured identity provider';

/**
 * Request bodies are read only after authentication: a caller without valid credentials is
 * answered before the server reads (or buffers) a byte of its body, and the connection is closed
 * so that Node does not read the rest either. Each request here sends its head and a first
 * piece of a huge body, then waits.
 */
describe('request bodies are read only after authentication', () => {
  let port: number;

  const t = useTestApp({ AUTH_FAILURE_LIMIT: '1000000' });
  beforeAll(async () => {
    port = await listeningPort(t);
  });
  afterEach(() => RawConnection.destroyAll());

  const HUGE = String(150 * 1024 * 1024);

  it.each<[string, string, string, Record<string, string>, string]>([
    ['a JSON query', '/query/1.0/query', 'application/json', { 'Content-Length': HUGE }, '{"q":{"name":"'],
    ['a JSON upload', '/files/0000000001/x.txt', 'application/json', { 'Content-Length': HUGE }, '{"data":"AAAA'],
    ['a raw upload', '/files/0000000001/x.bin', 'application/octet-stream', { 'Content-Length': HUGE }, 'bytes'],
    [
      'a form',
      '/reports/Documents%20by%20number',
      'application/x-www-form-urlencoded',
      { 'Content-Length': HUGE },
      'number=',
    ],
    ['a QML report', '/reports', 'application/xml', { 'Content-Length': HUGE }, '<qml>'],
    [
      'a chunked JSON body',
      '/query/1.0/query',
      'application/json',
      { 'Transfer-Encoding': 'chunked' },
      '5\r\n{"q":\r\n',
    ],
  ])(
    'answers %s without credentials 401 at once and closes the connection',
    async (_name, path, type, framing, first) => {
      const basicRefused = 'valid credentials are required (HTTP Basic, or a Bearer token)';
      const guess = 'pdm_pat_' + 'x'.repeat(43);
      for (const [authorization, message] of [
        [undefined, basicRefused],
        [basicAuth(['alice', 'wrong-password']), basicRefused],
        // A well-formed personal access token that was never issued (its checksum is right).
        [`Bearer ${guess}${checksum(guess)}`, TOKEN_REFUSED],
        ['Bearer not-a-personal-access-token', OTHER_BEARER],
      ]) {
        const c = await RawConnection.connect(port);
        await c.head('POST', path, {
          'Content-Type': type,
          ...framing,
          ...(authorization && { Authorization: authorization }),
        });
        await c.write(first);
        const res = await c.response();
        expect(res).toMatchObject({
          status: 401,
          headers: { 'www-authenticate': CHALLENGE, connection: 'close' },
        });
        expect(JSON.parse(res!.body)).toEqual({
          statusCode: 401,
          error: 'Unauthorized',
          message,
          requestId: expect.any(String),
        });
        await c.closed;
      }
    },
  );

  it('answers a read-only token on a write 403 at once, without reading the body', async () => {
    const created = await request(t.http)
      .post('/me/tokens')
      .auth(...USERS.alice)
      .send({ name: `request bodies ${process.pid}`, scopes: ['read'], expiresInDays: 1 });
    expect(created.status).toBe(201);
    const c = await RawConnection.connect(port);
    await c.head('POST', '/files/0000000001/x.bin', {
      Authorization: `Bearer ${created.body.token}`,
      'Content-Type': 'application/octet-stream',
      'Content-Length': HUGE,
    });
    await c.write('bytes');
    const res = await c.response();
    expect(res).toMatchObject({ status: 403, headers: { connection: 'close' } });
    expect(JSON.parse(res!.body)).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'this personal access token has the read scope only: this operation writes',
      requestId: expect.any(String),
    });
    await c.closed;
    await request(t.http)
      .delete(`/me/tokens/${created.body.id}`)
      .auth(...USERS.alice)
      .expect(204);
  });

  it('reads the body of a request with a valid token, and keeps its connection', async () => {
    const created = await request(t.http)
      .post('/me/tokens')
      .auth(...USERS.alice)
      .send({ name: `request bodies read ${process.pid}`, scopes: ['read'], expiresInDays: 1 });
    const c = await RawConnection.connect(port);
    const body = '{"q":{"number":"0000000001"}}';
    await c.head('POST', '/query/1.0/query', {
      Authorization: `Bearer ${created.body.token}`,
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
    });
    await c.write(body);
    const res = await c.response();
    expect(res?.status).toBe(200);
    expect(res?.headers.connection).toBe('keep-alive');
    expect(JSON.parse(res!.body)).toMatchObject({ session_id: 0, total: 1, items: [{ number: '0000000001' }] });
    c.destroy();
    await request(t.http)
      .delete(`/me/tokens/${created.body.id}`)
      .auth(...USERS.alice)
      .expect(204);
  });

  it('still reads the body of an authenticated request, and keeps its connection', async () => {
    const c = await RawConnection.connect(port);
    const body = '{"q":{"number":"0000000001"}}';
    await c.head('POST', '/query/1.0/query', {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
    });
    await c.write(body);
    const res = await c.response();
    expect(res?.status).toBe(200);
    expect(res?.headers.connection).toBe('keep-alive');
    expect(JSON.parse(res!.body)).toMatchObject({ session_id: 0, total: 1, items: [{ number: '0000000001' }] });
    c.destroy();
  });
});

/**
 * BODY_MEMORY_BUDGET: the bytes of bodies held at once. Each test holds part of the budget with a
 * request that has sent its head and part of its body, then sends others.
 */
describe('request bodies share one memory budget', () => {
  let port: number;
  const BUDGET = 64 * 1024;
  const LIMIT = 48 * 1024;
  /** A valid query body of exactly `size` bytes (JSON allows trailing white space). */
  const queryBody = (size: number) => {
    const json = '{"q":{"number":"0000000001"}}';
    return json + ' '.repeat(size - json.length);
  };

  const t = useTestApp({ BODY_MEMORY_BUDGET: String(BUDGET), JSON_BODY_LIMIT: String(LIMIT) });
  beforeAll(async () => {
    port = await listeningPort(t);
    // Alice's credentials verified once, so every request below is authenticated at once.
    await sendQuery(100);
  });
  afterEach(() => RawConnection.destroyAll());

  /** A whole query request of `size` bytes on its own connection. */
  async function sendQuery(size: number) {
    const c = await RawConnection.connect(port);
    const body = queryBody(size);
    await c.head('POST', '/query/1.0/query', {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
    });
    await c.write(body);
    const res = await c.response();
    c.destroy();
    return res!;
  }

  /** A request that has sent its head and the first bytes of its body, and waits. */
  async function startQuery(framing: 'length' | 'chunked', size = 40_000) {
    const c = await RawConnection.connect(port);
    const body = queryBody(size);
    await c.head('POST', '/query/1.0/query', {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': 'application/json',
      ...(framing === 'length' ? { 'Content-Length': String(body.length) } : { 'Transfer-Encoding': 'chunked' }),
    });
    const first = body.slice(0, 10);
    await c.write(framing === 'length' ? first : `${first.length.toString(16)}\r\n${first}\r\n`);
    const rest = body.slice(10);
    const finish = () => c.write(framing === 'length' ? rest : `${rest.length.toString(16)}\r\n${rest}\r\n0\r\n\r\n`);
    return { c, finish };
  }

  /**
   * Sends `size`-byte queries until one is refused: the held request takes its share of the
   * budget only once the server has its head, which the client cannot see. Bounded.
   */
  async function refusedWhileHeld(size: number) {
    // Up to ~10 s: on a busy machine the server may take a while to read the held request's head.
    for (let attempt = 0; attempt < 1000; attempt++) {
      const res = await sendQuery(size);
      if (res.status === 503) return res;
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('never refused');
  }

  const expectBusy = (res: RawResponse) => {
    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(res.body)).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'too many request bodies are being received at once; retry shortly',
      requestId: expect.any(String),
    });
  };

  /** After a held request ends, a body needing most of the budget is accepted again (bounded wait). */
  async function acceptedAgain() {
    for (let attempt = 0; attempt < 200; attempt++) {
      const res = await sendQuery(LIMIT);
      if (res.status !== 503) return res;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the budget was never given back');
  }

  it('refuses a second body that does not fit beside the first, which then succeeds', async () => {
    const held = await startQuery('length');
    expectBusy(await refusedWhileHeld(40_000));
    // A small body still fits beside it.
    expect((await sendQuery(1000)).status).toBe(200);
    await held.finish();
    const res = await held.c.response();
    expect(res?.status).toBe(200);
    expect(JSON.parse(res!.body)).toMatchObject({ total: 1, items: [{ number: '0000000001' }] });
    const again = await sendQuery(LIMIT);
    expect(again.status).toBe(200);
  });

  it('counts a chunked body as its whole limit', async () => {
    const held = await startQuery('chunked');
    expectBusy(await refusedWhileHeld(20_000));
    await held.finish();
    expect((await held.c.response())?.status).toBe(200);
    expect((await sendQuery(LIMIT)).status).toBe(200);
  });

  it('gives the bytes back when the client goes away mid-body', async () => {
    const held = await startQuery('length');
    expectBusy(await refusedWhileHeld(40_000));
    held.c.destroy();
    expect((await acceptedAgain()).status).toBe(200);
  });

  it('gives the bytes back when the body is not valid JSON', async () => {
    const c = await RawConnection.connect(port);
    const body = `{"q":${' '.repeat(40_000)}`;
    await c.head('POST', '/query/1.0/query', {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
    });
    await c.write(body);
    const res = await c.response();
    expect(res?.status).toBe(400);
    expect(JSON.parse(res!.body)).toMatchObject({ message: 'request body is not valid JSON' });
    expect((await acceptedAgain()).status).toBe(200);
  });

  it('refuses a declared length past the limit with 413 without reading it', async () => {
    const c = await RawConnection.connect(port);
    await c.head('POST', '/query/1.0/query', {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': 'application/json',
      'Content-Length': String(10 * 1024 * 1024),
    });
    await c.write('{"q":');
    const res = await c.response();
    expect(res).toMatchObject({ status: 413, headers: { connection: 'close' } });
    expect(JSON.parse(res!.body)).toMatchObject({ message: `request body larger than the limit of ${LIMIT} bytes` });
    await c.closed;
  });
});
