import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { RequestBodyReader } from '../common/request-body.reader.js';
import { canWriteAtAll, type AuthUser } from './auth-user.js';
import { AuthService } from './auth.service.js';
import { IS_PUBLIC } from './public.decorator.js';
import { READS_ONLY } from './reads-only.decorator.js';

/** Methods that change nothing by their definition: a read-only token may use them anywhere. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Global guard: every route needs the credentials of an enabled user unless marked @Public().
 * Once the caller is known, it has the request body read (RequestBodyReader): nothing of a body
 * is read before authentication. It runs on every request, so the @Public() lookup is remembered
 * per handler.
 *
 * A personal access token without the `write` scope is refused (403) on every method other than
 * GET and HEAD unless the route is marked @ReadsOnly(): container rights are capped at reading in
 * accessFromRole, and this covers the writes no container governs (workspaces, the caller's tokens).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly publicHandlers = new WeakMap<object, boolean>();
  private readonly readOnlyHandlers = new WeakMap<object, boolean>();

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
        if (!canWriteAtAll(u) && !SAFE_METHODS.has(req.method) && !this.readsOnly(context))
          throw new ForbiddenException('this personal access token has the read scope only: this operation writes');
        req.user = u;
        return this.readBody(context);
      });
  }

  private readBody(context: ExecutionContext): boolean | Promise<boolean> {
    const reading = this.bodies.read(context);
    return reading ? reading.then(() => true) : true;
  }

  private isPublic(context: ExecutionContext): boolean {
    return this.marked(context, IS_PUBLIC, this.publicHandlers);
  }

  private readsOnly(context: ExecutionContext): boolean {
    return this.marked(context, READS_ONLY, this.readOnlyHandlers);
  }

  private marked(context: ExecutionContext, key: string, known: WeakMap<object, boolean>): boolean {
    const handler = context.getHandler();
    let mark = known.get(handler);
    if (mark === undefined) {
      mark = this.reflector.getAllAndOverride<boolean>(key, [handler, context.getClass()]) === true;
      known.set(handler, mark);
    }
    return mark;
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
