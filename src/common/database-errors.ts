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
  originalMessage?: unknown;
  meta?: { code?: unknown; message?: unknown; driverAdapterError?: { cause?: ErrorLike } };
  cause?: ErrorLike;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return layers(error).some((e) => {
    if (e.name === 'PrismaClientInitializationError') return true;
    if (typeof e.code === 'string') {
      if (UNAVAILABLE_PRISMA_CODES.has(e.code) || UNAVAILABLE_NODE_CODES.has(e.code)) return true;
      if (UNAVAILABLE_SQLSTATES.test(e.code)) return true;
    }
    if (typeof e.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true;
    if (typeof e.originalCode === 'string' && UNAVAILABLE_SQLSTATES.test(e.originalCode)) return true;
    return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message);
  });
}

/** An error and what it wraps (the driver adapter's error, `cause`), outermost first, five levels deep. */
function layers(error: unknown, depth = 0): ErrorLike[] {
  if (!error || typeof error !== 'object' || depth > 4) return [];
  const e = error as ErrorLike;
  return [e, ...layers(e.meta?.driverAdapterError?.cause, depth + 1), ...layers(e.cause, depth + 1)];
}

/** A PostgreSQL error: its SQLSTATE and the server's message. */
export interface SqlState {
  code: string;
  message: string;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
/** Prisma's own codes (P2002 …) have the shape of a SQLSTATE but are none. */
const PRISMA_CODE = /^P\d{4}$/;

/**
 * The PostgreSQL error behind an error from Prisma, its driver adapter or pg, however they
 * wrapped it, or null when there is none. A statement cancelled at its timeout is 57014 also
 * when the layers kept only the message.
 */
export function sqlState(error: unknown): SqlState | null {
  const all = layers(error);
  for (const e of all) {
    const message = messageOf(e);
    for (const code of [e.originalCode, e.code]) {
      if (isSqlState(code)) return { code, message };
    }
    if (isSqlState(e.meta?.code)) {
      return { code: e.meta.code, message: typeof e.meta.message === 'string' ? e.meta.message : message };
    }
  }
  const timedOut = all.map(messageOf).find((m) => /statement timeout/.test(m));
  return timedOut === undefined ? null : { code: '57014', message: timedOut };
}

function messageOf(e: ErrorLike): string {
  return typeof e.originalMessage === 'string' ? e.originalMessage : String(e.message ?? '');
}

function isSqlState(code: unknown): code is string {
  return typeof code === 'string' && SQLSTATE.test(code) && !PRISMA_CODE.test(code);
}

/**
 * Values PostgreSQL refuses as data (a NUL character in text, a number out of range): the
 * caller's input was bad, so these are 400s, whichever endpoint let the value through.
 */
export function badValueMessage(error: unknown): string | null {
  switch (sqlState(error)?.code) {
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
  return prismaCode(error) === 'P2003' || sqlState(error)?.code === '23503';
}

/** What a change that waited DB_LOCK_TIMEOUT_MS for another change of the same object is told (503). */
export const OBJECT_BUSY_MESSAGE = 'another request is changing the same object; retry shortly';

/**
 * A lock wait reached the transaction's lock_timeout (55P03, lock_not_available): the change
 * waited DB_LOCK_TIMEOUT_MS for another of the same object (prisma/object-locks.ts).
 */
export function isLockTimeout(error: unknown): boolean {
  return sqlState(error)?.code === '55P03';
}

/** A unique key refused the change (Prisma's P2002, or 23505 from raw SQL). */
export function isUniqueViolation(error: unknown): boolean {
  return prismaCode(error) === 'P2002' || sqlState(error)?.code === '23505';
}

function prismaCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
