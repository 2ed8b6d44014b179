import { createServer, type Server } from 'node:http';
import { connect, Socket, type AddressInfo } from 'node:net';
import { onServerEndsConnection } from './node-socket-destroy-soon.js';

/** Sends a request on a raw connection and reads until the server closes it; what it answered. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

// The lingering close built on it (a client still sending reads its 413):
// test/files/files-oversize.e2e-spec.ts.
describe('onServerEndsConnection (src/patches/node-socket-destroy-soon.ts)', () => {
  let server: Server;
  const calls: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      onServerEndsConnection(req.socket, () => {
        calls.push(req.url!);
        Socket.prototype.destroySoon.call(req.socket); // what Node would have done
      });
      res.setHeader('Connection', req.url === '/close' ? 'close' : 'keep-alive');
      res.end('answered');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("is what this Node's HTTP server calls to end a connection after its last answer", async () => {
    const port = (server.address() as AddressInfo).port;
    const answer = await exchange(port, 'GET /close HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: close\r\n[\s\S]*answered$/);
    expect(calls).toEqual(['/close']);
  });

  it('says so when a socket has no destroySoon() to replace', () => {
    const socket = new Socket();
    Object.defineProperty(socket, 'destroySoon', { value: undefined, writable: true });
    expect(() => onServerEndsConnection(socket, () => undefined)).toThrow(
      'src/patches/node-socket-destroy-soon.ts, written for node 20.20.2, cannot work: the socket has no destroySoon().',
    );
    socket.destroy();
  });
});
