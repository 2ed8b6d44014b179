import { createHash } from 'node:crypto';
import type { AuditEvent } from '../audit/audit-events.js';
import { small } from '../audit/audit-detail.js';
import { OidClass } from '../catalog/oid.js';
import type { TemplateRow } from './reports.repository.js';

/** A template as an event describes it: its container, description, and the size and digest of its QML. */
function facts(row: TemplateRow): Record<string, unknown> {
  return {
    container: row.containerName,
    description: small(row.description),
    qmlLength: row.qml.length,
    qmlSha256: createHash('sha256').update(row.qml).digest('hex'),
  };
}

/**
 * `reports.put` (created, or replaced: before and after) and `reports.delete` (before), on the
 * template itself; its name is the event's object number.
 */
export function templateEvent(
  userId: number,
  action: 'reports.put' | 'reports.delete',
  row: TemplateRow,
  before: TemplateRow | null,
): AuditEvent {
  const detail =
    action === 'reports.delete'
      ? { before: facts(row) }
      : { created: before === null, ...(before && { before: facts(before) }), after: facts(row) };
  return {
    userId,
    action,
    objectClass: OidClass.report,
    objectId: row.id,
    objectNumber: row.name,
    containerId: row.containerId,
    detail,
  };
}
