import amqp, { type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import type { CloudEvent, DeliveryOutcome } from '../cloud-event.js';

export { checkSubject, subjectFor } from './broker-subjects.js';

export interface AmqpPublisherOptions {
  /** EVENTS_AMQP_URL: `amqp://user:password@host:5672/vhost` (amqps:// for TLS). */
  url: string;
  /** EVENTS_AMQP_EXCHANGE: a topic exchange, declared durable when missing. */
  exchange: string;
  /** Longest wait for the connection and for one publish's confirmation. */
  timeoutMs: number;
}

export const CLOUDEVENTS_CONTENT_TYPE = 'application/cloudevents+json';

/** One connection with its confirm channel; replaced as a whole when either is lost. */
interface Link {
  model: ChannelModel;
  channel: ConfirmChannel;
  /** Why the broker closed the channel or connection, for the outcome of the publishes it failed. */
  lost: string | null;
  /** Messages the broker returned as unroutable (`<message id>\n<routing key>`), until their confirmation. */
  returned: Set<string>;
}

/**
 * Publishes change events to an AMQP 0-9-1 broker (RabbitMQ): a topic exchange, the routing key
 * in the subject's form (subjectFor), the CloudEvent in structured mode as a persistent message.
 * An event counts as delivered once the broker confirms it (publisher confirms) and did not return
 * it as unroutable: a confirmation alone also comes for a message no queue took, which is dropped.
 * amqplib does not reconnect: a lost connection is opened again by the next publish.
 */
export class AmqpPublisher {
  /** The link publishes use, or null when it was lost (the next publish opens another). */
  private ready: Link | null;
  private opening: Promise<Link> | null = null;
  private closed = false;

  private constructor(
    private readonly opts: AmqpPublisherOptions,
    link: Link,
  ) {
    this.ready = link;
    this.watch(link);
  }

  /** Connects and declares the exchange; fails with a message naming the broker (without credentials) and the cause. */
  static async connect(opts: AmqpPublisherOptions): Promise<AmqpPublisher> {
    if (!opts.url.trim()) throw new Error('no AMQP broker given (EVENTS_AMQP_URL is empty)');
    return new AmqpPublisher(opts, await open(opts));
  }

  /** Publishes `event` with `routingKey` and waits for the broker's confirmation. Never throws. */
  async publish(routingKey: string, event: CloudEvent): Promise<DeliveryOutcome> {
    let link: Link;
    try {
      link = await this.current();
    } catch (err) {
      return { kind: 'retry', error: messageOf(err) };
    }
    const where = `exchange "${this.opts.exchange}" with routing key "${routingKey}"`;
    const key = `${event.id}\n${routingKey}`;
    return new Promise<DeliveryOutcome>((resolve) => {
      const timer = setTimeout(() => {
        // A broker that stops confirming may be gone without the socket noticing: start afresh.
        this.drop(link);
        resolve({ kind: 'retry', error: `no confirmation from the AMQP broker for ${where} in time` });
      }, this.opts.timeoutMs);
      const done = (outcome: DeliveryOutcome) => {
        clearTimeout(timer);
        link.returned.delete(key);
        resolve(outcome);
      };
      const refused = (err: unknown) => ({
        kind: 'retry' as const,
        error: `the AMQP broker did not take ${where}: ${link.lost ?? messageOf(err)}`,
      });
      try {
        link.channel.publish(
          this.opts.exchange,
          routingKey,
          Buffer.from(JSON.stringify(event)),
          {
            // The event's id, the same on every attempt: what a consumer drops duplicates by.
            messageId: event.id,
            type: event.type,
            contentType: CLOUDEVENTS_CONTENT_TYPE,
            persistent: true,
            // Unroutable messages come back (before their confirmation) instead of vanishing.
            mandatory: true,
          },
          (err) => {
            if (err) done(refused(err));
            else if (link.returned.has(key)) done({ kind: 'retry', error: `no queue is bound for ${where}` });
            else done({ kind: 'delivered' });
          },
        );
      } catch (err) {
        // amqplib throws at once on a channel that is closing or closed.
        this.drop(link);
        done(refused(err));
      }
    });
  }

  /** Closes the connection; publishes still waiting for a confirmation end as retries. */
  async close(): Promise<void> {
    this.closed = true;
    const link = this.ready ?? (await this.opening?.catch(() => null));
    this.ready = null;
    await link?.model.close().catch(() => undefined);
  }

  private async current(): Promise<Link> {
    if (this.closed) throw new Error('the AMQP publisher is closed');
    if (this.ready) return this.ready;
    // One attempt at a time; a failed one is forgotten, so the next publish tries again.
    this.opening ??= open(this.opts).finally(() => {
      this.opening = null;
    });
    const link = await this.opening;
    if (this.closed) {
      await link.model.close().catch(() => undefined);
      throw new Error('the AMQP publisher is closed');
    }
    if (this.ready !== link) {
      this.ready = link;
      this.watch(link);
    }
    return link;
  }

  private watch(link: Link): void {
    link.model.on('close', () => this.forget(link));
    link.channel.on('close', () => this.drop(link));
  }

  /** Stops using `link` and closes its connection (a channel closed by the broker leaves it open). */
  private drop(link: Link): void {
    this.forget(link);
    link.model.close().catch(() => undefined);
  }

  private forget(link: Link): void {
    if (this.ready === link) this.ready = null;
  }
}

async function open(opts: AmqpPublisherOptions): Promise<Link> {
  const broker = withoutCredentials(opts.url);
  let model: ChannelModel;
  try {
    model = await withTimeout(
      amqp.connect(opts.url, { timeout: opts.timeoutMs, clientProperties: { connection_name: 'pdm-services events' } }),
      opts.timeoutMs,
      (late) => void late.close().catch(() => undefined),
    );
  } catch (err) {
    throw new Error(`cannot connect to the AMQP broker at ${broker}: ${messageOf(err)}`, { cause: err });
  }
  const link = { model, lost: null, returned: new Set() } as Omit<Link, 'channel'> as Link;
  // Without listeners an 'error' event would end the process; the message is kept for the outcome.
  model.on('error', (err: Error) => {
    link.lost ??= err.message;
  });
  try {
    link.channel = await withTimeout(model.createConfirmChannel(), opts.timeoutMs);
    link.channel.on('error', (err: Error) => {
      link.lost ??= err.message;
    });
    link.channel.on('return', (msg: ConsumeMessage) => {
      link.returned.add(`${String(msg.properties.messageId)}\n${msg.fields.routingKey}`);
    });
    await withTimeout(link.channel.assertExchange(opts.exchange, 'topic', { durable: true }), opts.timeoutMs);
    return link;
  } catch (err) {
    await model.close().catch(() => undefined);
    throw new Error(`the AMQP broker at ${broker}: exchange "${opts.exchange}": ${link.lost ?? messageOf(err)}`, {
      cause: err,
    });
  }
}

/** `promise`, or a rejection after `ms`; what arrives after that goes to `late` (a connection to close). */
function withTimeout<T>(promise: Promise<T>, ms: number, late?: (value: T) => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new Error(`no answer in ${ms} ms`));
    }, ms);
  });
  promise.then(
    (value) => timedOut && late?.(value),
    () => undefined,
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The URL for a message: `amqp://user:secret@host` becomes `amqp://***@host`. */
function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
