import { DEFAULT_LIFECYCLE_JSON, parseLifecycle, parseStateList, type Lifecycle } from './lifecycle.js';
import type { LogLevel } from '../common/logger.js';
import {
  basePath,
  bool,
  databaseUrl,
  DEFAULT_GATEWAY_BASE_PATH,
  gatewayBasePath,
  intIn,
  logLevel,
  optionalBool,
  optionalIntIn,
  parseSize,
  publicUrl,
  text,
  trustProxy,
  type ConfigSpec,
} from './config-parsers.js';
import { EVENTS_SPEC, type EventsConfig } from './events-config.js';
import { FILES_SPEC, filesStoreProblems, type FilesConfig } from './files-config.js';
import { loadOidcConfig, type OidcConfig } from './oidc-config.js';
import { timeoutProblems } from './timeout-config.js';
import { ROOT_ROUTES, SERVICE_ROUTES } from '../common/service-routes.js';

export { parseSize } from './config-parsers.js';
export { FILES_STORES, type FilesStoreName } from './files-config.js';
export type { OidcIssuerConfig } from './oidc-config.js';

/** Most usage links one iteration holds unless OBJECTS_MAX_LINKS says otherwise (also the import's default). */
export const DEFAULT_OBJECTS_MAX_LINKS = 10_000;

/**
 * Runtime configuration, read once from the environment and validated at start-up.
 * A bad value stops the start with a message listing every bad variable.
 */
