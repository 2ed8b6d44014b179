import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,64}$/;

declare module 'express-serve-static-core' {
  interface Request {
    requestId?: string;
  }
}

/** Gives every request an id (a caller's well-formed X-Request-Id is kept) and echoes it back. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id');
  const id = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
  req.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}

export function requestIdOf(req: Request): string {
  return req.requestId ?? 'unknown';
}
