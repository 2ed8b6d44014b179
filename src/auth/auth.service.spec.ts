import { loadConfig } from '../config/app-config.js';
import { AuthService } from './auth.service.js';
import { hashPassword } from './password.js';
import type { UserRecord, UsersRepository } from './users.repository.js';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

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
  };
  const service = new AuthService(
    users as unknown as UsersRepository,
    loadConfig({ AUTH_CACHE_TTL_MS: String(ttlMs), ...env }),
  );
  return { service, users, record };
}

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

  it('answers a cached caller synchronously, without a promise', async () => {
    const { service } = await serviceWith(60_000);
    await service.authenticate(basic('erin:erin-pw'), 'a');
    const again = service.authenticate(basic('erin:erin-pw'), 'a');
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ id: 7, name: 'erin' });
  });

  it('re-verifies an entry in use shortly before it expires, and notices a disabled user', async () => {
    const { service, users, record } = await serviceWith(1000);
    await service.authenticate(basic('erin:erin-pw'), 'a');
    await new Promise((r) => setTimeout(r, 800));
    record.disabled = true;
    await service.authenticate(basic('erin:erin-pw'), 'a'); // still cached; starts the refresh
    await new Promise((r) => setTimeout(r, 400));
    expect(users.lookups).toBe(2);
    await expect(service.authenticate(basic('erin:erin-pw'), 'a')).rejects.toMatchObject({ status: 401 });
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
    const answers = Array.from({ length: 10 }, (_, i) =>
      settle(() => service.authenticate(basic(`erin:guess-${i}`), 'a')),
    );
    await new Promise((r) => setImmediate(r));
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
    expect(service.authenticate(basic('erin:erin-pw'), 'victim')).toMatchObject({ id: 7 });
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
