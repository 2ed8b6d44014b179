import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** The audience the test issuers' tokens have unless a test asks for another. */
export const TEST_AUDIENCE = 'https://pdm.test';
const CLIENT_SECRET = 'client-secret';

/** Per client id, the claims its access tokens carry besides the standard ones. */
export type ClaimsByClient = Record<string, Record<string, unknown>>;

/**
 * A real OpenID provider (the certified oidc-provider package) on 127.0.0.1, for the tests of the
 * bearer token sign-in. Each client may use the client_credentials grant; the resource it asks
 * for is the token's audience and its tokens are JWTs (RS256) carrying that client's claims.
 * `rotate()` replaces the provider by a new one with a new signing key on the same address, as
 * a restarted provider whose keys were rotated.
 */
export class TestIssuer {
  /** The private signing key and the PEM of its public half (for tokens made with it on purpose). */
  key!: { jwk: JWK; publicPem: string; kid: string };
  private handler!: RequestListener;
  private generation = 0;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly claims: ClaimsByClient,
  ) {}

  static async start(claims: ClaimsByClient): Promise<TestIssuer> {
    const server = createServer((req, res) => void t.handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const t = new TestIssuer(server, `http://127.0.0.1:${port}`, claims);
    await t.rotate();
    return t;
  }

  /** A new signing key (and key id); tokens issued from now on are signed with it. */
  async rotate(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = `key-${++this.generation}-${Math.random().toString(36).slice(2, 8)}`;
    const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
    this.key = { jwk, kid, publicPem: await exportSPKI(publicKey) };
    const provider = new Provider(this.issuer, {
      clients: Object.keys(this.claims).map((id) => ({
        client_id: id,
        client_secret: CLIENT_SECRET,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      })),
      adapter: MemoryAdapter,
      jwks: { keys: [jwk] },
      ttl: { ClientCredentials: 300 },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => TEST_AUDIENCE,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource) => ({
            scope: 'api',
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 300,
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      extraTokenClaims: (_ctx, token) => this.claims[(token as { clientId: string }).clientId],
    });
    // Read per request: connections kept alive reach the new provider too.
    this.handler = provider.callback();
  }

  /** An access token of `client` for `audience`, from the provider's token endpoint. */
  async token(client: string, audience = TEST_AUDIENCE): Promise<string> {
    const res = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client}:${CLIENT_SECRET}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', resource: audience }),
    });
    const body = (await res.json()) as { access_token?: string };
    if (res.status !== 200 || !body.access_token) throw new Error(`no token for ${client}: ${JSON.stringify(body)}`);
    return body.access_token;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The provider's storage, in memory (its own one warns on every start that it is for development). */
class MemoryAdapter {
  private static readonly stores = new Map<string, Map<string, Record<string, unknown>>>();
  private readonly store: Map<string, Record<string, unknown>>;

  constructor(name: string) {
    let store = MemoryAdapter.stores.get(name);
    if (!store) MemoryAdapter.stores.set(name, (store = new Map()));
    this.store = store;
  }

  upsert(id: string, payload: Record<string, unknown>): Promise<void> {
    this.store.set(id, payload);
    return Promise.resolve();
  }

  find(id: string): Promise<Record<string, unknown> | undefined> {
    return Promise.resolve(this.store.get(id));
  }

  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  findByUid(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  consume(id: string): Promise<void> {
    const entry = this.store.get(id);
    if (entry) entry.consumed = Math.floor(Date.now() / 1000);
    return Promise.resolve();
  }

  destroy(id: string): Promise<void> {
    this.store.delete(id);
    return Promise.resolve();
  }

  revokeByGrantId(): Promise<void> {
    return Promise.resolve();
  }
}
