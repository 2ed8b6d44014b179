import { isIP } from 'node:net';

/** One OpenID Connect issuer whose access tokens are accepted as `Authorization: Bearer <JWT>`. */
export interface OidcIssuerConfig {
  /** The issuer exactly as its tokens' `iss` claim and its discovery document name it. */
  issuer: string;
  /** What the token's `aud` must hold: the identifier this service has at the issuer. */
  audience: string;
  /** The claim whose value is the user's name here (users.name). */
  userClaim: string;
  /** The claim listing the user's groups; empty: group memberships are not taken from tokens. */
  groupsClaim: string;
  /** Create a user named by a token who is not known here yet (else 401). */
  createUsers: boolean;
  /** Seconds the issuer's clock may be ahead or behind for exp and nbf. */
  clockSkewS: number;
}

/** The OpenID Connect part of the configuration (docs/oidc.md). */
export interface OidcConfig {
  /** Issuers whose tokens are accepted; none: bearer JWTs are refused. */
  oidcIssuers: OidcIssuerConfig[];
  /**
   * After the issuer's keys were fetched, how long a token with a key id not among them is
   * refused without fetching them again (so a flood of made-up key ids does not reach the issuer).
   */
  oidcJwksCooldownMs: number;
}

const DEFAULTS = { userClaim: 'preferred_username', groupsClaim: '', createUsers: false, clockSkewS: 60 };
const FIELDS = ['issuer', 'audience', 'userClaim', 'groupsClaim', 'createUsers', 'clockSkewS'] as const;
const SINGLE_VARIABLES: Record<(typeof FIELDS)[number], string> = {
  issuer: 'OIDC_ISSUER',
  audience: 'OIDC_AUDIENCE',
  userClaim: 'OIDC_USER_CLAIM',
  groupsClaim: 'OIDC_GROUPS_CLAIM',
  createUsers: 'OIDC_CREATE_USERS',
  clockSkewS: 'OIDC_CLOCK_SKEW_S',
};
const MAX_SKEW_S = 600;
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Reads OIDC_ISSUER and its companions (one issuer) or OIDC_ISSUERS (a JSON array of objects with
 * the fields of OidcIssuerConfig, for several); problems are added to `problems` with the
 * variable they are about.
 */
export function loadOidcConfig(env: NodeJS.ProcessEnv, problems: string[]): OidcConfig {
  const cooldown = (env.OIDC_JWKS_COOLDOWN_MS ?? '30000').trim();
  let oidcJwksCooldownMs = 30_000;
  if (!/^\d+$/.test(cooldown) || Number(cooldown) > 3_600_000)
    problems.push(`OIDC_JWKS_COOLDOWN_MS: "${cooldown}" is not an integer between 0 and 3600000`);
  else oidcJwksCooldownMs = Number(cooldown);

  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const list = (env.OIDC_ISSUERS ?? '').trim();
  const singles = Object.values(SINGLE_VARIABLES).filter(set);
  if (list !== '') {
    if (singles.length) {
      problems.push(`OIDC_ISSUERS: give either OIDC_ISSUERS or ${singles.join(', ')}, not both`);
      return { oidcIssuers: [], oidcJwksCooldownMs };
    }
    return { oidcIssuers: parseIssuerList(list, problems), oidcJwksCooldownMs };
  }
  if (!set('OIDC_ISSUER')) {
    if (singles.length) problems.push(`${singles.join(', ')}: needs OIDC_ISSUER (the identity provider)`);
    return { oidcIssuers: [], oidcJwksCooldownMs };
  }
  const raw = Object.fromEntries(
    FIELDS.filter((f) => set(SINGLE_VARIABLES[f])).map((f) => [f, env[SINGLE_VARIABLES[f]]]),
  );
  const issuer = parseIssuer(raw, (field) => SINGLE_VARIABLES[field], problems);
  return { oidcIssuers: issuer ? [issuer] : [], oidcJwksCooldownMs };
}

function parseIssuerList(list: string, problems: string[]): OidcIssuerConfig[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(list);
  } catch {
    problems.push('OIDC_ISSUERS: is not JSON (an array of objects such as [{"issuer":"https://…","audience":"pdm"}])');
    return [];
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    problems.push('OIDC_ISSUERS: is not a non-empty JSON array of issuer objects');
    return [];
  }
  const out: OidcIssuerConfig[] = [];
  parsed.forEach((entry: unknown, i) => {
    const where = `OIDC_ISSUERS[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where}: is not an object`);
      return;
    }
    const unknown = Object.keys(entry).filter((k) => !(FIELDS as readonly string[]).includes(k));
    if (unknown.length) {
      problems.push(`${where}: unknown field ${unknown.join(', ')} (fields: ${FIELDS.join(', ')})`);
      return;
    }
    const issuer = parseIssuer(entry as Record<string, unknown>, (field) => `${where}.${field}`, problems);
    if (!issuer) return;
    if (out.some((o) => o.issuer === issuer.issuer))
      problems.push(`${where}.issuer: "${issuer.issuer}" is given twice`);
    else out.push(issuer);
  });
  return out;
}

/** One issuer's fields (strings from variables, or JSON values); null when one is bad. */
function parseIssuer(
  raw: Record<string, unknown>,
  name: (field: (typeof FIELDS)[number]) => string,
  problems: string[],
): OidcIssuerConfig | null {
  const before = problems.length;
  const str = (field: 'issuer' | 'audience' | 'userClaim' | 'groupsClaim', fallback?: string): string => {
    const v = raw[field];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (fallback === undefined) problems.push(`${name(field)}: is needed`);
      return fallback ?? '';
    }
    if (typeof v !== 'string') {
      problems.push(`${name(field)}: is not a string`);
      return '';
    }
    return v.trim();
  };
  const issuer = str('issuer');
  if (issuer) {
    const problem = issuerProblem(issuer);
    if (problem) problems.push(`${name('issuer')}: "${issuer}" ${problem}`);
  }
  const audience = str('audience');
  const userClaim = str('userClaim', DEFAULTS.userClaim);
  const groupsClaim = str('groupsClaim', DEFAULTS.groupsClaim);
  const createUsers = boolField(raw.createUsers, DEFAULTS.createUsers, name('createUsers'), problems);
  const clockSkewS = skewField(raw.clockSkewS, name('clockSkewS'), problems);
  if (problems.length > before) return null;
  return { issuer, audience, userClaim, groupsClaim, createUsers, clockSkewS };
}

/**
 * Why an issuer is not acceptable, or null. Its keys are fetched from it, so it must be https:
 * plain http only on this machine (a provider beside the service, or tests).
 */
function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'is not a URL (https://login.example.com/realms/pdm)';
  }
  if (url.search || url.hash) return 'must not have a query or fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (LOOPBACK_NAMES.has(url.hostname) || isLoopbackAddress(url.hostname))) return null;
  return 'must be an https URL (http only for localhost)';
}

function isLoopbackAddress(host: string): boolean {
  return isIP(host) === 4 && host.startsWith('127.');
}

function boolField(v: unknown, fallback: boolean, name: string, problems: string[]): boolean {
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v === 'boolean') return v;
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (s === 'true') return true;
  if (s === 'false') return false;
  problems.push(`${name}: "${String(v)}" is not true or false`);
  return fallback;
}

function skewField(v: unknown, name: string, problems: string[]): number {
  if (v === undefined || v === null || v === '') return DEFAULTS.clockSkewS;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > MAX_SKEW_S) {
    problems.push(`${name}: "${String(v)}" is not a number of seconds between 0 and ${MAX_SKEW_S}`);
    return DEFAULTS.clockSkewS;
  }
  return n;
}
