import type { ContainerRecord, NumberedClass, Reservation, ReservationRequest } from './numbers.repository.js';
import { ReservationBatcher } from './reservation-batcher.js';

const FORMAT = { prefix: 'T-', suffix: '', width: 4 };

const DOC: NumberedClass = { cls: 'wt.doc.WTDocument', table: 'masters' };
const PART: NumberedClass = { cls: 'wt.part.WTPart', table: 'masters' };
const box = (id: number): ContainerRecord => ({ id, cls: 'wt.pdmlink.PDMLinkProduct', name: `container ${id}` });
const req = (count: number, userId = 1): ReservationRequest => ({ count, userId, className: 'wt.doc.WTDocument' });

/**
 * A rule in memory behind a reserve() that completes only when released, so the test
 * decides what is in flight while more requests arrive.
 */
class FakeRule {
  next = 1n;
  bound = 10_000n;
  calls: number[] = [];
  /** The users of each statement's requests, in the order given. */
  users: number[][] = [];
  failNext = false;
  private pending: (() => void)[] = [];

  reserve = (_container: ContainerRecord, _rule: NumberedClass, requests: readonly ReservationRequest[]) => {
    const count = requests.reduce((sum, r) => sum + r.count, 0);
    this.calls.push(count);
    this.users.push(requests.map((r) => r.userId));
    return new Promise<Reservation | null>((resolve, reject) => {
      this.pending.push(() => {
        if (this.failNext) {
          this.failNext = false;
          reject(new Error('connection lost'));
          return;
        }
        const start = this.next;
        const reserved = start + BigInt(count) <= this.bound;
        if (reserved) this.next += BigInt(count);
        resolve({ ...FORMAT, start, bound: this.bound, reserved });
      });
    });
  };

  /** Completes the statement in flight and lets the batcher issue the next one. */
  async release(): Promise<void> {
    const done = this.pending.shift();
    if (!done) throw new Error('no statement in flight');
    done();
    await new Promise((r) => setImmediate(r));
  }
}

function starts(results: (Reservation | null)[]): (bigint | undefined)[] {
  return results.map((r) => (r?.reserved ? r.start : undefined));
}

describe('ReservationBatcher', () => {
  it('passes a lone request straight through', async () => {
    const rule = new FakeRule();
    const batcher = new ReservationBatcher({ reserve: rule.reserve });
    const p = batcher.reserve(box(1), DOC, req(3));
    await rule.release();
    expect(await p).toEqual({ ...FORMAT, start: 1n, bound: 10_000n, reserved: true });
    expect(rule.calls).toEqual([3]);
  });

  it('serves the requests that arrive meanwhile with one statement, split in arrival order', async () => {
    const rule = new FakeRule();
    const batcher = new ReservationBatcher({ reserve: rule.reserve });
    const first = batcher.reserve(box(1), DOC, req(2, 7));
    const waiting = [5, 1, 3].map((n, i) => batcher.reserve(box(1), DOC, req(n, 10 + i)));
    await rule.release();
    await rule.release();
    expect(starts([await first, ...(await Promise.all(waiting))])).toEqual([1n, 3n, 8n, 9n]);
    expect(rule.calls).toEqual([2, 9]);
    // One statement for the three, given each request (its user) in arrival order: one event each.
    expect(rule.users).toEqual([[7], [10, 11, 12]]);
    expect(rule.next).toBe(12n);
  });

  it('keeps rules apart', async () => {
    const rule = new FakeRule();
    const batcher = new ReservationBatcher({ reserve: rule.reserve });
    const a = batcher.reserve(box(1), DOC, req(1));
    const b = batcher.reserve(box(2), DOC, req(1));
    const c = batcher.reserve(box(1), PART, req(1));
    expect(rule.calls).toEqual([1, 1, 1]);
    await rule.release();
    await rule.release();
    await rule.release();
    expect(starts(await Promise.all([a, b, c]))).toEqual([1n, 2n, 3n]);
  });

  it('retries a batch that does not fit one by one, so each gets its own answer', async () => {
    const rule = new FakeRule();
    rule.next = 9_990n;
    const batcher = new ReservationBatcher({ reserve: rule.reserve });
    const first = batcher.reserve(box(1), DOC, req(1));
    const waiting = [4, 6, 3].map((n) => batcher.reserve(box(1), DOC, req(n)));
    await rule.release(); // the lone first request
    await rule.release(); // the batch of 13: does not fit below 10 000
    await rule.release(); // 4: fits
    await rule.release(); // 6: does not fit
    await rule.release(); // 3: fits
    expect(rule.calls).toEqual([1, 13, 4, 6, 3]);
    const results = [await first, ...(await Promise.all(waiting))];
    expect(starts(results)).toEqual([9_990n, 9_991n, undefined, 9_995n]);
    expect(results[2]).toMatchObject({ reserved: false });
    expect(rule.next).toBe(9_998n);
  });

  it('answers null to every request of a batch when there is no rule', async () => {
    const batcher = new ReservationBatcher({ reserve: () => Promise.resolve(null) });
    const all = await Promise.all([1, 2, 3].map((n) => batcher.reserve(box(1), DOC, req(n))));
    expect(all).toEqual([null, null, null]);
  });

  it('fails every request of a failed batch, and goes on with the next', async () => {
    const rule = new FakeRule();
    const batcher = new ReservationBatcher({ reserve: rule.reserve });
    const first = batcher.reserve(box(1), DOC, req(1));
    const doomed = Promise.allSettled([1, 1].map((n) => batcher.reserve(box(1), DOC, req(n))));
    await rule.release();
    rule.failNext = true;
    const later = batcher.reserve(box(1), DOC, req(2)); // arrives while the batch is in flight
    await rule.release();
    await rule.release();
    expect(starts([await first])).toEqual([1n]);
    const failed = { status: 'rejected', reason: new Error('connection lost') };
    expect(await doomed).toEqual([failed, failed]);
    expect(starts([await later])).toEqual([2n]);
  });
});
