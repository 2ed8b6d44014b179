import type { AuditEvent } from '../audit/audit-events.js';
import { small } from '../audit/audit-detail.js';

/**
 * The audit events of groups: `admin.group.<verb>` on the group (its id and name), and
 * `admin.group.role.<verb>` on the container whose role for a group changed. A groups claim
 * changing a user's groups at sign-in is `admin.group.claims`, in the user's own name.
 */
type Detail = Record<string, unknown>;

export function groupEvent(
  callerId: number,
  verb: string,
  group: { id: number; name: string },
  detail: Detail,
): AuditEvent {
  return { userId: callerId, action: `admin.group.${verb}`, objectId: group.id, objectNumber: group.name, detail };
}

export function groupFacts(g: { name: string; description: string | null }): Detail {
  return { name: g.name, description: small(g.description) };
}

export function containerRoleEvent(
  callerId: number,
  verb: 'set' | 'remove',
  container: { id: number; cls: string; name: string },
  detail: Detail,
): AuditEvent {
  return {
    userId: callerId,
    action: `admin.group.role.${verb}`,
    objectClass: container.cls,
    objectId: container.id,
    objectNumber: container.name,
    containerId: container.id,
    detail,
  };
}
