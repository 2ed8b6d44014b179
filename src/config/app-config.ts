import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOG_LEVELS, type LogLevel } from '../common/logger.js';
import { DEFAULT_LIFECYCLE_JSON, parseLifecycle, parseStateList, type Lifecycle } from '../objects/lifecycle.js';

/** Most usage links one iteration holds unless OBJECTS_MAX_LINKS says otherwise (also the import's default). */
export const DEFAULT_OBJECTS_MAX_LINKS = 10_000;

/**
 * Runtime configuration, read once from the environment and validated at start-up.
 * A bad value stops the start with a message listing every bad variable.
 */
export interface AppConfig {
  port: number;
  host: string;
  /** PostgreSQL connection string; empty means "start the embedded database". */
  databaseUrl: string;
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
  jsonBodyLimit: number;
  xmlBodyLimit: number;
  dbPoolMax: number;
  dataDir: string;
  authCacheTtlMs: number;
  authFailureLimit: number;
  authFailureWindowMs: number;
  /** Listen for the database's notices on users and failure counts (off on the embedded database). */
  authNotices: boolean;
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
  /** Which lifecycle state may follow which; the first is where new objects start (src/objects/lifecycle.ts). */
  objectsLifecycle: Lifecycle;
  /** Lifecycle states whose objects get no new iteration, only a new revision. */
  objectsReleasedStates: ReadonlySet<string>;
  /** Most usage links one iteration holds. */
  objectsMaxLinks: number;
  /** Largest file the file service stores (413 past it); see docs/files.md for JSON_BODY_LIMIT. */
  filesMaxSize: number;
  /** How often file bytes no file uses any more are deleted (after an hour's grace); 0 = never. */
  filesSweepIntervalMs: number;
  /**
   * Bytes in the vault or S3 that no content_blobs row names are removed by the sweep's walk of
   * the store once written longer ago than this (longer than any upload takes).
   */
  filesStoreSweepGraceMs: number;
  /** Blobs that walk lists per second at most; 0: no walk. */
  filesStoreSweepRate: number;
  /** Bytes of recently downloaded small files kept in memory; 0 = none. */
  filesCacheSize: number;
  /** Largest file kept in that cache (at most 64 MiB). */
  filesCacheMaxFile: number;
  /** Where larger files read lately are kept on local disk. */
  filesDiskCacheDir: string;
  /** Bytes of files kept there; 0 = none. */
  filesDiskCacheSize: number;
  /** Where new file bytes are written (see docs/files.md); reads follow each blob's recorded store. */
  filesStore: FilesStoreName;
  /** The vault directory of the filesystem store; empty when none is configured. */
  filesVaultDir: string;
  /** The S3-compatible service: endpoint URL (empty: AWS S3), region, bucket (empty: none configured). */
  filesS3Endpoint: string;
  filesS3Region: string;
  filesS3Bucket: string;
  /** Credentials; both empty: the AWS SDK's default chain (environment, profile, instance role). */
  filesS3AccessKeyId: string;
  filesS3SecretAccessKey: string;
  /** Path-style addressing (endpoint/bucket/key), which MinIO, Ceph and most self-hosted services need. */
  filesS3ForcePathStyle: boolean;
  /** Prepended to every object key, e.g. "pdm/blobs/". */
  filesS3Prefix: string;
  /** Bytes of request bodies held in memory at once, across all requests (503 past it). */
  bodyMemoryBudget: number;
  /** Longest wait for a request's headers. */
  httpHeadersTimeoutMs: number;
  /** Longest time to receive a whole request, body included. */
  httpRequestTimeoutMs: number;
  /** A connection that sends or receives nothing for this long is closed. */
  httpIdleTimeoutMs: number;
  /** Reports one user may run at once (429 past it); 0: no limit. */
  reportMaxConcurrentPerUser: number;
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

export const FILES_STORES = ['postgres', 'filesystem', 's3'] as const;
export type FilesStoreName = (typeof FILES_STORES)[number];

type Parser<T> = (raw: string) => T;

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** "10mb", "512kb", "1048576" → bytes. */
export function parseSize(raw: string): number {
  const m = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  if (!m) throw new Error(`"${raw}" is not a size (use e.g. 1048576, 512kb, 10mb)`);
  const n = Number(m[1]) * SIZE_UNITS[(m[2] ?? 'b').toLowerCase()];
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`"${raw}" is not a positive size`);
  return n;
}

