import type { Reservation } from './numbers.repository.js';
import { ReservationBatcher } from './reservation-batcher.js';

const FORMAT = { prefix: 'T-', suffix: '', width: 4 };

/**
 * A rule in memory behind a reserve() that completes only when released, so the test
 * decides what is in flight while more requests arrive.
 */
class FakeRule {
  next = 1n;
  bound = 10_000n;
  calls: number[] = [];
  failNext = false;
  private pending: (() => void)[] = [];

  reserve = (_containerId: number, _ruleClass: string, count: number): Promise<Reservation | null> => {
    this.calls.push(count);
    return new Promise((resolve, reject) => {
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
    const p = batcher.reserve(1, 'wt.doc.WTDocument', 3);
    await rule.release();
    expect(await p).toEqual({ ...FORMAT, start: 1n, bound: 10_000n, reserved: true });
    expect(rule.calls).toEqual([3]);
  });

  it('serves the requests that arrive meanwhile with one statement, split in arrival order', async () => {
    const rule = new FakeRule();
    const batcher = new ReservationBatcher({ reserve: rule.reserve });
    const first = batcher.reserve(1, 'wt.doc.WTDocument', 2);
    const waiting = [5, 1, 3].map((n) => batcher.reserve(1, 'wt.doc.WTDocument', n));
    await rule.release();
    await rule.release();
    expect(starts([await first, ...(await Promise.all(waiting))])).toEqual([1n, 3n, 8n, 9n]);
    expect(rule.calls).toEqual([2, 9]);
    expect(rule.next).toBe(12n);
  });

  it('keeps rules apart', async () => {
    const rule = new FakeRule();
    const batcher = new ReservationBatcher({ reserve: rule.reserve });
    const a = batcher.reserve(1, 'wt.doc.WTDocument', 1);
    const b = batcher.reserve(2, 'wt.doc.WTDocument', 1);
    const c = batcher.reserve(1, 'wt.part.WTPart', 1);
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
    const first = batcher.reserve(1, 'wt.doc.WTDocument', 1);
    const waiting = [4, 6, 3].map((n) => batcher.reserve(1, 'wt.doc.WTDocument', n));
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
    const all = await Promise.all([1, 2, 3].map((n) => batcher.reserve(1, 'wt.doc.WTDocument', n)));
    expect(all).toEqual([null, null, null]);
  });

  it('fails every request of a failed batch, and goes on with the next', async () => {
    const rule = new FakeRule();
    const batcher = new ReservationBatcher({ reserve: rule.reserve });
    const first = batcher.reserve(1, 'wt.doc.WTDocument', 1);
    const doomed = Promise.allSettled([1, 1].map((n) => batcher.reserve(1, 'wt.doc.WTDocument', n)));
    await rule.release();
    rule.failNext = true;
    const later = batcher.reserve(1, 'wt.doc.WTDocument', 2); // arrives while the batch is in flight
    await rule.release();
    await rule.release();
    expect(starts([await first])).toEqual([1n]);
    const failed = { status: 'rejected', reason: new Error('connection lost') };
    expect(await doomed).toEqual([failed, failed]);
    expect(starts([await later])).toEqual([2n]);
  });
});
