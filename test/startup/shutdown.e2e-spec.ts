import { request as httpRequest } from 'node:http';
import type pg from 'pg';
import { importFilesFixture, itemsOf, oidOf, removeFilesFixture } from '../files/files-fixtures.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { freePort, startService, waitForOutput, waitReady } from './service-process.js';

const PREFIX = 'SHUT';
const AUTH = `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`;

describe('graceful shutdown', () => {
  let db: pg.Pool;
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
  });
  afterAll(async () => {
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });

  it('on SIGTERM finishes an upload in flight, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    const service = startService({ DATABASE_URL: testDatabaseUrl(), PORT: String(port), MIGRATE_ON_START: 'false' });
    await waitForOutput(service, 'serving on');
    await waitReady(service, port);

    const body = Buffer.alloc(2 * 1024 * 1024, 'x');
    const upload = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/files/${PREFIX}-1/in-flight.bin`,
      headers: {
        Authorization: AUTH,
        'Content-Type': 'application/octet-stream',
        'Content-Length': body.length,
        // The service answers 100 Continue once it has the request: from then on it is in flight.
        Expect: '100-continue',
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      upload.on('error', reject);
    });
    upload.flushHeaders();
    await new Promise<void>((resolve, reject) => {
      upload.once('continue', resolve);
      upload.once('error', reject);
    });
    await new Promise<void>((resolve, reject) =>
      upload.write(body.subarray(0, body.length / 2), (e) => (e ? reject(e) : resolve())),
    );

    service.child.kill('SIGTERM');
    // Logged as the listening socket is closed, in the same turn of the event loop.
    await waitForOutput(service, 'SIGTERM: shutting down', 10_000);
    const refused = await fetch(`http://127.0.0.1:${port}/files/version`, { headers: { Authorization: AUTH } }).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).toBe('refused');

    upload.end(body.subarray(body.length / 2));
    const res = await answer;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ success: true });
    expect(await service.exited).toBe(0);

    const items = await itemsOf(db, await oidOf(db, 'wt.doc.WTDocument', `${PREFIX}-1`));
    expect(items.find((i) => i.file_name === 'in-flight.bin')).toMatchObject({ size: String(body.length) });
  }, 60_000);
});
