import { loadConfig } from '../config/app-config.js';
import { AuthService } from './auth.service.js';
import { hashPassword } from './password.js';
import type { UserRecord, UsersRepository } from './users.repository.js';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

/** The service over an in-memory user table that counts its lookups. */
async function serviceWith(ttlMs: number) {
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
    async findByName(name: string) {
      this.lookups++;
      return name === record.name ? record : null;
    },
  };
  const service = new AuthService(
    users as unknown as UsersRepository,
    loadConfig({ AUTH_CACHE_TTL_MS: String(ttlMs) }),
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
});
