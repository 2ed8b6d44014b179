import type { Server } from 'node:http';
import { useTestApp } from '../helpers/use-test-app.js';
import { testPool } from '../helpers/test-database.js';
import { as, dropEvents, EVENTS_ENV, eventsContainers, subscribe } from './events-fixtures.js';
import { WebhookReceiver, type Received } from './webhook-receiver.js';

/**
 * Delivery while the instance is busy answering requests (EVENTS_BUSY_REQUESTS): the loops take
 * turns and rest, and still deliver every event to every subscription, in commit order.
 */
describe('delivery while the instance is busy', () => {
  // One request in flight on average makes it busy: the writes below keep it so.
  const t = useTestApp({ ...EVENTS_ENV, EVENTS_BUSY_REQUESTS: '1', EVENTS_BUSY_SHARE: '50' });
  const db = testPool();
  let receiver: WebhookReceiver;
  const made: number[] = [];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // One listening server for the concurrent writes (supertest would start one per request).
    const server = t.http as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await dropEvents(db, made);
    await receiver.close();
    await db.end();
  });

  /** The numbers the events on `path` name, in arrival order, each once (a redelivery is a duplicate). */
  function numbers(got: Received[]): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const r of got) {
      const first = (r.event.data.detail as { first: string }).first;
      if (!seen.has(first)) out.push(first);
      seen.add(first);
    }
    return out;
  }

  it('delivers every write to each of three subscriptions, in commit order, while writes keep it busy', async () => {
    const c = await eventsContainers(db, 'busy');
    made.push(c.main.id, c.other.id);
    const hooks = ['/busy-a', '/busy-b', '/busy-c'];
    for (const [i, path] of hooks.entries()) {
      await subscribe(t.http, 'admin', {
        name: `busy ${c.tag} ${i}`,
        actions: ['numbers.generate'],
        container: c.main.name,
        url: receiver.url(path),
      });
    }
    const write = async () => {
      const res = await as(t.http, 'alice').post(
        `/numbers/generate/wt.doc.WTDocument?container-name=${encodeURIComponent(c.main.name)}&count=1`,
      );
      expect(res.status).toBe(200);
      return (res.body as { items: string[] }).items[0];
    };
    // Eight writers at a time, 80 writes: requests are in flight throughout.
    const written: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 10; i++) written.push(await write());
      }),
    );
    expect(written).toHaveLength(80);

    for (const path of hooks) {
      const got = await receiver.waitFor(path, 80, 60_000);
      // In commit order: each event's sequence above the one before (first deliveries).
      const firsts = new Map<string, bigint>();
      for (const r of got) {
        const first = (r.event.data.detail as { first: string }).first;
        if (!firsts.has(first)) firsts.set(first, BigInt(r.event.sequence ?? '0'));
      }
      const sequences = [...firsts.values()];
      expect(sequences.every((s, i) => i === 0 || s > sequences[i - 1])).toBe(true);
      expect(numbers(got).sort()).toEqual([...written].sort());
    }
  });
});
