import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { TestApp } from './test-app.js';

/** The port the test app listens on (on loopback), listening first if it does not yet. */
export async function listeningPort(t: TestApp): Promise<number> {
  const server = t.app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A connection that writes a request by hand, so a test decides what the server has been sent
 * when it answers: headers only, half a body, nothing more.
 */
export class RawConnection {
  private static readonly open = new Set<RawConnection>();
  private readonly socket: Socket;
  private received = Buffer.alloc(0);
  private readonly waiters: (() => void)[] = [];
  /** Resolves when the server has closed the connection. */
  readonly closed: Promise<void>;

  private constructor(port: number, allowHalfOpen: boolean) {
    this.socket = connect({ port, host: '127.0.0.1', allowHalfOpen });
    RawConnection.open.add(this);
    this.socket.once('close', () => RawConnection.open.delete(this));
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const w of this.waiters.splice(0)) w();
    });
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
    void this.closed.then(() => {
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Closes every connection still open (for afterEach: a failed test must not keep the server up). */
  static destroyAll(): void {
    for (const c of RawConnection.open) c.destroy();
  }

  /**
   * `allowHalfOpen`: the connection stays open for writing when the server has closed its side
   * (a client still sending its body); by default it closes too, as Node's sockets do.
   */
  static async connect(port: number, { allowHalfOpen = false } = {}): Promise<RawConnection> {
    const c = new RawConnection(port, allowHalfOpen);
    await new Promise<void>((resolve, reject) => {
      c.socket.once('connect', resolve);
      c.socket.once('error', reject);
    });
    return c;
  }

  /** Writes text or bytes; resolves once the socket has taken them (false when it is closed). */
  write(data: string | Buffer): Promise<boolean> {
    if (this.socket.destroyed || !this.socket.writable) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(data, (err) => resolve(!err)));
  }

  /** The request line and headers of a request, ending the head. */
  head(method: string, path: string, headers: Record<string, string>): Promise<boolean> {
    const lines = [
      `${method} ${path} HTTP/1.1`,
      'Host: localhost',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    return this.write(`${lines.join('\r\n')}\r\n\r\n`);
  }

  /** The first response on this connection (its body read by Content-Length), or null if closed first. */
  async response(): Promise<RawResponse | null> {
    for (;;) {
      const parsed = parseResponse(this.received);
      if (parsed) return parsed;
      if (this.socket.destroyed) return null;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

function parseResponse(buf: Buffer): RawResponse | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (buf.length < end + 4 + length) return null;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: buf.subarray(end + 4, end + 4 + length).toString('utf8'),
  };
}

export const basicAuth = (user: readonly [string, string]) => `Basic ${Buffer.from(user.join(':')).toString('base64')}`;