export interface AppConfig extends FilesConfig, OidcConfig, EventsConfig {
  port: number;
  host: string;
  /** PostgreSQL connection string; empty means "start the embedded database". */
  databaseUrl: string;
  /**
   * Set by the start-up when it started the embedded database (PGlite) and put its address in
   * `databaseUrl`; never read from the environment. PGlite cannot take COPY FROM.
   */
  embeddedDatabase: boolean;
  /** A streaming replica of DATABASE_URL for reads that may lag (docs/deployment.md); empty: none. */
  databaseReplicaUrl: string;
  /**
   * Which proxies in front may name the client address (X-Forwarded-For), as Express's
   * `trust proxy`: a number of hops, or addresses and subnets; false: none (the socket's address).
   */
  trustProxy: false | number | string[];
  /** Prefix for every route, e.g. "/pdm"; empty for none. */
  basePath: string;
  /** Absolute base address used in links (url fields); derived from the request when empty. */
  publicUrl: string;
  /**
   * Where clients of the original gateway send their requests (docs/gateway.md), e.g.
   * "/Windchill/servlet/nexiles/tools": its addresses are aliases of the routes under basePath.
   * Empty: no such aliases.
   */
  gatewayBasePath: string;
  jsonBodyLimit: number;
  xmlBodyLimit: number;
  dbPoolMax: number;
  dataDir: string;
  authCacheTtlMs: number;
  authFailureLimit: number;
  authFailureWindowMs: number;
  /** Listen for the database's notices on users and failure counts (off on the embedded database). */
  authNotices: boolean;
  /** Longest lifetime of a personal access token, in days. */
  authTokenMaxDays: number;
  /** Tokens in use (not revoked, not expired) a user may have at once. */
  authTokenLimit: number;
  /** Longest wait on SIGTERM for the requests in flight; longer than the longest database wait of a request. */
  shutdownTimeoutMs: number;
  /** Apply pending migrations at start-up. */
  migrateOnStart: boolean;
  /** Load the demo data into an empty database; null: only on the embedded database. */
  seedDemoData: boolean | null;
  /** TCP port of the embedded PostgreSQL; 0 picks a free one. */
  embeddedPgPort: number;
  logLevel: LogLevel;
  /** Longest a statement may run before PostgreSQL cancels it; 0 = no limit. */
  dbStatementTimeoutMs: number;
  /** Longest wait for a new database connection. */
  dbConnectTimeoutMs: number;
  /**
   * A read on the replica that has not answered this long has the replica checked, on a new
   * connection given as long; a replica that does not answer that is set aside (read-replica.ts).
   */
  dbReplicaTimeoutMs: number;
  /**
   * Longest a change waits for another change of the same object (in turn on this instance, then
   * for its row in PostgreSQL) before it is answered 503 with Retry-After.
   */
  dbLockTimeoutMs: number;
  /** A pooled connection unused this long is closed (0: kept open). */
  dbPoolIdleTimeoutMs: number;
  /** Most rows a report returns; a longer result is cut and marked truncated. */
  reportMaxRows: number;
  /** A report query running longer is cancelled in PostgreSQL and answered 504. */
  reportTimeoutMs: number;
  /** Report statements each connection keeps prepared (least recently used dropped); 0: none. */
  reportPreparedStatements: number;
  /** Query sessions idle longer than this expire. */
  querySessionTtlMs: number;
  querySessionsPerUser: number;
  /** Largest page size (`limit`) of the query service. */
  queryMaxLimit: number;
  /** Most numbers one POST /numbers/generate request may reserve. */
  numbersMaxCount: number;
  /** Most nodes one structure or where-used answer holds. */
  objectsStructureMaxNodes: number;
  /** Which lifecycle state may follow which; the first is where new objects start (src/objects/versioned/lifecycle.ts). */
  objectsLifecycle: Lifecycle;
  /** Lifecycle states whose objects get no new iteration, only a new revision. */
  objectsReleasedStates: ReadonlySet<string>;
  /** Most usage links one iteration holds. */
  objectsMaxLinks: number;
  /** Bytes of request bodies held in memory at once, across all requests (503 past it). */
  bodyMemoryBudget: number;
  /** Longest wait for a request's headers. */
  httpHeadersTimeoutMs: number;
  /** Longest time to receive a whole request, body included. */
  httpRequestTimeoutMs: number;
  /**
   * A connection that sends or receives nothing for this long is closed; longer than the longest
   * database wait of a request (timeout-config.ts), which a connection waiting for its answer spends idle.
   */
  httpIdleTimeoutMs: number;
  /** Reports one user may run at once (429 past it); 0: no limit. */
  reportMaxConcurrentPerUser: number;
  /**
   * Connections of an instance's report pool a user's second and further concurrent reports
   * leave free for users running none there (429 past it); null: a quarter of DB_POOL_MAX (see
   * reservedReportConnections).
   */
  reportPoolReserved: number | null;
  /** Most tables (aliases) one QML template may name. */
  reportMaxTables: number;
  /** Most select items one QML template may have. */
  reportMaxSelectItems: number;
  /** Most values in all the lists (inOperator, IN lists) of one template together. */
  reportMaxListValues: number;
  /** Deepest nesting of conditions (and/or/not) in one template. */
  reportMaxNesting: number;
  /** CSV cells starting with = + - @ (or tab, CR) are prefixed with ' so spreadsheets do not run them. */
  csvNeutralizeFormulas: boolean;
  /** How long the catalog's user-declared types are used before catalog_types is checked again (0: every use). */
  catalogCheckIntervalMs: number;
}

