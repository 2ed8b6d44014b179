import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { dropConnection } from './pg-drop-connection.js';

// Dropping every connection to a hung replica: test/scaleout/read-replica-faults.e2e-spec.ts.
describe('dropConnection (src/patches/pg-drop-connection.ts)', () => {
  let server: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // A server that accepts connections, reads and never answers, as a hung PostgreSQL does.
    server = createServer((s) => {
      sockets.push(s);
      s.resume();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  it('ends a connection to a server that does not answer, failing what waits on it', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, user: 'x' });
    client.on('error', () => undefined);
    const connecting = client.connect();
    while (sockets.length === 0) await new Promise((r) => setTimeout(r, 5));
    const serverSide = new Promise((r) => sockets[0].once('close', r));
    dropConnection(client);
    await expect(connecting).rejects.toThrow(/Connection terminated unexpectedly/);
    await serverSide; // the server saw the connection closed
    expect(sockets[0].destroyed).toBe(true);
  });

  it('says so when a client has no socket to destroy', () => {
    expect(() => dropConnection({} as pg.ClientBase)).toThrow(
      'src/patches/pg-drop-connection.ts, written for pg 8.23.1, cannot work: the client has no connection.stream to destroy.',
    );
  });
});
