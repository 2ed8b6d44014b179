import { ForbiddenException } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';

/** Administration is for administrators; the rest of the callers are told so (they are signed in). */
export function requireAdmin(user: AuthUser): void {
  if (!user.admin) throw new ForbiddenException('this administration operation needs an administrator');
}

/** Unique-key violations of PostgreSQL (through Prisma or raw SQL). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } };
  return err?.code === 'P2002' || err?.meta?.driverAdapterError?.cause?.originalCode === '23505';
}
