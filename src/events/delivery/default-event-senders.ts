import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { subjectFor } from '../brokers/broker-subjects.js';
import type { NatsPublisher } from '../brokers/nats-publisher.js';
import type { CloudEvent, DeliveryOutcome } from '../cloud-event.js';
import { WebhookAddressPolicy } from '../webhooks/webhook-address.js';
import { WebhookSender } from '../webhooks/webhook-sender.js';
import { EventSenders, type EventTarget } from './event-senders.js';

/**
 * Webhooks through one WebhookSender; NATS through one NatsPublisher, connected at the first
 * event for NATS (so the service starts, and webhooks work, while the broker is down), again
 * after a failed connection at the next attempt.
 */
@Injectable()
export class DefaultEventSenders extends EventSenders implements OnModuleDestroy {
  private readonly logger = new Logger('EventSenders');
  private readonly webhooks: WebhookSender;
  private nats: Promise<NatsPublisher> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
    this.webhooks = new WebhookSender({
      policy: new WebhookAddressPolicy(config.eventsWebhookAllow),
      timeoutMs: config.eventsWebhookTimeoutMs,
    });
  }

  async send(target: EventTarget, event: CloudEvent): Promise<DeliveryOutcome> {
    if (target.kind === 'webhook') return this.webhooks.send(target.target, target.secret ?? '', event);
    if (!this.config.eventsNatsUrl) return { kind: 'retry', error: 'no NATS server is configured (EVENTS_NATS_URL)' };
    let publisher: NatsPublisher;
    try {
      publisher = await this.publisher();
    } catch (e) {
      this.nats = null;
      return { kind: 'retry', error: `cannot reach NATS: ${(e as Error).message}` };
    }
    return publisher.publish(subjectFor(target.target, event.type), event);
  }

  private publisher(): Promise<NatsPublisher> {
    this.nats ??= import('../brokers/nats-publisher.js').then(({ NatsPublisher }) =>
      NatsPublisher.connect({
        servers: this.config.eventsNatsUrl,
        stream: this.config.eventsNatsStream,
        subjectRoot: this.config.eventsNatsSubjectRoot,
        timeoutMs: this.config.eventsWebhookTimeoutMs,
      }),
    );
    return this.nats;
  }

  async onModuleDestroy(): Promise<void> {
    const nats = this.nats;
    this.nats = null;
    if (nats) await (await nats.catch(() => null))?.close().catch((e: unknown) => this.logger.warn(String(e)));
    this.webhooks.close?.();
  }
}