/** A size of at most `max` bytes. */
function sizeUpTo(max: number): Parser<number> {
  return (raw) => {
    const n = parseSize(raw);
    if (n > max) throw new Error(`"${raw}" is more than ${max / 1024 ** 2} MiB`);
    return n;
  };
}

/** Like parseSize, but 0 is allowed (it turns the feature off). */
function sizeOrZero(raw: string): number {
  return /^0+\s*(b|kb|mb|gb)?$/i.test(raw.trim()) ? 0 : parseSize(raw);
}

function intIn(min: number, max: number): Parser<number> {
  return (raw) => {
    if (!/^\d+$/.test(raw.trim())) throw new Error(`"${raw}" is not an integer`);
    const n = Number(raw);
    if (n < min || n > max) throw new Error(`${n} is not between ${min} and ${max}`);
    return n;
  };
}

const text: Parser<string> = (raw) => raw.trim();

function bool(raw: string): boolean {
  const v = raw.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new Error(`"${raw}" is not true or false`);
}

function optionalBool(raw: string): boolean | null {
  return raw.trim() === '' ? null : bool(raw);
}

function logLevel(raw: string): LogLevel {
  const v = raw.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(v))
    throw new Error(`"${raw}" is not one of ${LOG_LEVELS.join(', ')}`);
  return v as LogLevel;
}

function basePath(raw: string): string {
  const p = raw.trim().replace(/\/+$/, '');
  if (p === '') return '';
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(p)) throw new Error(`"${raw}" is not a path like /pdm`);
  return p;
}

function databaseUrl(raw: string): string {
  const v = raw.trim();
  if (v === '') return '';
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new Error('is not a URL (postgresql://user:password@host:5432/database)');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new Error('must start with postgresql://');
  }
  return v;
}

const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(raw: string): false | number | string[] {
  const v = raw.trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) throw new Error(`${v} hops: at most 10`);
    return hops;
  }
  const entries = v.split(',').map((e) => e.trim());
  for (const e of entries) {
    const [address, bits, extra] = e.split('/');
    const subnetOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
    if (!PROXY_RANGES.includes(e) && (extra !== undefined || !isIP(address) || !subnetOk)) {
      throw new Error(
        `"${e}" is not a number of hops, an address, a subnet (10.0.0.0/8), loopback, linklocal or uniquelocal`,
      );
    }
  }
  return entries;
}

function filesStore(raw: string): FilesStoreName {
  const v = raw.trim().toLowerCase();
  if (!(FILES_STORES as readonly string[]).includes(v))
    throw new Error(`"${raw}" is not one of ${FILES_STORES.join(', ')}`);
  return v as FilesStoreName;
}

function optionalHttpUrl(raw: string): string {
  const v = raw.trim();
  if (v !== '') publicUrl(v);
  return v;
}

function s3Prefix(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('/') || /[\\\x00-\x1f]/.test(v)) throw new Error(`"${raw}" is not a key prefix like pdm/blobs/`);
  return v;
}

function publicUrl(raw: string): string {
  const v = raw.trim().replace(/\/+$/, '');
  if (v === '') return '';
  try {
    const url = new URL(v);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    throw new Error('is not an http(s) URL');
  }
  return v;
}

