/**
 * A change event as it leaves the service: CloudEvents 1.0 in structured JSON mode. `id` is the
 * audit event's id, the same on every delivery, so a consumer can drop duplicates.
 */
export interface CloudEvent {
  specversion: '1.0';
  /** The audit event's id (decimal text). */
  id: string;
  /** EVENTS_SOURCE. */
  source: string;
  /** `pdm.object.created`, `pdm.file.updated`… (event-types.ts). */
  type: string;
  /** The OID of what changed, when the change has one. */
  subject?: string;
  /** When the change's transaction began (RFC 3339). */
  time: string;
  datacontenttype: 'application/json';
  data: EventData;
}

/** What changed. */
export interface EventData {
  /** The audit action (`objects.state`, `files.replace`…). */
  action: string;
  /** Who made the change. */
  user: string;
  /** The object's summary; absent for changes without one (the dataset import). */
  object?: {
    oid: string;
    number: string | null;
    name?: string | null;
    /** The class or soft type. */
    type?: string | null;
    container?: string | null;
  };
  /** Before and after of what changed, as the audit trail records it (docs/admin.md#audit-events). */
  detail: Record<string, unknown> | null;
}

/**
 * What one attempt to hand an event to its destination came to. `retry`: a network error, a
 * timeout, a 5xx or 429 (tried again after a backoff); `gone`: the receiver answered 410 (the
 * subscription is paused); `rejected`: any other answer (the event goes to the dead letters at once).
 */
export type DeliveryOutcome =
  | { kind: 'delivered'; status?: number }
  | { kind: 'retry'; error: string; status?: number }
  | { kind: 'gone'; error: string; status: number }
  | { kind: 'rejected'; error: string; status?: number };
