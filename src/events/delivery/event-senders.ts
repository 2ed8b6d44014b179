import type { CloudEvent, DeliveryOutcome } from '../cloud-event.js';

/** Where a subscription's events go. */
export interface EventTarget {
  kind: 'webhook' | 'nats';
  /** The webhook URL, or the NATS subject prefix. */
  target: string;
  /** The webhook's signing secret. */
  secret: string | null;
}

/** Hands one event to a subscription's destination; never throws. */
export abstract class EventSenders {
  abstract send(target: EventTarget, event: CloudEvent): Promise<DeliveryOutcome>;
}
