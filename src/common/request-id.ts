import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,64}$/;

declare module 'express-serve-static-core' {
  interface Request {
    requestId?: string;
  }
}

/** Gives the request an id (a caller's well-formed X-Request-Id is kept) and echoes it back. */
export function assignRequestId(req: Request, res: Response): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
  req.requestId = id;
  res.setHeader('X-Request-Id', id);
  return id;
}

export function requestIdOf(req: Request): string {
  return req.requestId ?? 'unknown';
}
