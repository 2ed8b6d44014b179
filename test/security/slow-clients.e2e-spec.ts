import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { basicAuth, listeningPort, RawConnection } from '../helpers/raw-http.js';
import { importFilesFixture, removeFilesFixture } from '../files/files-fixtures.js';
import { fingerprint } from './security-helpers.js';

const PREFIX = 'SLOW';

/**
 * Clients that send slowly or stop sending are cut off by HTTP_HEADERS_TIMEOUT_MS and
 * HTTP_REQUEST_TIMEOUT_MS (short here) instead of holding their connection as long as they like.
 */
describe('slow clients are cut off', () => {
  let db: pg.Pool;
  let port: number;
  let before: Record<string, string>;

  const t = useTestApp({
    HTTP_HEADERS_TIMEOUT_MS: '1000',
    HTTP_REQUEST_TIMEOUT_MS: '2000',
    HTTP_IDLE_TIMEOUT_MS: '60000',
  });
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
    port = await listeningPort(t);
    before = await fingerprint(db);
  });
  afterEach(() => RawConnection.destroyAll());
  afterAll(async () => {
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });

  /** Waits until the server closes the connection; its answer, if it gave one, is a 408. */
  async function expectCut(c: RawConnection) {
    await c.closed;
    const res = await c.response();
    if (res) expect(res.status).toBe(408);
  }

  it('cuts a client that sends its headers slowly', async () => {
    const c = await RawConnection.connect(port);
    await c.write('GET /files/version HTTP/1.1\r\nHost: localhost\r\n');
    await c.write(`Authorization: ${basicAuth(USERS.alice)}\r\n`);
    // ... and the rest of the head never comes.
    await expectCut(c);
  });

  it.each([
    ['a raw upload', 'application/octet-stream', 'first bytes'],
    ['a JSON upload', 'application/json', '{"data":"AAAA'],
  ])('cuts %s that stops mid-body, and writes nothing', async (_name, type, first) => {
    const c = await RawConnection.connect(port);
    await c.head('POST', `/files/${PREFIX}-1/stalled.bin`, {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': type,
      'Content-Length': '100000',
    });
    await c.write(first);
    await expectCut(c);
    expect(await fingerprint(db)).toEqual(before);
  });

  it('still serves normal requests', async () => {
    const c = await RawConnection.connect(port);
    await c.head('GET', '/files/version', { Authorization: basicAuth(USERS.alice) });
    const res = await c.response();
    expect(res?.status).toBe(200);
    expect(JSON.parse(res!.body)).toHaveProperty('version');
  });
});
