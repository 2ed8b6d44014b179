import { Clock } from '../../common/clock.js';
import type { AuthNoticeHandlers, AuthNotices } from '../auth-notices.js';
import { keys, TOKEN_PSEUDO_NAME, type FailureThrottle } from '../failure-throttle.js';
import type { AccessTokensRepository, TokenCheck } from './access-tokens.repository.js';
import { TokenAuthService } from './token-auth.service.js';
import { newToken } from './token-format.js';

const DAY_MS = 86_400_000;

class MovableClock extends Clock {
  offset = 0;
  override now(): Date {
    return new Date(Date.now() + this.offset);
  }
}

/** The service over one token row kept in memory; counts the statements it makes. */
function setUp(live: boolean) {
  const token = newToken();
  const row: NonNullable<TokenCheck['token']> = {
    id: 3,
    userId: 7,
    scopes: ['read'],
    expiresAt: new Date(Date.now() + DAY_MS),
    revoked: false,
    userName: 'erin',
    admin: true,
    fullName: null,
    email: null,
    disabled: false,
  };
  const db = { checks: 0, wait: 0, audits: [] as string[] };
  const repository = {
    check: (hash: Buffer) => {
      db.checks++;
      return Promise.resolve({ wait: db.wait, token: hash.length === 32 ? { ...row } : null });
    },
    touch: () => Promise.resolve(),
    audit: (e: { action: string }) => {
      db.audits.push(e.action);
      return Promise.resolve();
    },
  };
  const throttle = {
    limits: { pair: 3, address: 30 },
    windowMs: 60_000,
    reserve: () => Promise.resolve(db.wait),
    refund: () => Promise.resolve(),
  };
  let handlers!: AuthNoticeHandlers;
  const notices = { live, subscribe: (h: AuthNoticeHandlers) => (handlers = h) };
  const clock = new MovableClock();
  const service = new TokenAuthService(
    repository as unknown as AccessTokensRepository,
    throttle as unknown as FailureThrottle,
    notices as unknown as AuthNotices,
    clock,
  );
  handlers.resumed();
  return { service, token, row, db, clock, handlers: () => handlers };
}

describe('TokenAuthService', () => {
  it('gives a token no more rights than its scopes: an administrator read token is no administrator', async () => {
    const { service, token } = setUp(true);
    await expect(service.authenticate(token, 'a')).resolves.toEqual({
      id: 7,
      name: 'erin',
      admin: false,
      fullName: null,
      email: null,
      via: 'token',
      tokenId: 3,
      scopes: ['read'],
    });
  });

  it('trusts a verified token without a statement while notices are live; confirms it per request otherwise', async () => {
    const live = setUp(true);
    for (let i = 0; i < 3; i++) await live.service.authenticate(live.token, 'a');
    expect(live.db.checks).toBe(1);
    const strict = setUp(false);
    for (let i = 0; i < 3; i++) await strict.service.authenticate(strict.token, 'a');
    expect(strict.db.checks).toBe(3);
  });

  it('confirms the token once its notice or its user notice came', async () => {
    const { service, token, db, row, handlers } = setUp(true);
    await service.authenticate(token, 'a');
    handlers().token?.(row.id);
    await service.authenticate(token, 'a');
    handlers().user(row.userId);
    await service.authenticate(token, 'a');
    await service.authenticate(token, 'a');
    expect(db.checks).toBe(3);
  });

  it('refuses a cached token past its expiry without a statement, and audits the use once', async () => {
    const { service, token, db, clock } = setUp(true);
    await service.authenticate(token, 'a');
    clock.offset = DAY_MS + 1;
    for (let i = 0; i < 2; i++)
      await expect(service.authenticate(token, 'a')).rejects.toMatchObject({
        status: 401,
        message: 'the personal access token has expired: create a new one',
      });
    expect(db.checks).toBe(1);
    expect(db.audits).toEqual(['auth.token.expired']);
  });

  it('confirms a cached token from an address marked throttled, and answers 429', async () => {
    const { service, token, db, handlers } = setUp(true);
    await service.authenticate(token, 'a');
    db.wait = 30;
    handlers().throttled(keys(TOKEN_PSEUDO_NAME, 'a').pair.toString('hex'), Date.now() + 30_000);
    await expect(service.authenticate(token, 'a')).rejects.toMatchObject({
      status: 429,
      headers: { 'Retry-After': '30' },
    });
    expect(db.checks).toBe(2);
  });

  it('refuses a token with a wrong checksum without looking it up', async () => {
    const { service, token, db } = setUp(true);
    const wrong = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    await expect(service.authenticate(wrong, 'a')).rejects.toMatchObject({ status: 401 });
    expect(db.checks).toBe(0);
  });
});
