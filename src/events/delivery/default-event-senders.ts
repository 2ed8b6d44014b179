import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { subjectFor } from '../brokers/broker-subjects.js';
import { LazyPublisher } from '../brokers/lazy-publisher.js';
import type { CloudEvent, DeliveryOutcome } from '../cloud-event.js';
import { WebhookAddressPolicy } from '../webhooks/webhook-address.js';
import { WebhookSender } from '../webhooks/webhook-sender.js';
import { EventSenders, type EventTarget } from './event-senders.js';

/** Webhooks through one WebhookSender; NATS and AMQP through one lazily connected publisher each. */
@Injectable()
export class DefaultEventSenders extends EventSenders implements OnModuleDestroy {
  private readonly logger = new Logger('EventSenders');
  private readonly webhooks: WebhookSender;
  private readonly nats: LazyPublisher;
  private readonly amqp: LazyPublisher;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super();
    const timeoutMs = config.eventsWebhookTimeoutMs;
    this.webhooks = new WebhookSender({ policy: new WebhookAddressPolicy(config.eventsWebhookAllow), timeoutMs });
    this.nats = new LazyPublisher(
      'NATS',
      config.eventsNatsUrl ? null : 'no NATS server is configured (EVENTS_NATS_URL)',
      async () =>
        (await import('../brokers/nats-publisher.js')).NatsPublisher.connect({
          servers: config.eventsNatsUrl,
          stream: config.eventsNatsStream,
          subjectRoot: config.eventsSubjectRoot,
          timeoutMs,
        }),
    );
    this.amqp = new LazyPublisher(
      'the AMQP broker',
      config.eventsAmqpUrl ? null : 'no AMQP broker is configured (EVENTS_AMQP_URL)',
      async () =>
        (await import('../brokers/amqp-publisher.js')).AmqpPublisher.connect({
          url: config.eventsAmqpUrl,
          exchange: config.eventsAmqpExchange,
          timeoutMs,
        }),
    );
  }

  async send(target: EventTarget, event: CloudEvent): Promise<DeliveryOutcome> {
    if (target.kind === 'webhook') return this.webhooks.send(target.target, target.secret ?? '', event);
    return (target.kind === 'nats' ? this.nats : this.amqp).publish(subjectFor(target.target, event.type), event);
  }

  async onModuleDestroy(): Promise<void> {
    for (const publisher of [this.nats, this.amqp]) {
      await publisher.close().catch((e: unknown) => this.logger.warn(String(e)));
    }
    this.webhooks.close();
  }
}
