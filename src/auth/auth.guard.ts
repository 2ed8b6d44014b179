import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthService } from './auth.service.js';
import { IS_PUBLIC } from './public.decorator.js';

/** Global guard: every route needs the credentials of an enabled user unless marked @Public(). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const req = context.switchToHttp().getRequest<Request>();
    // Node keeps only the first of repeated Authorization headers, while a proxy in front may have
    // checked another one: several are refused instead of guessing which one counts.
    const values = req.headersDistinct.authorization ?? [];
    const header = values.length === 1 ? values[0] : undefined;
    req.user = await this.auth.authenticate(header, req.socket.remoteAddress ?? 'unknown');
    return true;
  }
}
