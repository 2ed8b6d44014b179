import type { CloudEvent, DeliveryOutcome } from '../cloud-event.js';

/** What the NATS and AMQP publishers share: publish one event under a key, close. */
export interface BrokerPublisher {
  publish(key: string, event: CloudEvent): Promise<DeliveryOutcome>;
  close(): Promise<void>;
}

/**
 * A broker publisher connected at the first event for it (so the service starts, and webhooks
 * work, while a broker is down), again after a failed connection or publish at the next attempt.
 */
export class LazyPublisher {
  private connection: Promise<BrokerPublisher> | null = null;

  /**
   * @param broker how errors name it (`NATS`, `the AMQP broker`)
   * @param missing the error while no address is configured (null: one is)
   */
  constructor(
    private readonly broker: string,
    private readonly missing: string | null,
    private readonly connect: () => Promise<BrokerPublisher>,
  ) {}

  async publish(key: string, event: CloudEvent): Promise<DeliveryOutcome> {
    if (this.missing) return { kind: 'retry', error: this.missing };
    try {
      this.connection ??= this.connect();
      return await (await this.connection).publish(key, event);
    } catch (e) {
      this.connection = null;
      return { kind: 'retry', error: `cannot reach ${this.broker}: ${(e as Error).message}` };
    }
  }

  /** Closes the connection if there is one; a failed one is forgotten. */
  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    await (await connection?.catch(() => null))?.close();
  }
}
