import { jest } from '@jest/globals';
import { Clock } from '../common/clock.js';
import { loadConfig } from '../config/app-config.js';
import type { AuthNoticeHandlers, AuthNotices } from './auth-notices.js';
import { AuthService } from './auth.service.js';
import { keys } from './failure-throttle.js';
import type { OidcAuth } from './oidc/oidc-auth.js';
import type { FailureThrottle } from './failure-throttle.js';
import { hashPassword } from './password.js';
import type { UserRecord, UsersRepository } from './users.repository.js';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

/**
 * The throttle's rules over a map instead of its table (test/auth has the table's own tests):
 * attempts reserved per (name, address) and per address, refunded when right.
 */
class MemoryThrottle {
  private readonly counts = new Map<string, number>();
  constructor(
    private readonly limit: number,
    private readonly users: { findById(id: number): Promise<UserRecord | null> },
  ) {}
  retryAfter(name: string, address: string): Promise<number> {
    return Promise.resolve(this.wait(name, address));
  }
  /** The wait and the user's row, as the one statement of the real throttle answers them. */
  async confirm(name: string, address: string, userId: number): Promise<{ wait: number; row: UserRecord | null }> {
    return { wait: this.wait(name, address), row: await this.users.findById(userId) };
  }
  /** Checks and counts in one step, as the table's function does. */
  reserve(name: string, address: string): Promise<number> {
    const wait = this.wait(name, address);
    if (wait === 0) for (const k of [`${name}@${address}`, address]) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    return Promise.resolve(wait);
  }
  private wait(name: string, address: string): number {
    const full = (this.counts.get(`${name}@${address}`) ?? 0) >= this.limit;
    return full || (this.counts.get(address) ?? 0) >= this.limit * 10 ? 60 : 0;
  }
  /** Counts attempts as another instance would, without a notice reaching this one. */
  countElsewhere(name: string, address: string, n: number): void {
    for (const k of [`${name}@${address}`, address]) this.counts.set(k, (this.counts.get(k) ?? 0) + n);
  }
  refund(name: string, address: string): Promise<void> {
    this.counts.delete(`${name}@${address}`);
    this.counts.set(address, Math.max(0, (this.counts.get(address) ?? 0) - 1));
    return Promise.resolve();
  }
}

/** The database's notices, sent by the test: live or not as it says. */
class FakeNotices {
  live = false;
  handlers!: AuthNoticeHandlers;
  subscribe(h: AuthNoticeHandlers) {
    this.handlers = h;
  }
  /** Starts (or restarts) listening. */
  resume() {
    this.handlers.resumed();
    this.live = true;
  }
}

/** The service over an in-memory user table that counts its lookups. */
async function serviceWith(ttlMs: number, env: Record<string, string> = {}) {
  const record: UserRecord = {
    id: 7,
    name: 'erin',
    passwordHash: await hashPassword('erin-pw'),
    admin: false,
    fullName: 'Erin',
    email: null,
    disabled: false,
  };
  const users = {
    lookups: 0,
    /** While set, every lookup waits for it: the test decides when checks under way finish. */
    gate: null as Promise<void> | null,
    async findByName(name: string) {
      this.lookups++;
      if (this.gate) await this.gate;
      return name === record.name ? record : null;
    },
    /** Reads of the row that confirm a cached check. */
    confirmations: 0,
    async findById(id: number) {
      this.confirmations++;
      return id === record.id ? { ...record } : null;
    },
  };
  const config = loadConfig({ AUTH_CACHE_TTL_MS: String(ttlMs), ...env });
  const throttle = new MemoryThrottle(config.authFailureLimit, users) as unknown as FailureThrottle;
  const notices = new FakeNotices();
  const service = new AuthService(
    users as unknown as UsersRepository,
    throttle,
    config,
    notices as unknown as AuthNotices,
    new Clock(),
    { enabled: false, forgetUser: () => undefined } as unknown as OidcAuth,
  );
  return { service, users, record, notices, throttle: throttle as unknown as MemoryThrottle };
}

/** A client connection (the request's socket, as AuthGuard passes it). */
const connection = () => ({});

