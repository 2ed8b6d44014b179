import { Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { interceptConnections } from './pglite-socket-connection-handler.js';

// The embedded database's use of it (a fresh session per connection, connections waiting their
// turn): test/startup/embedded-database.e2e-spec.ts.
describe('interceptConnections (src/patches/pglite-socket-connection-handler.ts)', () => {
  it("finds the installed socket server's connection handler, and runs first for each connection", async () => {
    // Not started: nothing listens, and the database is never used.
    const server = new PGLiteSocketServer({ db: {} as PGlite, port: 0 });
    const seen: Socket[] = [];
    const ended: Socket[] = [];
    let attach: () => Promise<void> = async () => undefined;
    interceptConnections(server, async (socket, attachIt) => {
      seen.push(socket);
      attach = attachIt;
    });
    const internals = server as unknown as { handleConnection(socket: Socket): Promise<void> };
    const socket = new Socket();
    await internals.handleConnection(socket);
    expect(seen).toEqual([socket]);
    // attach() hands the connection to the server's own handler, which ends it (not started).
    socket.end = (() => (ended.push(socket), socket)) as typeof socket.end;
    await attach();
    expect(ended).toEqual([socket]);
    expect(server.getStats().activeConnections).toBe(0);
    socket.destroy();
  });

  it('says so when the server has no connection handler to intercept', () => {
    expect(() => interceptConnections({} as PGLiteSocketServer, async () => undefined)).toThrow(
      'src/patches/pglite-socket-connection-handler.ts, written for @electric-sql/pglite-socket 0.2.17, cannot work: ' +
        'PGLiteSocketServer has no handleConnection() to intercept.',
    );
  });
});
