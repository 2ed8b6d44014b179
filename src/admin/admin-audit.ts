import type { AuditEvent } from '../audit/audit-events.js';
import { small } from '../audit/audit-detail.js';
import type { AdminUserRecord, UserChange } from '../auth/users.repository.js';
import { OidClass } from '../catalog/oid.js';

/**
 * The audit events of administration: `admin.<thing>.<verb>` on the user, container or
 * workspace changed (numbering rules and memberships on their container; content roles on
 * nothing). Passwords and their hashes are never recorded: a new password is
 * `passwordChanged: true`.
 */
type Detail = Record<string, unknown>;

export function userEvent(
  callerId: number,
  verb: 'create' | 'update' | 'delete',
  user: { id: number; name: string },
  detail: Detail,
): AuditEvent {
  return {
    userId: callerId,
    action: `admin.user.${verb}`,
    objectClass: OidClass.user,
    objectId: user.id,
    objectNumber: user.name,
    detail,
  };
}

/** What an event tells of a user. */
export function userFacts(u: AdminUserRecord): Detail {
  return { fullName: small(u.fullName), email: small(u.email), admin: u.admin, disabled: u.disabled };
}

/** The fields a change gives, before and after; a new password only as `passwordChanged`. */
export function userChange(before: AdminUserRecord, change: UserChange): Detail {
  const old = userFacts(before);
  const now = userFacts({ ...before, ...change } as AdminUserRecord);
  const fields = (['fullName', 'email', 'admin', 'disabled'] as const).filter((f) => change[f] !== undefined);
  return {
    before: Object.fromEntries(fields.map((f) => [f, old[f]])),
    after: Object.fromEntries(fields.map((f) => [f, now[f]])),
    ...(change.passwordHash !== undefined && { passwordChanged: true }),
  };
}

/** An event on a container: itself, its memberships, its numbering rules. */
export function containerEvent(
  callerId: number,
  action: string,
  container: { id: number; cls: string; name: string },
  detail: Detail,
): AuditEvent {
  return {
    userId: callerId,
    action,
    objectClass: container.cls,
    objectId: container.id,
    objectNumber: container.name,
    containerId: container.id,
    detail,
  };
}

export function workspaceEvent(
  callerId: number,
  verb: 'create' | 'delete',
  ws: { id: number; name: string; containerId: number; container: string; owner: string },
): AuditEvent {
  return {
    userId: callerId,
    action: `admin.workspace.${verb}`,
    objectClass: OidClass.workspace,
    objectId: ws.id,
    objectNumber: ws.name,
    containerId: ws.containerId,
    detail: { [verb === 'create' ? 'after' : 'before']: { container: ws.container, owner: ws.owner } },
  };
}

export function contentRoleEvent(callerId: number, name: string): AuditEvent {
  return { userId: callerId, action: 'admin.role.create', objectNumber: name, detail: { name } };
}

/** What an event tells of a numbering rule. */
export function ruleFacts(rule: { prefix: string; suffix: string; width: number; next: bigint }): Detail {
  return { prefix: rule.prefix, suffix: rule.suffix, width: rule.width, next: Number(rule.next) };
}