describe('AuthService', () => {
  it('shares one verification among simultaneous first requests and caches it', async () => {
    const { service, users } = await serviceWith(60_000);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => service.authenticate(basic('erin:erin-pw'), 'a')),
    );
    expect(results.every((u) => u.id === 7 && u.name === 'erin')).toBe(true);
    expect(users.lookups).toBe(1);
    await service.authenticate(basic('erin:erin-pw'), 'a');
    expect(users.lookups).toBe(1);
  });

  it('lets a caller share a check under way from another address when its own address is throttled there', async () => {
    const { service, users } = await serviceWith(60_000, { AUTH_FAILURE_LIMIT: '2' });
    for (let i = 0; i < 2; i++) await settle(() => service.authenticate(basic(`erin:guess-${i}`), 'mallory'));
    const lookups = users.lookups;
    // The same right credentials at once from the throttled address and from another one.
    const [fromMallory, fromVictim] = await Promise.all([
      settle(() => service.authenticate(basic('erin:erin-pw'), 'mallory')),
      service.authenticate(basic('erin:erin-pw'), 'victim'),
    ]);
    expect(fromMallory.status).toBe(429);
    expect(fromVictim).toMatchObject({ id: 7 });
    expect(users.lookups).toBe(lookups + 1);
  });

  it("confirms a cached check against the user's row, without checking the password again", async () => {
    const { service, users } = await serviceWith(60_000);
    await service.authenticate(basic('erin:erin-pw'), 'a');
    await expect(service.authenticate(basic('erin:erin-pw'), 'a')).resolves.toMatchObject({ id: 7, name: 'erin' });
    expect({ lookups: users.lookups, confirmations: users.confirmations }).toEqual({ lookups: 1, confirmations: 1 });
  });

  it('drops a cached check at once when the password, the name or the disabled flag changed', async () => {
    for (const change of [
      async (r: UserRecord) => (r.passwordHash = await hashPassword('new-pw')),
      (r: UserRecord) => (r.disabled = true),
      (r: UserRecord) => (r.name = 'erin2'),
    ]) {
      const { service, record } = await serviceWith(60_000);
      await service.authenticate(basic('erin:erin-pw'), 'a');
      await change(record);
      await expect(service.authenticate(basic('erin:erin-pw'), 'a')).rejects.toMatchObject({ status: 401 });
    }
  });

  it('takes a changed admin flag from the row at the next request', async () => {
    const { service, record, users } = await serviceWith(60_000);
    record.admin = true;
    await service.authenticate(basic('erin:erin-pw'), 'a');
    record.admin = false;
    await expect(service.authenticate(basic('erin:erin-pw'), 'a')).resolves.toMatchObject({ admin: false });
    expect(users.lookups).toBe(1);
  });

  it('re-verifies an entry in use shortly before it expires', async () => {
    // The clocks are moved instead of waited for; the check's own work (scrypt) runs as usual.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const { service, users } = await serviceWith(1000);
      await service.authenticate(basic('erin:erin-pw'), 'a');
      jest.advanceTimersByTime(800);
      await service.authenticate(basic('erin:erin-pw'), 'a'); // still cached; starts the refresh
      expect(users.lookups).toBe(2);
      // Past the first check's expiry: answered by the refresh (shared while under way), not a new lookup.
      jest.advanceTimersByTime(400);
      await expect(service.authenticate(basic('erin:erin-pw'), 'a')).resolves.toMatchObject({ id: 7 });
      await expect(service.authenticate(basic('erin:erin-pw'), 'a')).resolves.toMatchObject({ id: 7 });
      expect(users.lookups).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not cache failures', async () => {
    const { service, users } = await serviceWith(60_000);
    await expect(service.authenticate(basic('erin:wrong'), 'a')).rejects.toMatchObject({ status: 401 });
    await expect(service.authenticate(basic('erin:wrong'), 'a')).rejects.toMatchObject({ status: 401 });
    expect(users.lookups).toBe(2);
  });

  it('counts a guess before checking it: parallel guesses get no more checks than the limit', async () => {
    const { service, users } = await serviceWith(60_000, { AUTH_FAILURE_LIMIT: '3' });
    let open!: () => void;
    users.gate = new Promise((r) => (open = r));
    // Ten different wrong guesses all start before the first check has finished.
    let answered = 0;
    const answers = Array.from({ length: 10 }, (_, i) =>
      settle(() => service.authenticate(basic(`erin:guess-${i}`), 'a')).finally(() => answered++),
    );
    // The seven past the limit are answered while the three checks still wait at the gate.
    for (let i = 0; i < 1000 && answered < 7; i++) await new Promise((r) => setImmediate(r));
    expect(answered).toBe(7);
    expect(users.lookups).toBe(3);
    open();
    const statuses = (await Promise.all(answers)).map((e) => e.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(users.lookups).toBe(3);
  });

  it('gives a right password its attempt back', async () => {
    const { service } = await serviceWith(0, { AUTH_FAILURE_LIMIT: '3' });
    for (let i = 0; i < 2; i++) await settle(() => service.authenticate(basic('erin:wrong'), 'a'));
    for (let i = 0; i < 5; i++)
      await expect(service.authenticate(basic('erin:erin-pw'), 'a')).resolves.toMatchObject({ id: 7 });
    for (let i = 0; i < 3; i++)
      expect((await settle(() => service.authenticate(basic('erin:x'), 'a'))).status).toBe(401);
    expect((await settle(() => service.authenticate(basic('erin:x'), 'a'))).status).toBe(429);
  });

  it('answers a throttled caller 429 for the right password too, even while it is cached', async () => {
    const { service, users } = await serviceWith(60_000, { AUTH_FAILURE_LIMIT: '3' });
    await service.authenticate(basic('erin:erin-pw'), 'victim');
    for (let i = 0; i < 3; i++) await settle(() => service.authenticate(basic(`erin:guess-${i}`), 'mallory'));
    const lookups = users.lookups;
    for (const password of ['guess-4', 'erin-pw']) {
      const e = await settle(() => service.authenticate(basic(`erin:${password}`), 'mallory'));
      expect({ password, status: e.status, retryAfter: e.headers?.['Retry-After'] }).toEqual({
        password,
        status: 429,
        retryAfter: '60',
      });
    }
    expect(users.lookups).toBe(lookups);
    // The signed-in user at their own address is not affected.
    await expect(service.authenticate(basic('erin:erin-pw'), 'victim')).resolves.toMatchObject({ id: 7 });
  });

  describe('while the database notices are received', () => {
    it('uses a trusted cached check with no statement, and confirms it again after a notice on the user', async () => {
      const { service, users, notices, record } = await serviceWith(60_000);
      const conn = connection();
      notices.resume();
      await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      for (let i = 0; i < 5; i++) await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      expect(users.confirmations).toBe(0);
      notices.handlers.user(record.id);
      record.admin = true;
      expect((await service.authenticate(basic('erin:erin-pw'), 'a', conn)).admin).toBe(true);
      expect(users.confirmations).toBe(1);
      await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      expect(users.confirmations).toBe(1);
      // A notice on another user changes nothing for erin.
      notices.handlers.user(record.id + 1);
      await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      expect(users.confirmations).toBe(1);
    });

    it('skips the statement only on a connection that signed in with those credentials from that address', async () => {
      const { service, users, notices } = await serviceWith(60_000);
      notices.resume();
      const own = connection();
      await service.authenticate(basic('erin:erin-pw'), 'a', own);
      // Another connection, a request without one: each reads the counts and the row first.
      await service.authenticate(basic('erin:erin-pw'), 'a', connection());
      await service.authenticate(basic('erin:erin-pw'), 'a');
      expect(users.confirmations).toBe(2);
      await service.authenticate(basic('erin:erin-pw'), 'a', own);
      expect(users.confirmations).toBe(2);
      // The same connection naming another client address (a proxy's, carrying several clients).
      await service.authenticate(basic('erin:erin-pw'), 'b', own);
      expect(users.confirmations).toBe(3);
      expect(users.lookups).toBe(1);
    });

    it('answers a right guess 429 once the counts are at the limit, before any notice or failure here', async () => {
      const { service, notices, throttle } = await serviceWith(60_000, { AUTH_FAILURE_LIMIT: '3' });
      notices.resume();
      const victim = connection();
      await service.authenticate(basic('erin:erin-pw'), 'a', victim);
      // Guesses on another instance brought (erin, a) to its limit; the notice has not come yet.
      throttle.countElsewhere('erin', 'a', 3);
      const wrong = await settle(() => service.authenticate(basic('erin:guess'), 'a', connection()));
      const right = await settle(() => service.authenticate(basic('erin:erin-pw'), 'a', connection()));
      expect([wrong.status, right.status]).toEqual([429, 429]);
      expect(right.headers).toEqual(wrong.headers);
      // The 429 given here marks the pair: the victim's own connection is confirmed from now on too.
      expect((await settle(() => service.authenticate(basic('erin:erin-pw'), 'a', victim))).status).toBe(429);
    });

    it('refuses the old password once the notice of a changed one came', async () => {
      const { service, notices, record } = await serviceWith(60_000);
      notices.resume();
      await service.authenticate(basic('erin:erin-pw'), 'a');
      record.passwordHash = await hashPassword('new-pw-1');
      notices.handlers.user(record.id);
      expect((await settle(() => service.authenticate(basic('erin:erin-pw'), 'a'))).status).toBe(401);
    });

    it('confirms every cached check once after listening resumed, and all of them while it is down', async () => {
      const { service, users, notices } = await serviceWith(60_000);
      const conn = connection();
      notices.resume();
      await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      notices.live = false;
      await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      expect(users.confirmations).toBe(2);
      notices.resume();
      await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      expect(users.confirmations).toBe(3);
    });

    it('does not trust a check read while a notice came', async () => {
      const { service, users, notices, record } = await serviceWith(60_000);
      const conn = connection();
      notices.resume();
      let release!: () => void;
      users.gate = new Promise((r) => (release = r));
      const first = service.authenticate(basic('erin:erin-pw'), 'a', conn);
      await new Promise((r) => setImmediate(r));
      notices.handlers.user(record.id);
      release();
      users.gate = null;
      await first;
      await service.authenticate(basic('erin:erin-pw'), 'a', conn);
      expect(users.confirmations).toBe(1);
    });

    it('confirms cached checks of a (user, address) with a recent failure here, or a count at its limit elsewhere', async () => {
      const { service, users, notices } = await serviceWith(60_000, { AUTH_FAILURE_LIMIT: '3' });
      const [onA, onB, onC] = [connection(), connection(), connection()];
      notices.resume();
      await service.authenticate(basic('erin:erin-pw'), 'a', onA);
      await service.authenticate(basic('erin:erin-pw'), 'b', onB);
      await service.authenticate(basic('erin:erin-pw'), 'c', onC);
      expect(users.confirmations).toBe(2);
      expect((await settle(() => service.authenticate(basic('erin:wrong-pw'), 'a'))).status).toBe(401);
      await service.authenticate(basic('erin:erin-pw'), 'a', onA);
      expect(users.confirmations).toBe(3);
      await service.authenticate(basic('erin:erin-pw'), 'b', onB);
      expect(users.confirmations).toBe(3);
      // Another instance's guesses brought the pair (erin, b) to its limit.
      notices.handlers.throttled(keys('erin', 'b').pair.toString('hex'), Date.now() + 60_000);
      await service.authenticate(basic('erin:erin-pw'), 'b', onB);
      expect(users.confirmations).toBe(4);
      // A limit whose window has passed is forgotten.
      notices.handlers.throttled(keys('erin', 'c').address.toString('hex'), Date.now() - 1);
      await service.authenticate(basic('erin:erin-pw'), 'c', onC);
      await service.authenticate(basic('erin:erin-pw'), 'c', onC);
      expect(users.confirmations).toBe(4);
    });
  });
});

/** The error an authentication ends with (thrown at once or rejected later). */
async function settle(run: () => unknown): Promise<{ status?: number; headers?: Record<string, string> }> {
  try {
    await run();
  } catch (e) {
    return {
      status: (e as { getStatus(): number }).getStatus(),
      headers: (e as { headers?: Record<string, string> }).headers,
    };
  }
  return {};
}
