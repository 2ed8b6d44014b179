import { formatOid } from '../catalog/oid.js';
import { withHiddenMember } from '../history/event-references.js';
import type { CloudEvent } from './cloud-event.js';
import { actionMatches, eventType } from './event-types.js';

/** One event of the log as the events repository reads it, for one reader. */
export interface EventRecord {
  position: bigint;
  id: bigint;
  at: Date;
  userName: string;
  action: string;
  objectClass: string | null;
  objectId: bigint | null;
  objectNumber: string | null;
  containerId: number | null;
  container: string | null;
  detail: Record<string, unknown> | null;
  /** The master's name, class and soft type, when the object is a business object that still exists. */
  objectName: string | null;
  objectType: string | null;
  /** The object's class for type filters: the master's class, or the plain object's. */
  objectCls: string | null;
  softType: string | null;
  /** The state the change left, or the latest iteration's (stateOf). */
  state: string | null;
  /** The reader may read the event's object (its container). */
  visible: boolean;
  /** detail.member names an object the reader may not read. */
  memberHidden: boolean;
}

/** The event as it leaves the service. `sequence` (a CloudEvents extension) is its place in the log. */
export function toCloudEvent(e: EventRecord, source: string): CloudEvent & { sequence: string } {
  const object =
    e.objectClass !== null && e.objectId !== null
      ? {
          oid: formatOid(e.objectClass, e.objectId),
          number: e.objectNumber,
          name: e.objectName,
          type: e.objectType,
          container: e.container,
        }
      : undefined;
  return {
    specversion: '1.0',
    id: String(e.id),
    source,
    type: eventType(e.action),
    ...(object ? { subject: object.oid } : {}),
    time: e.at.toISOString(),
    datacontenttype: 'application/json',
    sequence: String(e.position),
    data: {
      action: e.action,
      user: e.userName,
      ...(object ? { object } : {}),
      detail: withHiddenMember(e.detail, e.memberHidden),
    },
  };
}

/** What a subscription selects (docs/events.md#subscriptions). */
export interface EventFilter {
  actions: readonly string[];
  containerId: number | null;
  /** Whether an event's class and soft type are the subscription's type or below it; null: any type. */
  typeMatches: ((cls: string | null, softType: string | null) => boolean) | null;
  state: string | null;
}

/** Whether the subscription's filter selects the event (its owner's rights are checked apart). */
export function filterMatches(f: EventFilter, e: EventRecord): boolean {
  if (!f.actions.some((p) => actionMatches(p, e.action))) return false;
  if (f.containerId !== null && e.containerId !== f.containerId) return false;
  if (f.typeMatches && !f.typeMatches(e.objectCls, e.softType)) return false;
  if (f.state !== null && e.state !== f.state) return false;
  return true;
}