const SPEC: ConfigSpec<Omit<AppConfig, 'embeddedDatabase' | keyof OidcConfig>> = {
  port: ['PORT', '3000', intIn(0, 65535)],
  host: ['HOST', '0.0.0.0', text],
  databaseUrl: ['DATABASE_URL', '', databaseUrl],
  databaseReplicaUrl: ['DATABASE_REPLICA_URL', '', databaseUrl],
  trustProxy: ['TRUST_PROXY', '', trustProxy],
  basePath: ['BASE_PATH', '', basePath],
  publicUrl: ['PUBLIC_URL', '', publicUrl],
  gatewayBasePath: ['GATEWAY_BASE_PATH', DEFAULT_GATEWAY_BASE_PATH, gatewayBasePath],
  // A JSON body is held whole in memory (BODY_MEMORY_BUDGET): large files go raw, streamed.
  jsonBodyLimit: ['JSON_BODY_LIMIT', '16mb', parseSize],
  xmlBodyLimit: ['XML_BODY_LIMIT', '1mb', parseSize],
  dbPoolMax: ['DB_POOL_MAX', '10', intIn(1, 1000)],
  dataDir: ['DATA_DIR', './data', text],
  authCacheTtlMs: ['AUTH_CACHE_TTL_MS', '60000', intIn(0, 86_400_000)],
  authFailureLimit: ['AUTH_FAILURE_LIMIT', '5', intIn(1, 1_000_000)],
  authFailureWindowMs: ['AUTH_FAILURE_WINDOW_MS', '60000', intIn(1000, 86_400_000)],
  authNotices: ['AUTH_NOTICES', 'true', bool],
  authTokenMaxDays: ['AUTH_TOKEN_MAX_DAYS', '365', intIn(1, 36_500)],
  authTokenLimit: ['AUTH_TOKEN_LIMIT', '50', intIn(1, 100_000)],
  shutdownTimeoutMs: ['SHUTDOWN_TIMEOUT_MS', '60000', intIn(0, 600_000)],
  migrateOnStart: ['MIGRATE_ON_START', 'true', bool],
  seedDemoData: ['SEED_DEMO_DATA', '', optionalBool],
  embeddedPgPort: ['EMBEDDED_PG_PORT', '0', intIn(0, 65535)],
  logLevel: ['LOG_LEVEL', 'info', logLevel],
  dbStatementTimeoutMs: ['DB_STATEMENT_TIMEOUT_MS', '30000', intIn(0, 86_400_000)],
  dbConnectTimeoutMs: ['DB_CONNECT_TIMEOUT_MS', '5000', intIn(100, 600_000)],
  dbReplicaTimeoutMs: ['DB_REPLICA_TIMEOUT_MS', '2000', intIn(100, 600_000)],
  dbLockTimeoutMs: ['DB_LOCK_TIMEOUT_MS', '3000', intIn(1, 600_000)],
  dbPoolIdleTimeoutMs: ['DB_POOL_IDLE_TIMEOUT_MS', '30000', intIn(0, 86_400_000)],
  reportMaxRows: ['REPORT_MAX_ROWS', '100000', intIn(1, 10_000_000)],
  reportTimeoutMs: ['REPORT_TIMEOUT_MS', '30000', intIn(1, 3_600_000)],
  reportPreparedStatements: ['REPORT_PREPARED_STATEMENTS', '100', intIn(0, 10_000)],
  numbersMaxCount: ['NUMBERS_MAX_COUNT', '10000', intIn(1, 1_000_000)],
  objectsStructureMaxNodes: ['OBJECTS_STRUCTURE_MAX_NODES', '10000', intIn(1, 1_000_000)],
  objectsLifecycle: ['OBJECTS_LIFECYCLE', DEFAULT_LIFECYCLE_JSON, parseLifecycle],
  objectsReleasedStates: ['OBJECTS_RELEASED_STATES', 'RELEASED', parseStateList],
  objectsMaxLinks: ['OBJECTS_MAX_LINKS', String(DEFAULT_OBJECTS_MAX_LINKS), intIn(1, 10_000_000)],
  ...FILES_SPEC,
  ...EVENTS_SPEC,
  querySessionTtlMs: ['QUERY_SESSION_TTL_MS', '600000', intIn(1, 86_400_000)],
  querySessionsPerUser: ['QUERY_MAX_SESSIONS_PER_USER', '20', intIn(1, 100_000)],
  queryMaxLimit: ['QUERY_MAX_LIMIT', '1000', intIn(1, 100_000)],
  bodyMemoryBudget: ['BODY_MEMORY_BUDGET', '64mb', parseSize],
  httpHeadersTimeoutMs: ['HTTP_HEADERS_TIMEOUT_MS', '10000', intIn(1000, 600_000)],
  httpRequestTimeoutMs: ['HTTP_REQUEST_TIMEOUT_MS', '300000', intIn(1000, 86_400_000)],
  httpIdleTimeoutMs: ['HTTP_IDLE_TIMEOUT_MS', '60000', intIn(1000, 3_600_000)],
  reportMaxConcurrentPerUser: ['REPORT_MAX_CONCURRENT_PER_USER', '3', intIn(0, 1000)],
  reportPoolReserved: ['REPORT_POOL_RESERVED', '', optionalIntIn(0, 1000)],
  reportMaxTables: ['REPORT_MAX_TABLES', '100', intIn(1, 1000)],
  reportMaxSelectItems: ['REPORT_MAX_SELECT_ITEMS', '1000', intIn(1, 1600)],
  reportMaxListValues: ['REPORT_MAX_LIST_VALUES', '10000', intIn(1, 60_000)],
  reportMaxNesting: ['REPORT_MAX_NESTING', '32', intIn(1, 200)],
  csvNeutralizeFormulas: ['CSV_NEUTRALIZE_FORMULAS', 'true', bool],
  catalogCheckIntervalMs: ['CATALOG_CHECK_INTERVAL_MS', '1000', intIn(0, 3_600_000)],
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const out: Partial<Record<keyof AppConfig, unknown>> = { embeddedDatabase: false };
  for (const key of Object.keys(SPEC) as (keyof typeof SPEC)[]) {
    const [name, fallback, parse] = SPEC[key];
    const raw = env[name] ?? fallback;
    try {
      out[key] = parse(raw);
    } catch (e) {
      problems.push(`${name}: ${(e as Error).message}`);
    }
  }
  Object.assign(out, loadOidcConfig(env, problems));
  if (out.databaseReplicaUrl && out.databaseUrl === '') {
    problems.push('DATABASE_REPLICA_URL: needs DATABASE_URL (the embedded database has no replica)');
  }
  if (!problems.length) problems.push(...gatewayProblems(out as AppConfig));
  if (!problems.length) problems.push(...filesStoreProblems(out as AppConfig));
  if (!problems.length) problems.push(...timeoutProblems(out as AppConfig));
  if (!problems.length && env.OBJECTS_RELEASED_STATES === undefined) {
    // The default names RELEASED where the lifecycle has it: a lifecycle of other states releases none.
    const lifecycle = (out as AppConfig).objectsLifecycle;
    out.objectsReleasedStates = new Set(
      [...(out as AppConfig).objectsReleasedStates].filter((s) => lifecycle.transitions.has(s)),
    );
  }
  if (!problems.length) problems.push(...releasedProblems(out as AppConfig));
  if (problems.length) throw new ConfigError(problems);
  return out as AppConfig;
}

