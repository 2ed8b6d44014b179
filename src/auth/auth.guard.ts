import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { RequestBodyReader } from '../common/request-body.reader.js';
import type { AuthUser } from './auth-user.js';
import { AuthService } from './auth.service.js';
import { IS_PUBLIC } from './public.decorator.js';

/**
 * Global guard: every route needs the credentials of an enabled user unless marked @Public().
 * Once the caller is known, it has the request body read (RequestBodyReader): nothing of a body
 * is read before authentication. It runs on every request, so the @Public() lookup is remembered
 * per handler.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly publicHandlers = new WeakMap<object, boolean>();

  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
    private readonly bodies: RequestBodyReader,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.isPublic(context)) return this.readBody(context);
    const req = context.switchToHttp().getRequest<Request>();
    // req.ip: the socket's address, or the client's as named by a trusted proxy (TRUST_PROXY).
    return this.auth
      .authenticate(singleAuthorization(req), req.ip ?? req.socket.remoteAddress ?? 'unknown', req.socket)
      .then((u: AuthUser) => {
        req.user = u;
        return this.readBody(context);
      });
  }

  private readBody(context: ExecutionContext): boolean | Promise<boolean> {
    const reading = this.bodies.read(context);
    return reading ? reading.then(() => true) : true;
  }

  private isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.publicHandlers.get(handler);
    if (known === undefined) {
      known = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, context.getClass()]) === true;
      this.publicHandlers.set(handler, known);
    }
    return known;
  }
}

/**
 * The Authorization header when the request carries exactly one. Node keeps only the first of
 * repeated Authorization headers, while a proxy in front may have checked another one: several
 * are refused instead of guessing which one counts.
 */
function singleAuthorization(req: Request): string | undefined {
  const raw = req.rawHeaders;
  let value: string | undefined;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 13 && raw[i].toLowerCase() === 'authorization') {
      value = raw[i + 1];
      count++;
    }
  }
  return count === 1 ? value : undefined;
}
