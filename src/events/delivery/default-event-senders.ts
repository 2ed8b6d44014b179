import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { subjectFor } from '../brokers/broker-subjects.js';
import type { AmqpPublisher } from '../brokers/amqp-publisher.js';
import type { NatsPublisher } from '../brokers/nats-publisher.js';
import type { CloudEvent, DeliveryOutcome } from '../cloud-event.js';
import { WebhookAddressPolicy } from '../webhooks/webhook-address.js';
import { WebhookSender } from '../webhooks/webhook-sender.js';
import { EventSenders, type EventTarget } from './event-senders.js';

/**
 * Webhooks through one WebhookSender; NATS and AMQP through one publisher each, connected at the
 * first event for it (so the service starts, and webhooks work, while a broker is down), again
 * after a failed connection at the next attempt.
 */
@Injectable()
export class DefaultEventSenders extends EventSenders implements OnModuleDestroy {
  private readonly logger = new Logger('EventSenders');
  private readonly webhooks: WebhookSender;
  private nats: Promise<NatsPublisher> | null = null;
  private amqp: Promise<AmqpPublisher> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
    this.webhooks = new WebhookSender({
      policy: new WebhookAddressPolicy(config.eventsWebhookAllow),
      timeoutMs: config.eventsWebhookTimeoutMs,
    });
  }

  async send(target: EventTarget, event: CloudEvent): Promise<DeliveryOutcome> {
    if (target.kind === 'webhook') return this.webhooks.send(target.target, target.secret ?? '', event);
    const key = subjectFor(target.target, event.type);
    if (target.kind === 'nats') {
      if (!this.config.eventsNatsUrl) return { kind: 'retry', error: 'no NATS server is configured (EVENTS_NATS_URL)' };
      try {
        return await (await this.natsPublisher()).publish(key, event);
      } catch (e) {
        this.nats = null;
        return { kind: 'retry', error: `cannot reach NATS: ${(e as Error).message}` };
      }
    }
    if (!this.config.eventsAmqpUrl) return { kind: 'retry', error: 'no AMQP broker is configured (EVENTS_AMQP_URL)' };
    try {
      return await (await this.amqpPublisher()).publish(key, event);
    } catch (e) {
      this.amqp = null;
      return { kind: 'retry', error: `cannot reach the AMQP broker: ${(e as Error).message}` };
    }
  }

  private natsPublisher(): Promise<NatsPublisher> {
    this.nats ??= import('../brokers/nats-publisher.js').then(({ NatsPublisher }) =>
      NatsPublisher.connect({
        servers: this.config.eventsNatsUrl,
        stream: this.config.eventsNatsStream,
        subjectRoot: this.config.eventsSubjectRoot,
        timeoutMs: this.config.eventsWebhookTimeoutMs,
      }),
    );
    return this.nats;
  }

  private amqpPublisher(): Promise<AmqpPublisher> {
    this.amqp ??= import('../brokers/amqp-publisher.js').then(({ AmqpPublisher }) =>
      AmqpPublisher.connect({
        url: this.config.eventsAmqpUrl,
        exchange: this.config.eventsAmqpExchange,
        timeoutMs: this.config.eventsWebhookTimeoutMs,
      }),
    );
    return this.amqp;
  }

  async onModuleDestroy(): Promise<void> {
    const [nats, amqp] = [this.nats, this.amqp];
    this.nats = this.amqp = null;
    for (const p of [nats, amqp]) {
      if (p) await (await p.catch(() => null))?.close().catch((e: unknown) => this.logger.warn(String(e)));
    }
    this.webhooks.close();
  }
}
