import type { AuditEvent } from '../../audit/audit-events.js';
import { OidClass } from '../../catalog/oid.js';

/**
 * The audit events of personal access tokens, on the token's user: `auth.token.create`,
 * `auth.token.revoke`, and `auth.token.expired` for a use after expiry. Never the secret or its
 * hash: the token by id, name and last characters.
 */
export function tokenEvent(
  callerId: number,
  verb: 'create' | 'revoke' | 'expired',
  token: { id: number; userId: number },
  detail: Record<string, unknown>,
): AuditEvent {
  return {
    userId: callerId,
    action: `auth.token.${verb}`,
    objectClass: OidClass.user,
    objectId: token.userId,
    detail: { token: token.id, ...detail },
  };
}
