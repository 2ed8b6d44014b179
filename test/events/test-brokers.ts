import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import amqp, { type ChannelModel } from 'amqplib';
import type { CloudEvent } from '../../src/events/cloud-event.js';

/** The NATS server with JetStream that .ci/run starts (nats-server -js) when it is installed. */
export const NATS_SERVER = '127.0.0.1:4222';
/** The RabbitMQ broker that .ci/run starts when it is installed (its default user guest may sign in from localhost). */
export const AMQP_BROKER = 'amqp://guest:guest@127.0.0.1:5672';

/** Names no other run uses, so runs on one server do not meet. */
export const run = `${process.pid}_${Date.now().toString(36)}`;

function problem(err: unknown): string {
  return err instanceof Error ? err.message || err.name : String(err);
}

/**
 * Why the NATS tests named `what` cannot run here (a server that does not answer, or one without
 * JetStream), said once as a warning, or null.
 */
export async function natsUnavailable(what: string): Promise<string | null> {
  let nc: NatsConnection | undefined;
  try {
    nc = await connect({ servers: NATS_SERVER, timeout: 2000, reconnect: false });
    await jetstreamManager(nc, { timeout: 2000 });
    return null;
  } catch (err) {
    console.warn(
      `${what} skipped: no NATS server with JetStream at ${NATS_SERVER} (${problem(err)}); ` +
        'install nats-server and run it with -js (.ci/run starts it)',
    );
    return problem(err);
  } finally {
    await nc?.close();
  }
}

/** Why the AMQP tests named `what` cannot run here, said once as a warning, or null. */
export async function amqpUnavailable(what: string): Promise<string | null> {
  let model: ChannelModel | undefined;
  try {
    model = await amqp.connect(AMQP_BROKER, { timeout: 2000 });
    return null;
  } catch (err) {
    console.warn(
      `${what} skipped: no RabbitMQ broker at 127.0.0.1:5672 for guest/guest (${problem(err)}); ` +
        'install rabbitmq-server and start it (.ci/run does)',
    );
    return problem(err);
  } finally {
    await model?.close().catch(() => undefined);
  }
}

/** A change event as the service makes them, with the given id. */
export function testEvent(id: string): CloudEvent {
  return {
    specversion: '1.0',
    id,
    source: 'urn:pdm-services:test',
    type: 'pdm.object.created',
    subject: 'OR:wt.doc.WTDocument:4711',
    time: '2026-11-27T12:00:00.000Z',
    datacontenttype: 'application/json',
    data: {
      action: 'objects.create',
      user: 'alice',
      object: { oid: 'OR:wt.doc.WTDocument:4711', number: '0000000042', name: 'Gehäuse', type: 'wt.doc.WTDocument' },
      detail: { after: { name: 'Gehäuse' } },
    },
  };
}
