/**
 * What one write changed, recorded in the transaction of the change: a change and its event are
 * stored together or not at all. `action` is `<service>.<verb>` (`files.upload`,
 * `objects.create`, `admin.user.update`...); the object, when the write has one, by its class
 * and id (a master's id for business objects, so that every iteration shares one history) with
 * its number; `detail` holds the before and after of small changes (never passwords or file
 * bytes).
 */
export interface AuditEvent {
  userId: number;
  action: string;
  objectClass?: string | null;
  objectId?: number | bigint | null;
  objectNumber?: string | null;
  containerId?: number | null;
  detail?: Record<string, unknown> | null;
}

/**
 * Runs one statement in the caller's transaction: the audit repository's writes
 * (recordAudit and the others in audit.repository.ts) take it, so an event is stored with its change.
 */
export type AuditSql = (text: string, values: unknown[]) => Promise<unknown>;
