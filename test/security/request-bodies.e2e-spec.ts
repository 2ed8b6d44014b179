import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { basicAuth, listeningPort, RawConnection } from '../helpers/raw-http.js';

const CHALLENGE = 'Basic realm="pdm", charset="UTF-8"';

/**
 * Request bodies are read only after authentication: a caller without valid credentials is
 * answered before the server reads (or buffers) a byte of its body, and the connection is closed
 * so that Node does not read the rest either. Each request here sends its head and a first
 * piece of a huge body, then waits.
 */
describe('request bodies are read only after authentication', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_FAILURE_LIMIT: '1000000' });
    port = await listeningPort(t);
  });
  afterEach(() => RawConnection.destroyAll());
  afterAll(() => t.close());

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
      for (const authorization of [undefined, basicAuth(['alice', 'wrong-password'])]) {
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
          message: 'valid credentials are required (HTTP Basic)',
          requestId: expect.any(String),
        });
        await c.closed;
      }
    },
  );

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
