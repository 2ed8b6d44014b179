import { jest } from '@jest/globals';
import type { AuthNoticeHandlers, AuthNotices } from '../auth/auth-notices.js';
import type { AppConfig } from '../config/app-config.js';
import { EventWakeups } from './event-wakeups.js';

describe('EventWakeups', () => {
  let handlers: AuthNoticeHandlers | undefined;
  const notices = { subscribe: (h: AuthNoticeHandlers) => (handlers = h) } as unknown as AuthNotices;
  const wakeups = () => new EventWakeups({ eventsPollMs: 60_000 } as AppConfig, notices);

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Whether `p` has settled once pending callbacks ran (no time passes). */
  async function settled(p: Promise<void>): Promise<boolean> {
    let done = false;
    void p.then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    return done;
  }

  it('ends a wait on the notice of committed events, not before', async () => {
    const w = wakeups();
    const wait = w.next(30_000);
    expect(await settled(wait)).toBe(false);
    handlers?.changes?.();
    expect(await settled(wait)).toBe(true);
  });

  it('ends a wait after the shorter of its time and EVENTS_POLL_MS', async () => {
    const w = wakeups();
    const wait = w.next(5_000);
    jest.advanceTimersByTime(4_999);
    expect(await settled(wait)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settled(wait)).toBe(true);
  });

  it('ends a wait when its signal aborts (the client went away), and at once when it already had', async () => {
    const w = wakeups();
    const client = new AbortController();
    const wait = w.next(30_000, client.signal);
    expect(await settled(wait)).toBe(false);
    client.abort();
    expect(await settled(wait)).toBe(true);
    expect(await settled(w.next(30_000, client.signal))).toBe(true);
  });

  it('ends every wait at close and says it is closing', async () => {
    const w = wakeups();
    const wait = w.next(30_000);
    expect(w.closing).toBe(false);
    w.close();
    expect(w.closing).toBe(true);
    expect(await settled(wait)).toBe(true);
  });
});
