import { rmSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { pollUntil, withinMs } from '../helpers/bounded-wait.js';
import { startEmbeddedService, stopService, type EmbeddedService } from '../startup/service-process.js';
import { WebhookReceiver, type Received } from './webhook-receiver.js';

/** Longest any one request may take before the test says the service hangs. */
const ANSWER_MS = 60_000;
const ENV = {
  EVENTS_WEBHOOK_ALLOW: '127.0.0.1',
  EVENTS_POLL_MS: '200',
  EVENTS_RETRY_BASE_MS: '50',
  EVENTS_RETRY_MAX_MS: '200',
};
const auth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN = auth('admin', 'admin');
const ALICE = auth('alice', 'alice-pw');

interface Feed {
  events: { id: string; type: string; subject?: string; sequence: string; data: { action: string; user: string } }[];
  cursor: string;
  missed: boolean;
}

/**
 * Change events on the embedded database (PGlite, one connection at a time), as `npm start`
 * runs the built service without DATABASE_URL: the commit trigger (advisory lock and notice)
 * runs there too, delivery and long polls poll instead of listening, and the feed's cursor and
 * each subscription's progress survive a restart on the same DATA_DIR.
 */
describe('change events on the embedded database', () => {
  let s: EmbeddedService | undefined;
  let receiver: WebhookReceiver;
  let serial = 0;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    s = await startEmbeddedService(ENV);
  }, 240_000);

  afterAll(async () => {
    s?.service.child.kill('SIGKILL');
    await s?.service.exited;
    if (s) rmSync(s.dataDir, { recursive: true, force: true });
    await receiver?.close();
  });

  /** A request with a bounded wait: one the service never answers fails with its output. */
  async function call(
    path: string,
    who: string,
    init: { method?: string; body?: object } = {},
  ): Promise<{ status: number; body: unknown }> {
    const service = s!;
    try {
      const res = await fetch(`${service.base}${path}`, {
        method: init.method ?? 'GET',
        headers: { Authorization: who, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
        body: init.body ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(ANSWER_MS),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : text };
    } catch (e) {
      throw new Error(
        `${init.method ?? 'GET'} ${path}: ${String(e)}; the service's output:\n${service.service.output().slice(-3000)}`,
      );
    }
  }

  async function createDoc(): Promise<{ number: string; masterOid: string }> {
    const res = await call('/objects', ALICE, {
      method: 'POST',
      body: { container: 'Drive Unit', type: 'wt.doc.WTDocument', number: `EVT-${++serial}`, name: `event ${serial}` },
    });
    expect(res).toMatchObject({ status: 201, body: { number: `EVT-${serial}` } });
    return res.body as { number: string; masterOid: string };
  }

  async function feed(query: string): Promise<Feed> {
    const res = await call(`/events?${query}`, ADMIN);
    expect(res).toMatchObject({ status: 200, body: { missed: false } });
    return res.body as Feed;
  }

  const created = (r: Received) => [r.event.type, r.event.subject, r.event.data.user];

  it('delivers a signed webhook, serves the event in the feed, and goes on after a restart', async () => {
    const before = await call('/events/stats', ADMIN);
    expect(before).toMatchObject({ status: 200, body: { head: expect.stringMatching(/^[1-9][0-9]*$/) } });
    const head = (before.body as { head: string }).head;
    const sub = await call('/events/subscriptions', ADMIN, {
      method: 'POST',
      body: { name: 'embedded', actions: ['objects.*'], url: receiver.url('/embedded') },
    });
    expect(sub).toMatchObject({ status: 201, body: { name: 'embedded', active: true } });
    const secret = (sub.body as { secret: string }).secret;

    const first = await createDoc();
    const [hook] = await receiver.waitFor('/embedded', 1, ANSWER_MS);
    expect(created(hook)).toEqual(['pdm.object.created', first.masterOid, 'alice']);
    expect(new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>)).toMatchObject({
      id: hook.event.id,
    });

    // The feed after the head before the subscription: its own creation, then the document.
    const read = await feed(`after=${head}`);
    expect(read.events.map((e) => [e.data.action, e.id])).toEqual([
      ['events.subscription.create', expect.any(String)],
      ['objects.create', hook.event.id],
    ]);
    expect(read.events[1].sequence).toBe(hook.event.sequence);
    expect(read.cursor).toBe(hook.event.sequence);

    expect(await stopService(s!.service)).toBe(0);
    s = await startEmbeddedService(ENV, s!.dataDir);

    // The cursor holds: nothing new after it, and it goes on with the next write.
    expect(await feed(`after=${read.cursor}`)).toEqual({ events: [], cursor: read.cursor, missed: false });
    const poll = call(`/events?after=${read.cursor}&wait=20`, ADMIN);
    const second = await createDoc();
    const polled = await withinMs(poll, ANSWER_MS, 'the waiting feed request is answered');
    expect(polled.status).toBe(200);
    const next = polled.body as Feed;
    expect(next.events.map((e) => [e.type, e.subject])).toEqual([['pdm.object.created', second.masterOid]]);
    expect(BigInt(next.cursor)).toBeGreaterThan(BigInt(read.cursor));
    expect(next.cursor).toBe(next.events[0].sequence);

    // Delivery resumed where it stopped: the second document only, not the first again.
    const hooks = await receiver.waitFor('/embedded', 2, ANSWER_MS);
    expect(hooks.map(created)).toEqual([
      ['pdm.object.created', first.masterOid, 'alice'],
      ['pdm.object.created', second.masterOid, 'alice'],
    ]);
    expect(hooks[1].event.id).toBe(next.events[0].id);
    expect(new Webhook(secret).verify(hooks[1].body, hooks[1].headers as Record<string, string>)).toMatchObject({
      id: next.events[0].id,
    });

    // The cursor is committed once the receiver's answer is in: looked at until it is.
    let stats: { status: number; body: unknown } | undefined;
    await pollUntil(
      async () => {
        stats = await call('/events/stats', ADMIN);
        return (stats.body as { subscriptions?: { cursor: string }[] }).subscriptions?.[0]?.cursor === next.cursor;
      },
      "the subscription's cursor reaches the head",
      { ms: ANSWER_MS },
    );
    expect(stats).toMatchObject({
      status: 200,
      body: {
        head: next.cursor,
        subscriptions: [expect.objectContaining({ name: 'embedded', cursor: next.cursor, backlog: 0, delivered: '2' })],
      },
    });

    // A long poll open at SIGTERM is answered at once, not after its wait, and the service stops.
    const open = call(`/events?after=${next.cursor}&wait=30`, ADMIN);
    // Time for the request to arrive, not an assertion: one sent after the signal is refused.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await stopService(s!.service, 20_000)).toBe(0);
    expect(await open).toEqual({ status: 200, body: { events: [], cursor: next.cursor, missed: false } });
  }, 420_000);
});
