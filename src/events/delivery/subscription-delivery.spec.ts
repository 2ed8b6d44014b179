import type { DeliveryOutcome } from '../cloud-event.js';
import type { EventRecord } from '../event-record.js';
import type { EventsRepository } from '../events.repository.js';
import type { DeliveryLease, DeliveryRepository } from './delivery.repository.js';
import type { EventSenders } from './event-senders.js';
import { SubscriptionDelivery } from './subscription-delivery.js';

const LEASE: DeliveryLease = {
  id: 7,
  ownerId: 1,
  ownerAdmin: true,
  ownerDisabled: false,
  actions: ['*'],
  containerId: null,
  type: null,
  state: null,
  targetKind: 'webhook',
  target: 'http://127.0.0.1:9/hook',
  secret: 'whsec_x',
  cursor: 10n,
  attempts: 0,
};

function record(position: number, visible = true): EventRecord {
  return {
    position: BigInt(position),
    id: BigInt(1000 + position),
    at: new Date(0),
    userName: 'alice',
    action: 'numbers.generate',
    objectClass: null,
    objectId: null,
    objectNumber: null,
    containerId: 1,
    container: 'C',
    detail: {},
    objectName: null,
    objectType: null,
    objectCls: null,
    softType: null,
    state: null,
    visible,
    memberHidden: false,
  };
}

/** A log of `records`, a repository recording its calls, and senders answering `outcomes` in turn (then delivered). */
function harness(records: EventRecord[], outcomes: DeliveryOutcome[] = [], yields?: () => boolean) {
  const calls: string[] = [];
  const sent: string[] = [];
  const repo = {
    requeued: () => Promise.resolve([]),
    advance: (_id: number, _owner: string, position: bigint, delivered: number) => {
      calls.push(`advance ${position} +${delivered}`);
      return Promise.resolve(true);
    },
    failed: (_id: number, _owner: string, attempts: number) => {
      calls.push(`failed attempt ${attempts}`);
      return Promise.resolve(true);
    },
    deadLetter: (_id: number, _owner: string, _event: bigint, position: bigint) => {
      calls.push(`dead letter ${position}`);
      return Promise.resolve(true);
    },
    pause: () => {
      calls.push('pause');
      return Promise.resolve();
    },
    release: () => {
      calls.push('release');
      return Promise.resolve();
    },
  } as unknown as DeliveryRepository;
  const events = {
    byIds: () => Promise.resolve([]),
    window: (after: bigint, scan: number) =>
      Promise.resolve(records.filter((r) => r.position > after).slice(0, Math.min(scan, 3))),
  } as unknown as EventsRepository;
  const senders = {
    send: (_target: unknown, event: { sequence: string }) => {
      sent.push(event.sequence);
      return Promise.resolve(outcomes.shift() ?? { kind: 'delivered' });
    },
  } as unknown as EventSenders;
  const loop = new SubscriptionDelivery(LEASE, {
    owner: 'me',
    config: { eventsLeaseMs: 15_000, eventsMaxAttempts: 3, eventsSource: 'urn:test' },
    repo,
    events,
    senders,
    filter: () => Promise.resolve({ actions: ['*'], containerId: null, typeMatches: null, state: null }),
    backoff: () => 1000,
    signal: new AbortController().signal,
    yields,
  });
  return { loop, calls, sent };
}

describe('a subscription delivery loop', () => {
  it('writes its cursor once per window of acknowledged events, past the events it may not read', async () => {
    const { loop, calls, sent } = harness([11, 12, 13, 14, 15].map((p) => record(p, p !== 15)));
    await loop.run();
    expect(sent).toEqual(['11', '12', '13', '14']);
    // Windows of three here: 11–13, then 14–15 (15 not readable, passed over), then none.
    expect(calls).toEqual(['advance 13 +3', 'advance 15 +1', 'release']);
  });

  it('writes the acknowledged events before recording a failed attempt, so they are not sent again', async () => {
    const { loop, calls, sent } = harness(
      [11, 12, 13].map((p) => record(p)),
      [{ kind: 'delivered' }, { kind: 'retry', error: '503' }],
    );
    await loop.run();
    expect(sent).toEqual(['11', '12']);
    expect(calls).toEqual(['advance 11 +1', 'failed attempt 1']);
  });

  it('writes the acknowledged events before a dead letter and before a pause', async () => {
    const dead = harness(
      [11, 12, 13].map((p) => record(p)),
      [{ kind: 'delivered' }, { kind: 'rejected', error: '400' }],
    );
    await dead.loop.run();
    expect(dead.calls).toEqual(['advance 11 +1', 'dead letter 12', 'advance 13 +1', 'release']);

    const gone = harness(
      [11, 12].map((p) => record(p)),
      [{ kind: 'delivered' }, { kind: 'gone', error: '410', status: 410 }],
    );
    await gone.loop.run();
    expect(gone.calls).toEqual(['advance 11 +1', 'pause']);
  });

  it('gives its turn when told to, with its cursor past what was acknowledged, and goes on from there next time', async () => {
    // Busy from the second event on: the loop sends one event, writes its cursor, and ends.
    let asked = 0;
    const first = harness(
      [11, 12, 13, 14].map((p) => record(p)),
      [],
      () => ++asked > 0,
    );
    await first.loop.run();
    expect(first.sent).toEqual(['11']);
    expect(first.calls).toEqual(['advance 11 +1', 'release']);
    expect(first.loop.yielded).toBe(true);

    // Never busy: the whole log, and no turn given.
    const calm = harness(
      [11, 12, 13, 14].map((p) => record(p)),
      [],
      () => false,
    );
    await calm.loop.run();
    expect(calm.sent).toEqual(['11', '12', '13', '14']);
    expect(calm.loop.yielded).toBe(false);
  });
});
