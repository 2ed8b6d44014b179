import { Inject, Injectable } from '@nestjs/common';
import {
  NumbersRepository,
  type ContainerRecord,
  type NumberedClass,
  type Reservation,
  type ReservationRequest,
} from './numbers.repository.js';

interface Waiter {
  request: ReservationRequest;
  resolve(r: Reservation | null): void;
  reject(e: unknown): void;
}

/**
 * Coalesces concurrent reservations on one rule into one statement.
 *
 * Every reservation holds the rule's row lock until its commit is on disk, so requests on a
 * busy rule queue behind each other at the commit rate. While a statement for a rule is in
 * flight, further requests for it wait here; when it completes, all of them are served by the
 * next single statement for the sum of their counts, and the run is split in arrival order:
 * each request still gets consecutive numbers, no number is handed out twice (the statement
 * stays the one atomic reservation; other processes simply queue on the row lock), and the
 * counter moves by exactly what was handed out.
 *
 * If a batch does not fit the rule's width as a whole, its requests are retried one by one,
 * so each gets exactly the answer it would have got alone (numbers or 409). Where objects
 * already carry numbers ahead of the counter, a batch needs one gap for all its numbers, so
 * gaps too small for it are skipped: numbers may be left unused, never duplicated.
 *
 * The statement's transaction records one audit event per request it served (see
 * NumbersRepository.reserve): a request that got no numbers has none.
 */
@Injectable()
export class ReservationBatcher {
  /** Rules with a statement in flight, and the requests that arrived since. */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(@Inject(NumbersRepository) private readonly repository: Pick<NumbersRepository, 'reserve'>) {}

  /** Null when the container has no rule for the class. */
  reserve(container: ContainerRecord, rule: NumberedClass, request: ReservationRequest): Promise<Reservation | null> {
    const key = `${container.id}:${rule.cls}`;
    return new Promise((resolve, reject) => {
      const waiter = { request, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(waiter);
        return;
      }
      this.waiting.set(key, []);
      void this.drain(key, container, rule, [waiter]);
    });
  }

  private async drain(key: string, container: ContainerRecord, rule: NumberedClass, batch: Waiter[]): Promise<void> {
    for (;;) {
      await this.serve(container, rule, batch);
      const next = this.waiting.get(key)!;
      if (next.length === 0) {
        this.waiting.delete(key);
        return;
      }
      this.waiting.set(key, []);
      batch = next;
    }
  }

  /** Settles every waiter of the batch; never throws. */
  private async serve(container: ContainerRecord, rule: NumberedClass, batch: Waiter[]): Promise<void> {
    if (batch.length > 1) {
      let r: Reservation | null;
      try {
        r = await this.repository.reserve(
          container,
          rule,
          batch.map((w) => w.request),
        );
      } catch (e) {
        for (const w of batch) w.reject(e);
        return;
      }
      if (!r || r.reserved) {
        let start = r?.start ?? 0n;
        for (const w of batch) {
          w.resolve(r && { ...r, start });
          start += BigInt(w.request.count);
        }
        return;
      }
    }
    for (const w of batch) {
      try {
        w.resolve(await this.repository.reserve(container, rule, [w.request]));
      } catch (e) {
        w.reject(e);
      }
    }
  }
}
