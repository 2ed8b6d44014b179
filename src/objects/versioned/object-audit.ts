import type { AuthUser } from '../../auth/auth-user.js';
import { masterClassOf } from '../../catalog/oid.js';

/** What an audit event says of the object a change was made to: its master, by class and number. */
export function objectAudit(
  user: AuthUser,
  action: string,
  o: { cls: string; masterId: number; number: string; containerId: number },
) {
  return {
    userId: user.id,
    action,
    objectClass: masterClassOf(o.cls),
    objectId: o.masterId,
    objectNumber: o.number,
    containerId: o.containerId,
  };
}
