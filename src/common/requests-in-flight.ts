import type { NextFunction, Request, Response } from 'express';

/** How long the average of requests in flight remembers (ms): its time constant. */
const MEMORY_MS = 1000;

/**
 * How many requests this process is answering, averaged over about the last second (an
 * exponential moving average weighted by time). Background work (event delivery) asks it whether
 * the instance is busy answering requests, to yield to them. A request that only waits (a long
 * poll) says so, and does not count while it waits.
 */
export class RequestsInFlight {
  private now = 0;
  private average = 0;
  private at: number;

  constructor(private readonly clock: () => number = () => performance.now()) {
    this.at = clock();
  }

  enter(): void {
    this.settle();
    this.now += 1;
  }

  leave(): void {
    this.settle();
    this.now = Math.max(0, this.now - 1);
  }

  /** The request stops counting until the returned function is called (it waits, using nothing). */
  waiting(): () => void {
    this.leave();
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      this.enter();
    };
  }

  /** Requests in flight, averaged over about the last second. */
  load(): number {
    this.settle();
    return this.average;
  }

  private settle(): void {
    const t = this.clock();
    const dt = t - this.at;
    this.at = t;
    if (dt > 0) this.average = this.now + (this.average - this.now) * Math.exp(-dt / MEMORY_MS);
  }
}

/** The process's requests (one HTTP server per process; tests that start several share it harmlessly). */
export const requestsInFlight = new RequestsInFlight();

/** Express middleware: counts each request from its arrival until its answer is sent or abandoned. */
export function countRequestsInFlight(req: Request, res: Response, next: NextFunction): void {
  requestsInFlight.enter();
  res.once('close', () => requestsInFlight.leave());
  next();
}
