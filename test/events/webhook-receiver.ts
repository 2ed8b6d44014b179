import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The parsed CloudEvent. */
  event: {
    id: string;
    type: string;
    subject?: string;
    sequence?: string;
    data: { action: string; user: string; object?: Record<string, unknown>; detail: Record<string, unknown> | null };
  };
}

/**
 * A webhook receiver on loopback for tests: records every request; `answer` decides each one's
 * status (200 unless it says otherwise; `hang` never answers). `waitFor` resolves once `n`
 * requests arrived on a path.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: (r: Received) => number | 'hang' = () => 200;
  private server!: Server;
  private waiters: (() => void)[] = [];
  private readonly hanging = new Set<ServerResponse>();

  static async start(): Promise<WebhookReceiver> {
    const r = new WebhookReceiver();
    r.server = createServer((req, res) => r.handle(req, res));
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves once `path` got `n` requests (fails after `ms`, naming what did not come). */
  async waitFor(path: string, n: number, ms = 15_000): Promise<Received[]> {
    const until = Date.now() + ms;
    while (this.on(path).length < n) {
      if (Date.now() > until)
        throw new Error(`gave up waiting for ${n} requests on ${path}; got ${this.on(path).length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.on(path);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: Received['event'];
      try {
        event = JSON.parse(body) as Received['event'];
      } catch {
        event = { id: '', type: '', data: { action: '', user: '', detail: null } };
      }
      const r: Received = { path: req.url ?? '', headers: req.headers, body, event };
      this.received.push(r);
      const answer = this.answer(r);
      for (const w of this.waiters.splice(0)) w();
      if (answer === 'hang') {
        this.hanging.add(res);
        return;
      }
      res.statusCode = answer;
      res.end();
    });
  }
}

/** One request a SlowReceiver answered: the event and when the request came and was answered (ms). */
export interface TimedRequest {
  id: string;
  sequence: string;
  start: number;
  end: number;
}

/**
 * A receiver that answers every request 200 after `delayMs`, recording when each came and when
 * it was answered, so a test can tell whether two deliveries overlapped.
 */
export class SlowReceiver {
  readonly received: TimedRequest[] = [];
  private server!: Server;

  private constructor(private readonly delayMs: number) {}

  static async start(delayMs: number): Promise<SlowReceiver> {
    const r = new SlowReceiver(delayMs);
    r.server = createServer((req, res) => {
      const start = performance.now();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; sequence: string };
        setTimeout(() => {
          // Recorded before answering: the sender cannot send its next request before this.
          r.received.push({ id: event.id, sequence: event.sequence, start, end: performance.now() });
          res.statusCode = 200;
          res.end();
        }, r.delayMs);
      });
    });
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
