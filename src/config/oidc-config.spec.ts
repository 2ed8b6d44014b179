import { loadConfig } from './app-config.js';

const ISSUER = 'https://login.example.com/realms/pdm';

describe('OpenID Connect configuration', () => {
  it('is off unless an issuer is configured', () => {
    expect(loadConfig({})).toMatchObject({ oidcIssuers: [], oidcJwksCooldownMs: 30_000 });
  });

  it('reads one issuer from OIDC_ISSUER and its companions, with defaults', () => {
    expect(loadConfig({ OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: 'pdm' }).oidcIssuers).toEqual([
      {
        issuer: ISSUER,
        audience: 'pdm',
        userClaim: 'preferred_username',
        groupsClaim: '',
        createUsers: false,
        clockSkewS: 60,
      },
    ]);
    const c = loadConfig({
      OIDC_ISSUER: ISSUER,
      OIDC_AUDIENCE: 'api://pdm',
      OIDC_USER_CLAIM: 'upn',
      OIDC_GROUPS_CLAIM: 'groups',
      OIDC_CREATE_USERS: 'true',
      OIDC_CLOCK_SKEW_S: '0',
      OIDC_JWKS_COOLDOWN_MS: '1000',
    });
    expect(c.oidcIssuers).toEqual([
      {
        issuer: ISSUER,
        audience: 'api://pdm',
        userClaim: 'upn',
        groupsClaim: 'groups',
        createUsers: true,
        clockSkewS: 0,
      },
    ]);
    expect(c.oidcJwksCooldownMs).toBe(1000);
  });

  it('reads several issuers from OIDC_ISSUERS', () => {
    const c = loadConfig({
      OIDC_ISSUERS: JSON.stringify([
        { issuer: ISSUER, audience: 'pdm', groupsClaim: 'groups' },
        {
          issuer: 'https://login.microsoftonline.com/tenant/v2.0',
          audience: 'api://pdm',
          userClaim: 'upn',
          createUsers: true,
          clockSkewS: 30,
        },
      ]),
    });
    expect(c.oidcIssuers).toEqual([
      {
        issuer: ISSUER,
        audience: 'pdm',
        userClaim: 'preferred_username',
        groupsClaim: 'groups',
        createUsers: false,
        clockSkewS: 60,
      },
      {
        issuer: 'https://login.microsoftonline.com/tenant/v2.0',
        audience: 'api://pdm',
        userClaim: 'upn',
        groupsClaim: '',
        createUsers: true,
        clockSkewS: 30,
      },
    ]);
  });

  it('needs an audience, and https except on this machine', () => {
    expect(() => loadConfig({ OIDC_ISSUER: ISSUER })).toThrow('OIDC_AUDIENCE: is needed');
    expect(() => loadConfig({ OIDC_ISSUER: 'http://login.example.com', OIDC_AUDIENCE: 'pdm' })).toThrow(
      'OIDC_ISSUER: "http://login.example.com" must be an https URL (http only for localhost)',
    );
    expect(() => loadConfig({ OIDC_ISSUER: 'login.example.com', OIDC_AUDIENCE: 'pdm' })).toThrow(
      'OIDC_ISSUER: "login.example.com" is not a URL',
    );
    expect(loadConfig({ OIDC_ISSUER: 'http://127.0.0.1:8080', OIDC_AUDIENCE: 'pdm' }).oidcIssuers[0].issuer).toBe(
      'http://127.0.0.1:8080',
    );
    expect(
      loadConfig({ OIDC_ISSUER: 'http://localhost:8080/realms/x', OIDC_AUDIENCE: 'pdm' }).oidcIssuers,
    ).toHaveLength(1);
  });

  it('names every bad variable', () => {
    const bad = () =>
      loadConfig({
        OIDC_ISSUER: ISSUER,
        OIDC_AUDIENCE: 'pdm',
        OIDC_CREATE_USERS: 'yes',
        OIDC_CLOCK_SKEW_S: '3600',
        OIDC_JWKS_COOLDOWN_MS: 'soon',
      });
    expect(bad).toThrow('OIDC_CREATE_USERS: "yes" is not true or false');
    expect(bad).toThrow('OIDC_CLOCK_SKEW_S: "3600" is not a number of seconds between 0 and 600');
    expect(bad).toThrow('OIDC_JWKS_COOLDOWN_MS: "soon" is not an integer between 0 and 3600000');
  });

  it('refuses companions without an issuer, and both ways at once', () => {
    expect(() => loadConfig({ OIDC_AUDIENCE: 'pdm', OIDC_CREATE_USERS: 'true' })).toThrow(
      'OIDC_AUDIENCE, OIDC_CREATE_USERS: needs OIDC_ISSUER (the identity provider)',
    );
    expect(() =>
      loadConfig({ OIDC_ISSUER: ISSUER, OIDC_ISSUERS: JSON.stringify([{ issuer: ISSUER, audience: 'pdm' }]) }),
    ).toThrow('OIDC_ISSUERS: give either OIDC_ISSUERS or OIDC_ISSUER, not both');
  });

  it('says what is wrong with OIDC_ISSUERS', () => {
    const load = (v: unknown) => () => loadConfig({ OIDC_ISSUERS: typeof v === 'string' ? v : JSON.stringify(v) });
    expect(load('[{')).toThrow('OIDC_ISSUERS: is not JSON');
    expect(load({ issuer: ISSUER })).toThrow('OIDC_ISSUERS: is not a non-empty JSON array of issuer objects');
    expect(load([])).toThrow('OIDC_ISSUERS: is not a non-empty JSON array of issuer objects');
    expect(load(['x'])).toThrow('OIDC_ISSUERS[0]: is not an object');
    expect(load([{ issuer: ISSUER, audience: 'pdm', aud: 'x' }])).toThrow(
      'OIDC_ISSUERS[0]: unknown field aud (fields: issuer, audience, userClaim, groupsClaim, createUsers, clockSkewS)',
    );
    expect(load([{ issuer: ISSUER, audience: 'pdm', createUsers: 1 }])).toThrow(
      'OIDC_ISSUERS[0].createUsers: "1" is not true or false',
    );
    expect(load([{ issuer: ISSUER, audience: 7 }])).toThrow('OIDC_ISSUERS[0].audience: is not a string');
    expect(load([{ audience: 'pdm' }])).toThrow('OIDC_ISSUERS[0].issuer: is needed');
    expect(
      load([
        { issuer: ISSUER, audience: 'pdm' },
        { issuer: ISSUER, audience: 'other' },
      ]),
    ).toThrow(`OIDC_ISSUERS[1].issuer: "${ISSUER}" is given twice`);
  });
});
