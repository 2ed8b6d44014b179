import type { AuthUser } from './auth-user.js';
import type { OidcAuth } from './oidc/oidc-auth.js';
import { BearerAuth, isBearer, parseBearer } from './bearer-auth.js';
import type { TokenAuthService } from './tokens/token-auth.service.js';

describe('Bearer credentials', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer  pdm_pat_x', 'pdm_pat_x'],
    ['BEARER abc ', 'abc'],
    ['Bearer', null],
    ['Bearer ', null],
    ['Bearer a b', null],
    ['Bearer\tabc', null],
    ['Basic abc', null],
  ])('parses %j as %j', (header, credential) => {
    expect(parseBearer(header)).toBe(credential);
  });

  it('tells the Bearer scheme from Basic', () => {
    expect([
      isBearer('Bearer x'),
      isBearer('bearer'),
      isBearer('Basic x'),
      isBearer('Bearerx'),
      isBearer(undefined),
    ]).toEqual([true, true, false, false, false]);
  });

  it('sends personal access tokens and JWTs to their verifiers and refuses any other bearer credential', async () => {
    const user = { id: 1, name: 'u', admin: false, fullName: null, email: null, via: 'token' } as AuthUser;
    const seen: string[] = [];
    const tokens = {
      authenticate: (token: string) => {
        seen.push(token);
        return Promise.resolve(user);
      },
    } as unknown as TokenAuthService;
    const oidc = {
      authenticate: (jwt: string) => {
        seen.push(`jwt ${jwt}`);
        return Promise.resolve(user);
      },
    } as unknown as OidcAuth;
    const bearer = new BearerAuth(tokens, oidc);
    await expect(bearer.authenticate('Bearer pdm_pat_abc', '127.0.0.1')).resolves.toBe(user);
    await expect(bearer.authenticate('Bearer eyJhbGciOi.x.y', '127.0.0.1')).resolves.toBe(user);
    expect(seen).toEqual(['pdm_pat_abc', 'jwt eyJhbGciOi.x.y']);
    expect(() => bearer.authenticate('Bearer opaque-credential', '127.0.0.1')).toThrow(
      'a Bearer credential must be a personal access token (pdm_pat_…) or a JWT of a configured identity provider',
    );
    expect(() => bearer.authenticate('Bearer', '127.0.0.1')).toThrow(
      'a Bearer credential is required after the scheme',
    );
  });
});
