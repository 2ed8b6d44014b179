/**
 * What the events benchmarks share: a webhook receiver in the benchmark process, the
 * subscriptions the service delivers to it, a plain loop that posts signed CloudEvents to it
 * (the baseline of `events_delivery`) and the cheap audited write that makes the events.
 */
import { createServer, Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import type { ChildServer } from '../harness/child-server.js';
import { withClient } from '../harness/database.js';
import { basicAuth } from './common.js';

export const ADMIN_BASIC = basicAuth('admin', 'admin');
/** Every benchmark subscription's name starts so; leftovers of a broken run are removed by it. */
export const SUBSCRIPTION_PREFIX = 'bench-events-';
/** One secret for every subscription, so the receiver checks every signature with one key. */
export const SECRET = 'whsec_' + Buffer.alloc(32, 7).toString('base64');

const CLASS = 'wt.doc.WTDocument';
const PREFIX = 'BE-';

/** One event as the receiver got it. */
export interface Delivery {
  /** performance.now() when its body had arrived, before the signature check. */
  at: number;
  /** The write it comes from: the first (only) number it handed out. */
  number: string;
  sequence: bigint;
  body: string;
}

/**
 * Answers 204 to every POST at once, after recording it by path; checks every signature
 * (Standard Webhooks, the subscriptions' secret) and counts the bad ones.
 */
export class EventsReceiver {
  badSignatures = 0;
  private readonly byPath = new Map<string, Delivery[]>();
  private readonly webhook = new Webhook(SECRET);
  private server!: Server;

  static async start(): Promise<EventsReceiver> {
    const r = new EventsReceiver();
    r.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          r.webhook.verify(body, req.headers as Record<string, string>);
        } catch {
          r.badSignatures += 1;
        }
        const event = JSON.parse(body) as { sequence: string; data: { detail: { first: string } } };
        const list = r.byPath.get(req.url ?? '') ?? [];
        list.push({ at, number: event.data.detail.first, sequence: BigInt(event.sequence), body });
        r.byPath.set(req.url ?? '', list);
        res.writeHead(204).end();
      });
    });
    r.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** What `path` received since the last take, in arrival order; forgotten here. */
  take(path: string): Delivery[] {
    const list = this.byPath.get(path) ?? [];
    this.byPath.delete(path);
    return list;
  }

  count(path: string): number {
    return this.byPath.get(path)?.length ?? 0;
  }

  /** Waits until `path` received an event of each of `numbers`; false after `ms`. */
  async waitFor(path: string, numbers: ReadonlySet<string>, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    const seen = new Set<string>();
    let checked = 0;
    for (;;) {
      const list = this.byPath.get(path) ?? [];
      for (; checked < list.length; checked++) if (numbers.has(list[checked].number)) seen.add(list[checked].number);
      if (seen.size === numbers.size) return true;
      if (Date.now() > until) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Posts CloudEvents to the receiver the way the service's webhook sender does (node:http with a
 * keep-alive pool, signed per call, the same headers), one at a time and in order, as the
 * service delivers one subscription's events. Resolves when the receiver answered.
 */
export class LoopSender {
  private readonly agent = new Agent({ keepAlive: true });
  private readonly webhook = new Webhook(SECRET);

  constructor(private readonly url: URL) {}

  send(body: string): Promise<void> {
    const id = (JSON.parse(body) as { id: string }).id;
    const now = new Date();
    const headers = {
      'content-type': 'application/cloudevents+json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'pdm-services-webhooks',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': this.webhook.sign(id, now, body),
    };
    return new Promise((resolve, reject) => {
      const req = request(
        {
          method: 'POST',
          hostname: this.url.hostname,
          port: this.url.port,
          path: this.url.pathname,
          headers,
          agent: this.agent,
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 204 ? resolve() : reject(new Error(`receiver answered ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** POST /numbers/generate (one number) in the benchmark's container: one audited write, one event. */
export function generatePath(container: string): string {
  return `/numbers/generate/${CLASS}?container-name=${encodeURIComponent(container)}&count=1`;
}

/** The number a write's answer handed out (its event's detail.first). */
export function answerNumber(body: string): string {
  return (JSON.parse(body) as { items: string[] }).items[0];
}

/** A fresh container (alice author) with a document rule; any earlier one of that name goes first. */
export async function createEventsContainer(databaseUrl: string, container: string): Promise<void> {
  await withClient(databaseUrl, async (c) => {
    await c.query('DELETE FROM event_subscriptions WHERE name LIKE $1', [`${SUBSCRIPTION_PREFIX}%`]);
    await c.query('DELETE FROM containers WHERE name = $1', [container]);
    const { rows } = await c.query<{ id: number }>(
      "INSERT INTO containers (class, name) VALUES ('wt.pdmlink.PDMLinkProduct', $1) RETURNING id",
      [container],
    );
    await c.query(
      "INSERT INTO memberships (container_id, user_id, role) SELECT $1, id, 'author' FROM users WHERE name = 'alice'",
      [rows[0].id],
    );
    await c.query('INSERT INTO numbering_rules (container_id, class, prefix, width, next) VALUES ($1, $2, $3, 14, 1)', [
      rows[0].id,
      CLASS,
      PREFIX,
    ]);
  });
}

/** Removes the container (its subscriptions go with it) and any benchmark subscription left. */
export async function removeEventsContainer(databaseUrl: string, container: string): Promise<void> {
  await withClient(databaseUrl, async (c) => {
    await c.query('DELETE FROM event_subscriptions WHERE name LIKE $1', [`${SUBSCRIPTION_PREFIX}%`]);
    await c.query('DELETE FROM containers WHERE name = $1', [container]);
  });
}

/** A webhook subscription (admin) to the container's generated numbers; its id. */
export async function subscribe(service: ChildServer, name: string, container: string, url: string): Promise<number> {
  const res = await fetch(service.url + '/events/subscriptions', {
    method: 'POST',
    headers: { authorization: ADMIN_BASIC, 'content-type': 'application/json' },
    body: JSON.stringify({ name, actions: ['numbers.generate'], container, url, secret: SECRET }),
  });
  const body = (await res.json()) as { id?: number };
  if (res.status !== 201 || typeof body.id !== 'number')
    throw new Error(`POST /events/subscriptions answered ${res.status} ${JSON.stringify(body)}`);
  return body.id;
}

export async function unsubscribe(service: ChildServer, id: number): Promise<void> {
  const res = await fetch(`${service.url}/events/subscriptions/${id}`, {
    method: 'DELETE',
    headers: { authorization: ADMIN_BASIC },
  });
  await res.arrayBuffer();
  if (res.status !== 204 && res.status !== 200)
    throw new Error(`DELETE /events/subscriptions/${id} answered ${res.status}`);
}

/** The value at quantile q (0…1) of the sorted values, NaN when there are none. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
