import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
  type ProtectedHeaderParameters,
  type RemoteJWKSet,
} from 'jose';
import type { OidcIssuerConfig } from '../../config/oidc-config.js';
import { invalidToken, providerUnavailable, shown } from './oidc-errors.js';

/**
 * The signature algorithms accepted: asymmetric only. `none` and the HMAC ones (HS*) are refused
 * before any key is looked at, so a token "signed" with the issuer's public key as an HMAC secret
 * cannot pass.
 */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** Longest wait for the discovery document or the key set. */
const FETCH_TIMEOUT_MS = 5_000;
/** After a failed discovery, requests are answered 503 at once for this long before it is tried again. */
const DISCOVERY_RETRY_MS = 5_000;
/** How long a discovery document is used before it is read again (its jwks_uri may move). */
const DISCOVERY_TTL_MS = 3_600_000;

export interface IssuerOptions {
  /** See OidcConfig.oidcJwksCooldownMs. */
  jwksCooldownMs: number;
}

/**
 * One configured issuer: its discovery document, read when its first token comes and kept for an
 * hour, and its key set (jose's remote key set: kept for ten minutes, fetched again at once when
 * a token names a key id it does not hold, unless it was fetched within the cooldown; that is how
 * rotated keys are picked up).
 */
export class OidcIssuer {
  private jwks?: { set: RemoteJWKSet; uri: string; readAt: number };
  private discovering?: Promise<RemoteJWKSet>;
  private failure?: { until: number; message: string };

  constructor(
    readonly config: OidcIssuerConfig,
    private readonly options: IssuerOptions,
  ) {}

  /** The token's verified claims, or the 401 (503 when the issuer could not be asked) saying why not. */
  async verify(jwt: string, now: Date): Promise<JWTPayload> {
    const header = protectedHeader(jwt);
    if (typeof header.alg !== 'string' || !ASYMMETRIC_ALGORITHMS.includes(header.alg)) {
      throw invalidToken(
        `the token's signature algorithm "${shown(String(header.alg))}" is not accepted: only asymmetric signatures (RS*, PS*, ES*, EdDSA)`,
      );
    }
    const keys = await this.keys();
    try {
      const { payload } = await jwtVerify(jwt, keys, {
        issuer: this.config.issuer,
        audience: this.config.audience,
        clockTolerance: this.config.clockSkewS,
        algorithms: ASYMMETRIC_ALGORITHMS,
        requiredClaims: ['exp'],
        currentDate: now,
      });
      return payload;
    } catch (e) {
      throw this.refusal(e, header);
    }
  }

  private keys(): Promise<RemoteJWKSet> {
    const now = Date.now();
    if (this.jwks && now - this.jwks.readAt < DISCOVERY_TTL_MS) return Promise.resolve(this.jwks.set);
    // A stale document is still used while a fresh one is read, or when it cannot be.
    if (this.failure && now < this.failure.until) {
      if (this.jwks) return Promise.resolve(this.jwks.set);
      return Promise.reject(providerUnavailable(this.failure.message));
    }
    this.discovering ??= this.discover().finally(() => (this.discovering = undefined));
    return this.jwks ? this.discovering.catch(() => this.jwks!.set) : this.discovering;
  }

  private async discover(): Promise<RemoteJWKSet> {
    const url = `${this.config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    let uri: string;
    try {
      uri = jwksUri(await fetchJson(url), this.config.issuer);
    } catch (e) {
      const message = `the identity provider ${this.config.issuer} cannot be used now: ${(e as Error).message}`;
      this.failure = { until: Date.now() + DISCOVERY_RETRY_MS, message };
      throw providerUnavailable(message);
    }
    this.failure = undefined;
    const set =
      this.jwks?.uri === uri
        ? this.jwks.set
        : createRemoteJWKSet(new URL(uri), {
            timeoutDuration: FETCH_TIMEOUT_MS,
            cooldownDuration: this.options.jwksCooldownMs,
          });
    this.jwks = { set, uri, readAt: Date.now() };
    return set;
  }

  /** What was wrong with a token jose refused, as the 401 (or 503) to answer. */
  private refusal(e: unknown, header: ProtectedHeaderParameters): Error {
    if (e instanceof errors.JWTExpired) return invalidToken('the token has expired');
    if (e instanceof errors.JWTClaimValidationFailed) {
      if (e.claim === 'aud')
        return invalidToken(`the token is not meant for this service: its audience is not "${this.config.audience}"`);
      if (e.claim === 'nbf') return invalidToken('the token is not valid yet (nbf)');
      if (e.claim === 'iss') return invalidToken('the token comes from another issuer');
      if (e.claim === 'exp') return invalidToken('the token has no expiry (exp)');
      return invalidToken(`the token's ${e.claim} claim is not valid (${e.reason})`);
    }
    if (e instanceof errors.JOSEAlgNotAllowed) return invalidToken("the token's signature algorithm is not accepted");
    if (e instanceof errors.JWKSNoMatchingKey)
      return invalidToken(
        `no key of ${this.config.issuer} has the token's key id "${shown(String(header.kid ?? ''))}"`,
      );
    if (e instanceof errors.JWKSMultipleMatchingKeys)
      return invalidToken(`several keys of ${this.config.issuer} match the token; it must name its key id (kid)`);
    if (e instanceof errors.JWSSignatureVerificationFailed) return invalidToken("the token's signature is not valid");
    if (e instanceof errors.JWSInvalid || e instanceof errors.JWTInvalid || e instanceof errors.JOSENotSupported)
      return invalidToken(`the token is malformed: ${e.message}`);
    // The key set could not be fetched or read (timeout, network, not a key set).
    const reason = e instanceof Error ? e.message : String(e);
    return providerUnavailable(`the keys of the identity provider ${this.config.issuer} cannot be read now: ${reason}`);
  }
}

function protectedHeader(jwt: string): ProtectedHeaderParameters {
  try {
    return decodeProtectedHeader(jwt);
  } catch {
    throw invalidToken('the token is malformed: its header is not base64url-encoded JSON');
  }
}

/** The document at `url` as JSON, within the timeout; an Error saying what went wrong. */
async function fetchJson(url: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw new Error(`${url} did not answer (${cause ?? (e as Error).name})`);
  }
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  try {
    return await res.json();
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
}

/** The discovery document's jwks_uri, once it is known to be about `issuer`. */
function jwksUri(doc: unknown, issuer: string): string {
  const d = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  if (d.issuer !== issuer) {
    throw new Error(`its discovery document names the issuer "${shown(String(d.issuer))}", not "${issuer}"`);
  }
  const uri = d.jwks_uri;
  let url: URL | undefined;
  try {
    url = typeof uri === 'string' ? new URL(uri) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && !(url.protocol === 'http:' && new URL(issuer).protocol === 'http:'))) {
    throw new Error('its discovery document has no usable jwks_uri');
  }
  return url.href;
}
