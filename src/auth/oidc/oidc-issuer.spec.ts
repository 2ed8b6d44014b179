import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import type { OidcIssuerConfig } from '../../config/oidc-config.js';
import { HttpErrorWithHeaders } from '../../common/http-errors.js';
import { OidcIssuer } from './oidc-issuer.js';

/**
 * The issuer's checks against a discovery document and key set served on loopback; the
 * end-to-end tests (test/auth/oidc.e2e-spec.ts) run them against a real provider.
 */
describe('OidcIssuer', () => {
  let server: Server;
  let base: string;
  let key: CryptoKey;
  /** What the discovery document says the issuer is (a test changes it). */
  let documentIssuer: string | undefined;
  const now = new Date('2026-11-27T12:00:00Z');
  const nowS = Math.floor(now.getTime() / 1000);

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    key = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration')
        res.end(JSON.stringify({ issuer: documentIssuer ?? base, jwks_uri: `${base}/jwks` }));
      else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [jwk] }));
      else res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const issuer = (change: Partial<OidcIssuerConfig> = {}) =>
    new OidcIssuer(
      {
        issuer: base,
        audience: 'pdm',
        userClaim: 'preferred_username',
        groupsClaim: '',
        createUsers: false,
        clockSkewS: 60,
        ...change,
      },
      { jwksCooldownMs: 0 },
    );
  const token = (claims: JWTPayload, header: Record<string, unknown> = {}) =>
    new SignJWT({ iss: base, aud: 'pdm', iat: nowS, exp: nowS + 300, preferred_username: 'alice', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', ...header })
      .sign(key);

  /** The status and message of what verify threw. */
  async function refusal(p: Promise<unknown>): Promise<[number, string]> {
    const e = await p.then(
      () => new Error('accepted'),
      (err: unknown) => err,
    );
    if (!(e instanceof HttpErrorWithHeaders)) throw e;
    return [e.getStatus(), e.message];
  }

  it('accepts a valid token and gives its claims', async () => {
    await expect(issuer().verify(await token({}), now)).resolves.toMatchObject({ preferred_username: 'alice' });
  });

  it('allows the clock skew on exp and nbf, not more', async () => {
    const late = await token({ exp: nowS - 30 });
    await expect(issuer().verify(late, now)).resolves.toMatchObject({ preferred_username: 'alice' });
    expect(await refusal(issuer({ clockSkewS: 10 }).verify(late, now))).toEqual([401, 'the token has expired']);
    const early = await token({ nbf: nowS + 120 });
    expect(await refusal(issuer().verify(early, now))).toEqual([401, 'the token is not valid yet (nbf)']);
  });

  it('needs an expiry', async () => {
    expect(await refusal(issuer().verify(await token({ exp: undefined }), now))).toEqual([
      401,
      'the token has no expiry (exp)',
    ]);
  });

  it('takes an audience among several', async () => {
    const t = await token({ aud: ['other', 'pdm'] });
    await expect(issuer().verify(t, now)).resolves.toMatchObject({ aud: ['other', 'pdm'] });
  });

  it('refuses a malformed token', async () => {
    expect(await refusal(issuer().verify('bm90IGpzb24.e30.', now))).toEqual([
      401,
      'the token is malformed: its header is not base64url-encoded JSON',
    ]);
  });

  it('refuses to use a discovery document about another issuer, and says so with 503', async () => {
    documentIssuer = 'https://elsewhere.example.com';
    try {
      const [status, message] = await refusal(issuer().verify(await token({}), now));
      expect(status).toBe(503);
      expect(message).toBe(
        `the identity provider ${base} cannot be used now: its discovery document names the issuer "https://elsewhere.example.com", not "${base}"`,
      );
    } finally {
      documentIssuer = undefined;
    }
  });
});