const SPEC: { [K in keyof AppConfig]: [string, string, Parser<AppConfig[K]>] } = {
  port: ['PORT', '3000', intIn(0, 65535)],
  host: ['HOST', '0.0.0.0', text],
  databaseUrl: ['DATABASE_URL', '', databaseUrl],
  databaseReplicaUrl: ['DATABASE_REPLICA_URL', '', databaseUrl],
  trustProxy: ['TRUST_PROXY', '', trustProxy],
  basePath: ['BASE_PATH', '', basePath],
  publicUrl: ['PUBLIC_URL', '', publicUrl],
  // A JSON body is held whole in memory (BODY_MEMORY_BUDGET): large files go raw, streamed.
  jsonBodyLimit: ['JSON_BODY_LIMIT', '16mb', parseSize],
  xmlBodyLimit: ['XML_BODY_LIMIT', '1mb', parseSize],
  dbPoolMax: ['DB_POOL_MAX', '10', intIn(1, 1000)],
  dataDir: ['DATA_DIR', './data', text],
  authCacheTtlMs: ['AUTH_CACHE_TTL_MS', '60000', intIn(0, 86_400_000)],
  authFailureLimit: ['AUTH_FAILURE_LIMIT', '5', intIn(1, 1_000_000)],
  authFailureWindowMs: ['AUTH_FAILURE_WINDOW_MS', '60000', intIn(1000, 86_400_000)],
  authNotices: ['AUTH_NOTICES', 'true', bool],
  shutdownTimeoutMs: ['SHUTDOWN_TIMEOUT_MS', '10000', intIn(0, 600_000)],
  migrateOnStart: ['MIGRATE_ON_START', 'true', bool],
  seedDemoData: ['SEED_DEMO_DATA', '', optionalBool],
  embeddedPgPort: ['EMBEDDED_PG_PORT', '0', intIn(0, 65535)],
  logLevel: ['LOG_LEVEL', 'info', logLevel],
  dbStatementTimeoutMs: ['DB_STATEMENT_TIMEOUT_MS', '120000', intIn(0, 86_400_000)],
  dbConnectTimeoutMs: ['DB_CONNECT_TIMEOUT_MS', '5000', intIn(100, 600_000)],
  dbPoolIdleTimeoutMs: ['DB_POOL_IDLE_TIMEOUT_MS', '30000', intIn(0, 86_400_000)],
  reportMaxRows: ['REPORT_MAX_ROWS', '100000', intIn(1, 10_000_000)],
  reportTimeoutMs: ['REPORT_TIMEOUT_MS', '30000', intIn(1, 3_600_000)],
  reportPreparedStatements: ['REPORT_PREPARED_STATEMENTS', '100', intIn(0, 10_000)],
  numbersMaxCount: ['NUMBERS_MAX_COUNT', '10000', intIn(1, 1_000_000)],
  objectsStructureMaxNodes: ['OBJECTS_STRUCTURE_MAX_NODES', '10000', intIn(1, 1_000_000)],
  objectsLifecycle: ['OBJECTS_LIFECYCLE', DEFAULT_LIFECYCLE_JSON, parseLifecycle],
  objectsReleasedStates: ['OBJECTS_RELEASED_STATES', 'RELEASED', parseStateList],
  objectsMaxLinks: ['OBJECTS_MAX_LINKS', String(DEFAULT_OBJECTS_MAX_LINKS), intIn(1, 10_000_000)],
  filesMaxSize: ['FILES_MAX_SIZE', '100mb', parseSize],
  filesSweepIntervalMs: ['FILES_SWEEP_INTERVAL_MS', '3600000', intIn(0, 604_800_000)],
  filesStoreSweepGraceMs: ['FILES_STORE_SWEEP_GRACE_MS', '86400000', intIn(3_600_000, 2_592_000_000)],
  filesStoreSweepRate: ['FILES_STORE_SWEEP_RATE', '1000', intIn(0, 1_000_000)],
  filesCacheSize: ['FILES_CACHE_SIZE', '64mb', sizeOrZero],
  // Such a file is read whole into memory before it is sent: kept small.
  filesCacheMaxFile: ['FILES_CACHE_MAX_FILE', '4mb', sizeUpTo(64 * 1024 ** 2)],
  filesDiskCacheDir: ['FILES_DISK_CACHE_DIR', join(tmpdir(), 'pdm-file-cache'), text],
  filesDiskCacheSize: ['FILES_DISK_CACHE_SIZE', '1gb', sizeOrZero],
  filesStore: ['FILES_STORE', 'postgres', filesStore],
  filesVaultDir: ['FILES_VAULT_DIR', '', text],
  filesS3Endpoint: ['FILES_S3_ENDPOINT', '', optionalHttpUrl],
  filesS3Region: ['FILES_S3_REGION', 'us-east-1', text],
  filesS3Bucket: ['FILES_S3_BUCKET', '', text],
  filesS3AccessKeyId: ['FILES_S3_ACCESS_KEY_ID', '', text],
  filesS3SecretAccessKey: ['FILES_S3_SECRET_ACCESS_KEY', '', text],
  filesS3ForcePathStyle: ['FILES_S3_FORCE_PATH_STYLE', 'false', bool],
  filesS3Prefix: ['FILES_S3_PREFIX', '', s3Prefix],
  querySessionTtlMs: ['QUERY_SESSION_TTL_MS', '600000', intIn(1, 86_400_000)],
  querySessionsPerUser: ['QUERY_MAX_SESSIONS_PER_USER', '20', intIn(1, 100_000)],
  queryMaxLimit: ['QUERY_MAX_LIMIT', '1000', intIn(1, 100_000)],
  bodyMemoryBudget: ['BODY_MEMORY_BUDGET', '64mb', parseSize],
  httpHeadersTimeoutMs: ['HTTP_HEADERS_TIMEOUT_MS', '10000', intIn(1000, 600_000)],
  httpRequestTimeoutMs: ['HTTP_REQUEST_TIMEOUT_MS', '300000', intIn(1000, 86_400_000)],
  httpIdleTimeoutMs: ['HTTP_IDLE_TIMEOUT_MS', '30000', intIn(1000, 3_600_000)],
  reportMaxConcurrentPerUser: ['REPORT_MAX_CONCURRENT_PER_USER', '3', intIn(0, 1000)],
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
  const out: Partial<Record<keyof AppConfig, unknown>> = {};
  for (const key of Object.keys(SPEC) as (keyof AppConfig)[]) {
    const [name, fallback, parse] = SPEC[key];
    const raw = env[name] ?? fallback;
    try {
      out[key] = parse(raw);
    } catch (e) {
      problems.push(`${name}: ${(e as Error).message}`);
    }
  }
  if (out.databaseReplicaUrl && out.databaseUrl === '') {
    problems.push('DATABASE_REPLICA_URL: needs DATABASE_URL (the embedded database has no replica)');
  }
  if (!problems.length) problems.push(...filesStoreProblems(out as AppConfig));
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

/** Released states are states of the lifecycle. */
function releasedProblems(c: AppConfig): string[] {
  const unknown = [...c.objectsReleasedStates].filter((s) => !c.objectsLifecycle.transitions.has(s));
  const states = [...c.objectsLifecycle.transitions.keys()].join(', ');
  return unknown.length
    ? [`OBJECTS_RELEASED_STATES: ${unknown.join(', ')} not a state of OBJECTS_LIFECYCLE (${states})`]
    : [];
}

/** What the chosen file store needs besides its name. */
function filesStoreProblems(c: AppConfig): string[] {
  const problems: string[] = [];
  if (c.filesStore !== 'postgres' && c.databaseUrl === '') {
    problems.push(
      `FILES_STORE: "${c.filesStore}" needs DATABASE_URL; the embedded database keeps file bytes in PostgreSQL only (FILES_STORE=postgres)`,
    );
  }
  if (c.filesStore === 'filesystem' && c.filesVaultDir === '') {
    problems.push('FILES_VAULT_DIR: needed with FILES_STORE=filesystem (the vault directory, e.g. a shared volume)');
  }
  if (c.filesStore === 's3' && c.filesS3Bucket === '') {
    problems.push('FILES_S3_BUCKET: needed with FILES_STORE=s3');
  }
  if (c.filesStoreSweepGraceMs <= c.httpRequestTimeoutMs) {
    problems.push(
      `FILES_STORE_SWEEP_GRACE_MS: ${c.filesStoreSweepGraceMs} must be longer than HTTP_REQUEST_TIMEOUT_MS (${c.httpRequestTimeoutMs}), which an upload may take`,
    );
  }
  if ((c.filesS3AccessKeyId === '') !== (c.filesS3SecretAccessKey === '')) {
    problems.push('FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY: give both or neither');
  }
  return problems;
}

/** Injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
