import type { CloudEvent, DeliveryOutcome } from '../cloud-event.js';

/** Where a subscription's events go. */
export interface EventTarget {
  kind: 'webhook' | 'nats' | 'amqp';
  /** The webhook URL, the NATS subject prefix, or the AMQP routing key prefix. */
  target: string;
  /** The webhook's signing secret. */
  secret: string | null;
}

/** Hands one event to a subscription's destination; never throws. */
export abstract class EventSenders {
  abstract send(target: EventTarget, event: CloudEvent): Promise<DeliveryOutcome>;
}
