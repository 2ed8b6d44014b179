import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import pg from 'pg';
import { pollUntil } from '../helpers/bounded-wait.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import {
  call,
  endInstance,
  killInstance,
  leaseHolder,
  logAfter,
  running,
  startInstance,
  waitForCursorsAtHead,
  writeBurst,
  type Instance,
} from './delivery-instances.js';
import { eventsContainers } from './events-fixtures.js';
import { NATS_SERVER, natsUnavailable, run } from './test-brokers.js';

const WRITES = 600;
/** The crash is prepared once this many writes were answered. */
const KILL_AFTER = 200;

const reason = await natsUnavailable('the NATS delivery fault test is');

interface Published {
  id: string;
  sequence: bigint;
}

/**
 * Two service processes publish one subscription's events to JetStream during a burst of writes.
 * The instance delivering it is killed (SIGKILL) right after JetStream acknowledged an event and
 * before the cursor moved past it: the test holds the subscription's row locked until the
 * instance waits to record the acknowledgement, then kills it and ends its waiting connection, as
 * the crash would have. The other instance takes the lease over and publishes that event again;
 * the stream drops the copy (same Nats-Msg-Id), so it holds every event exactly once, in log order.
 */
(reason ? describe.skip : describe)('change events to NATS JetStream when the delivering instance is killed', () => {
  const stream = `PDM_FAULTS_${run}`;
  const root = `pdmfaults_${run}`;
  let scratch: ScratchDatabase;
  let db: pg.Pool;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let wire: Subscription;
  /** Every publish on the subscription's subjects as core NATS carried it, duplicates included. */
  const onWire: Published[] = [];
  let a: Instance;
  let b: Instance;
  let c: Awaited<ReturnType<typeof eventsContainers>>;

  const parse = (json: string): Published => {
    const e = JSON.parse(json) as { id: string; sequence: string };
    return { id: e.id, sequence: BigInt(e.sequence) };
  };

  beforeAll(async () => {
    scratch = await scratchDatabase({ demo: true });
    db = new pg.Pool({ connectionString: scratch.url, max: 3 });
    db.on('error', () => undefined);
    nc = await connect({ servers: NATS_SERVER });
    jsm = await jetstreamManager(nc);
    wire = nc.subscribe(`${root}.>`, {
      callback: (_err, msg) => {
        onWire.push(parse(msg.string()));
      },
    });
    await nc.flush();
    c = await eventsContainers(db, 'natskill');
    const env = { EVENTS_NATS_URL: `nats://${NATS_SERVER}`, EVENTS_NATS_STREAM: stream, EVENTS_SUBJECT_ROOT: root };
    [a, b] = await Promise.all([startInstance('A', scratch.url, env), startInstance('B', scratch.url, env)]);
  }, 120_000);

  afterAll(async () => {
    for (const i of [a, b]) await endInstance(i);
    wire?.unsubscribe();
    await jsm?.streams.delete(stream).catch(() => false);
    await nc?.drain();
    await db?.end();
    await scratch?.drop();
  });

  /** Every message of the stream in stream order, read with an ordered consumer. */
  async function streamMessages(): Promise<Published[]> {
    const total = (await jsm.streams.info(stream)).state.messages;
    const consumer = await jetstream(nc).consumers.get(stream);
    const got: Published[] = [];
    while (got.length < total) {
      const batch = await consumer.fetch({ max_messages: total - got.length, expires: 5000 });
      const before = got.length;
      for await (const m of batch) got.push(parse(m.string()));
      if (got.length === before) throw new Error(`read ${got.length} of the stream's ${total} messages`);
    }
    return got;
  }

  /**
   * Holds the subscription's row locked until its delivering instance waits there to record an
   * acknowledgement (not to give its lease back: then it would have nothing unrecorded), kills that
   * instance and ends the waiting connection. Answers the killed instance, the cursor it had
   * recorded and the event JetStream holds from it beyond that cursor.
   */
  async function killBeforeTheCursorMoves(id: number) {
    for (let tries = 0; ; tries++) {
      const client = await db.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ cursor: string; me: number }>(
          'SELECT cursor::text AS cursor, pg_backend_pid() AS me FROM event_subscriptions WHERE id = $1 FOR UPDATE',
          [id],
        );
        const me = rows[0].me;
        const blocked = `SELECT pid, query FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`;
        let waiting: { pid: number; query: string } | undefined;
        await pollUntil(async () => {
          waiting = (await db.query<{ pid: number; query: string }>(blocked, [me])).rows[0];
          return waiting !== undefined;
        }, 'the delivering instance waits for the locked subscription');
        if (!waiting!.query.includes('delivered = delivered +')) {
          if (tries >= 20) throw new Error(`the instance waited to do something else: ${waiting!.query}`);
          continue;
        }
        const victim = await leaseHolder(db, id, [a, b]);
        if (!victim) throw new Error('no instance holds the lease while it records an acknowledgement');
        await killInstance(victim);
        await db.query('SELECT pg_terminate_backend($1)', [waiting!.pid]);
        await pollUntil(
          async () => (await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [waiting!.pid])).rowCount === 0,
          'the killed instance has no connection waiting',
        );
        const last = (await jsm.streams.info(stream)).state.last_seq;
        const stored = await jsm.streams.getMessage(stream, { seq: last });
        return { victim, cursor: BigInt(rows[0].cursor), unrecorded: parse(stored!.string()) };
      } finally {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release();
      }
    }
  }

  it('stores every event exactly once, in log order, although one was published twice', async () => {
    const from = (await db.query<{ head: string }>('SELECT COALESCE(max(position), 0)::text AS head FROM event_log'))
      .rows[0].head;
    const res = await call(a, 'admin', 'POST', '/events/subscriptions', {
      name: 'erp',
      actions: ['numbers.generate'],
      nats: `${root}.erp`,
    });
    const sub = (await res.json()) as { id: number; nats: string };
    expect(res.status).toBe(201);
    expect(sub.nats).toBe(`${root}.erp`);

    let killing: ReturnType<typeof killBeforeTheCursorMoves> | undefined;
    await writeBurst({
      count: WRITES,
      parallel: 6,
      instances: () => [a, b],
      containers: [c.main.name, c.other.name],
      after: (k) => {
        if (k === KILL_AFTER) killing = killBeforeTheCursorMoves(sub.id);
      },
    });
    const { victim, cursor, unrecorded } = await killing!;
    const survivor = victim === a ? b : a;
    expect(running(victim)).toBe(false);
    // JetStream acknowledged an event the killed instance had not recorded.
    expect(unrecorded.sequence).toBeGreaterThan(cursor);

    const head = await waitForCursorsAtHead(db, [sub.id]);
    const expected = (await logAfter(db, BigInt(from))).filter((e) => e.action === 'numbers.generate');
    expect(expected.length).toBeGreaterThanOrEqual(WRITES);
    const stored = await streamMessages();
    // Each event exactly once, none missing, none else, in log order.
    expect(stored.map((m) => m.id)).toEqual(expected.map((e) => e.id));
    expect(stored.map((m) => m.sequence)).toEqual(expected.map((e) => e.position));
    // The unrecorded event went out twice (the survivor published it again) and is stored once.
    expect(onWire.filter((m) => m.id === unrecorded.id).length).toBeGreaterThanOrEqual(2);
    expect(stored.filter((m) => m.id === unrecorded.id)).toHaveLength(1);
    expect(onWire.length).toBeGreaterThan(stored.length);

    const stats = await call(survivor, 'admin', 'GET', '/events/stats');
    const body = (await stats.json()) as { head: string; subscriptions: { id: number }[] };
    expect(stats.status).toBe(200);
    expect(body.head).toBe(String(head));
    expect(body.subscriptions.find((s) => s.id === sub.id)).toMatchObject({
      cursor: String(head),
      backlog: 0,
      deadLetters: 0,
      delivered: String(expected.length),
    });
  }, 180_000);
});
