import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Prisma } from '../generated/prisma/client.js';
import {
  badValueMessage,
  isDatabaseUnavailable,
  isForeignKeyViolation,
  isLockTimeout,
  OBJECT_BUSY_MESSAGE,
} from './database-errors.js';
import { errorEnvelope, type EnvelopeProblem } from './error-envelope.js';
import { inputProblem } from './input-error.js';
import { pathOf } from './logger.js';
import { requestIdOf } from './request-id.js';
import { closeIfBodyUnread } from './lingering-close.js';

/**
 * The one exception filter: every error of every service leaves as the error envelope.
 * Unexpected errors are logged with their stack and answered 500 without details;
 * Prisma errors are mapped (P2002 → 409, P2025 → 404, a foreign key refusing a change made by
 * concurrent requests → 409, database outages and lock waits past DB_LOCK_TIMEOUT_MS → 503 with
 * Retry-After)
 * and never leaked raw; errors of the request parsers (QML, q, headers, base64) are 400s.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const { status, message, headers, problems } = this.describe(exception, req);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    closeIfBodyUnread(req, res);
    res.status(status).json(errorEnvelope(status, message, requestIdOf(req), problems));
  }

  private describe(
    exception: unknown,
    req: Request,
  ): { status: number; message: string; headers: Record<string, string>; problems?: EnvelopeProblem[] } {
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const headers = (exception as { headers?: Record<string, string> }).headers ?? {};
      const response = exception.getResponse();
      return { status, message: messageOf(response), headers, problems: problemsOf(response) };
    }
    const input = inputProblem(exception);
    if (input) return { status: 400, ...input, headers: {} };
    if (exception instanceof Prisma.PrismaClientKnownRequestError) {
      if (exception.code === 'P2002') return { status: 409, message: 'the object already exists', headers: {} };
      if (exception.code === 'P2025') return { status: 404, message: 'the object does not exist', headers: {} };
    }
    if (isForeignKeyViolation(exception)) {
      return {
        status: 409,
        message: 'the change refers to an object that no longer exists, or removes one that others refer to',
        headers: {},
      };
    }
    if (isLockTimeout(exception)) {
      return { status: 503, message: OBJECT_BUSY_MESSAGE, headers: { 'Retry-After': '1' } };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`${req.method} ${pathOf(req)}: database unavailable [${requestIdOf(req)}]`);
      return { status: 503, message: 'the database is unavailable; retry shortly', headers: { 'Retry-After': '5' } };
    }
    const badValue = badValueMessage(exception);
    if (badValue) return { status: 400, message: badValue, headers: {} };
    const bodyError = bodyParserError(exception);
    if (bodyError) return { ...bodyError, headers: {} };
    // The path only: the query string may carry secrets, and logs never hold it (README).
    this.logger.error(
      `${req.method} ${pathOf(req)} failed [${requestIdOf(req)}]`,
      exception instanceof Error ? exception.stack : String(exception),
    );
    return { status: 500, message: 'internal error', headers: {} };
  }
}

/** The list of problems an exception carries (`{ message, problems }`), if any. */
function problemsOf(response: string | object): EnvelopeProblem[] | undefined {
  if (typeof response !== 'object') return undefined;
  const p = (response as { problems?: unknown }).problems;
  return Array.isArray(p) ? (p as EnvelopeProblem[]) : undefined;
}

function messageOf(response: string | object): string {
  if (typeof response === 'string') return response;
  const m = (response as { message?: unknown }).message;
  if (Array.isArray(m)) return m.join('; ');
  if (typeof m === 'string') return m;
  return 'error';
}

/** Errors raised by body-parser carry `type` and `status`. */
export function bodyParserError(e: unknown): { status: number; message: string } | null {
  if (!e || typeof e !== 'object') return null;
  const { type, status, limit } = e as { type?: unknown; status?: unknown; limit?: unknown };
  if (typeof type !== 'string' || typeof status !== 'number') return null;
  switch (type) {
    case 'entity.too.large':
      return { status: 413, message: `request body larger than the limit of ${String(limit)} bytes` };
    case 'entity.parse.failed':
      return { status: 400, message: 'request body is not valid JSON' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, message: 'unsupported request body encoding' };
    case 'encoding.invalid':
      // The verify step's own error (invalid-utf8.ts): its message says where.
      return { status: 400, message: e instanceof Error ? e.message : 'request body is not valid UTF-8' };
    case 'request.aborted':
      return { status: 400, message: 'request aborted' };
    default:
      return status >= 400 && status < 500 ? { status, message: 'invalid request body' } : null;
  }
}
