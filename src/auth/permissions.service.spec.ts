import type { AuthUser } from './auth-user.js';
import { accessFromRole } from './permissions.service.js';

const user = (admin: boolean, scopes?: AuthUser['scopes']): AuthUser => ({
  id: 1,
  name: 'u',
  admin,
  fullName: null,
  email: null,
  ...(scopes && { via: 'token' as const, scopes }),
});

describe('accessFromRole with personal access tokens', () => {
  it.each([
    ['a password sign-in', user(false), ['none', 'read', 'write', 'manage']],
    ['a write token', user(false, ['read', 'write']), ['none', 'read', 'write', 'manage']],
    ['a read token', user(false, ['read']), ['none', 'read', 'read', 'read']],
  ] as const)('gives %s its role, capped by the scopes', (_name, u, expected) => {
    expect([null, 'reader', 'author', 'manager'].map((r) => accessFromRole(u, r as never))).toEqual(expected);
  });

  it('caps an administrator signed in with a read token at reading', () => {
    // Such a token is no administrator's (admin false); were it one, it would still only read.
    expect(accessFromRole(user(true, ['read']), null)).toBe('read');
    expect(accessFromRole(user(true, ['read', 'write', 'admin']), null)).toBe('manage');
  });
});
