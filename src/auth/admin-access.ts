import { ForbiddenException } from '@nestjs/common';
import type { AuthUser } from './auth-user.js';

export { isUniqueViolation } from '../common/database-errors.js';

/** Administration is for administrators; the rest of the callers are told so (they are signed in). */
export function requireAdmin(user: AuthUser): void {
  if (!user.admin) throw new ForbiddenException('this administration operation needs an administrator');
}
