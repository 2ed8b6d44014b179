/**
 * Recognises errors that mean "the database is not there right now" (server down or
 * restarting, connections killed, pool exhausted), whichever layer raised them: the Prisma
 * client, its pg driver adapter, or pg itself. Such requests are answered 503 with
 * Retry-After; the pool reconnects by itself once the server is back.
 */
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'DatabaseDoesNotExist',
]);
// admin_shutdown, crash_shutdown, cannot_connect_now, and the connection exception class 08.
const UNAVAILABLE_SQLSTATES = /^(57P01|57P02|57P03|08\d{3})$/;
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Can't reach database server/i;

interface ErrorLike {
  name?: string;
  code?: unknown;
  message?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  meta?: { driverAdapterError?: { cause?: ErrorLike } };
  cause?: ErrorLike;
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as ErrorLike;
  if (e.name === 'PrismaClientInitializationError') return true;
  if (typeof e.code === 'string') {
    if (UNAVAILABLE_PRISMA_CODES.has(e.code) || UNAVAILABLE_NODE_CODES.has(e.code)) return true;
    if (UNAVAILABLE_SQLSTATES.test(e.code)) return true;
  }
  if (typeof e.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.originalCode === 'string' && UNAVAILABLE_SQLSTATES.test(e.originalCode)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  return (
    isDatabaseUnavailable(e.meta?.driverAdapterError?.cause, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1)
  );
}

/** The PostgreSQL SQLSTATE behind an error from Prisma, its driver adapter or pg, if any. */
export function sqlStateOf(error: unknown, depth = 0): string | null {
  if (!error || typeof error !== 'object' || depth > 4) return null;
  const e = error as ErrorLike;
  for (const code of [e.originalCode, e.code]) {
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^P\d{4}$/.test(code)) return code;
  }
  return sqlStateOf(e.meta?.driverAdapterError?.cause, depth + 1) ?? sqlStateOf(e.cause, depth + 1);
}

/**
 * Values PostgreSQL refuses as data (a NUL character in text, a number out of range): the
 * caller's input was bad, so these are 400s, whichever endpoint let the value through.
 */
export function badValueMessage(error: unknown): string | null {
  switch (sqlStateOf(error)) {
    case '22021':
    case '22P05':
      return 'text values must not contain NUL characters or invalid UTF-8';
    case '22003':
      return 'a number is out of range';
    case '22001':
      return 'a value is too long';
    default:
      return null;
  }
}

/**
 * A foreign key refused the change: it refers to a row another transaction deleted meanwhile, or
 * deletes one that rows committed meanwhile refer to. A race between two callers, answered 409.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2003' || sqlStateOf(error) === '23503';
}