/**
 * The gateway addresses are rewritten to the routes under BASE_PATH before those are matched: they
 * must not take over any of them (GATEWAY_BASE_PATH at or inside BASE_PATH's own routes), nor
 * BASE_PATH lie under the gateway path. Routes match without regard to case, so the check does.
 */
export function gatewayProblems(c: Pick<AppConfig, 'basePath' | 'gatewayBasePath'>): string[] {
  const gateway = c.gatewayBasePath.toLowerCase();
  const base = c.basePath.toLowerCase();
  if (!gateway) return [];
  const shown = `"${c.gatewayBasePath}"`;
  if (gateway === base) {
    return [`GATEWAY_BASE_PATH: ${shown} is BASE_PATH; the gateway addresses need a path of their own`];
  }
  if (base.startsWith(`${gateway}/`)) {
    return [`GATEWAY_BASE_PATH: ${shown} holds BASE_PATH ("${c.basePath}"); choose a path outside it`];
  }
  const inside = base === '' ? gateway : gateway.startsWith(`${base}/`) ? gateway.slice(base.length) : null;
  const first = inside?.split('/')[1];
  const taken = [...SERVICE_ROUTES.map((s) => s.name), ...ROOT_ROUTES];
  if (first !== undefined && taken.includes(first)) {
    return [
      `GATEWAY_BASE_PATH: ${shown} lies in the service's own routes (${c.basePath}/${first}/…); choose a path outside them`,
    ];
  }
  return [];
}

/** Released states are states of the lifecycle. */
function releasedProblems(c: AppConfig): string[] {
  const unknown = [...c.objectsReleasedStates].filter((s) => !c.objectsLifecycle.transitions.has(s));
  const states = [...c.objectsLifecycle.transitions.keys()].join(', ');
  return unknown.length
    ? [`OBJECTS_RELEASED_STATES: ${unknown.join(', ')} not a state of OBJECTS_LIFECYCLE (${states})`]
    : [];
}

/** Injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
