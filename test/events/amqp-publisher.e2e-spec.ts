import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { AmqpPublisher, subjectFor } from '../../src/events/brokers/amqp-publisher.js';
import { AMQP_BROKER, amqpUnavailable, run, testEvent } from './test-brokers.js';

const reason = await amqpUnavailable('the AMQP tests are');

(reason ? describe.skip : describe)('publishing change events to an AMQP topic exchange', () => {
  const exchange = `pdm.events.test.${run}`;
  const exchanges: string[] = [exchange];
  let model: ChannelModel;
  let ch: Channel;
  let publisher: AmqpPublisher;

  /** A queue of this test's own (deleted with its connection) bound to `pattern` on `exchange`. */
  const queueFor = async (pattern: string, on = exchange) => {
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, on, pattern);
    return queue;
  };

  beforeAll(async () => {
    model = await amqp.connect(AMQP_BROKER);
    ch = await model.createChannel();
    publisher = await AmqpPublisher.connect({ url: AMQP_BROKER, exchange, timeoutMs: 5000 });
  });

  afterAll(async () => {
    await publisher?.close();
    for (const name of exchanges) await ch?.deleteExchange(name).catch(() => undefined);
    await model?.close();
  });

  it('declares the exchange as a durable topic exchange', async () => {
    // Declaring it again with another type or durability fails: the broker names what differs.
    const probe = await model.createChannel();
    probe.on('error', () => undefined);
    await expect(probe.assertExchange(exchange, 'direct', { durable: true })).rejects.toThrow(
      /PRECONDITION_FAILED - inequivalent arg 'type'/,
    );
    const probe2 = await model.createChannel();
    probe2.on('error', () => undefined);
    await expect(probe2.assertExchange(exchange, 'topic', { durable: false })).rejects.toThrow(
      /PRECONDITION_FAILED - inequivalent arg 'durable'/,
    );
    const probe3 = await model.createChannel();
    expect(await probe3.assertExchange(exchange, 'topic', { durable: true })).toEqual({ exchange });
    await probe3.close();
  });

  it('delivers the exact CloudEvent JSON as a persistent message, confirmed before publish resolves', async () => {
    const queue = await queueFor('pdm.erp.#');
    const e = testEvent('2001');
    const key = subjectFor('pdm.erp', e.type);

    expect(await publisher.publish(key, e)).toEqual({ kind: 'delivered' });
    // Read right after publish resolved: the broker confirmed, so the queue holds the message.
    expect((await ch.checkQueue(queue)).messageCount).toBe(1);

    const got = await ch.get(queue, { noAck: true });
    expect(got).not.toBe(false);
    if (!got) return;
    expect(got.fields).toMatchObject({ exchange, routingKey: 'pdm.erp.object.created' });
    expect(got.properties).toMatchObject({
      messageId: '2001',
      type: 'pdm.object.created',
      contentType: 'application/cloudevents+json',
      deliveryMode: 2,
    });
    expect(got.content.toString('utf8')).toBe(JSON.stringify(e));
    expect(JSON.parse(got.content.toString('utf8'))).toEqual(e);
    expect(await ch.get(queue)).toBe(false);
  });

  it('gives a retry outcome when no queue is bound for the routing key', async () => {
    expect(await publisher.publish('pdm.nobody.object.created', testEvent('2002'))).toEqual({
      kind: 'retry',
      error: `no queue is bound for exchange "${exchange}" with routing key "pdm.nobody.object.created"`,
    });
  });

  it('gives a retry outcome when the exchange is gone, and declares it again on the next publish', async () => {
    const gone = `pdm.events.test.gone.${run}`;
    exchanges.push(gone);
    const orphan = await AmqpPublisher.connect({ url: AMQP_BROKER, exchange: gone, timeoutMs: 5000 });
    try {
      await ch.deleteExchange(gone);
      const first = await orphan.publish('pdm.erp.object.created', testEvent('2003'));
      expect(first).toEqual({
        kind: 'retry',
        error:
          `the AMQP broker did not take exchange "${gone}" with routing key "pdm.erp.object.created": ` +
          `Channel closed by server: 404 (NOT-FOUND) with message "NOT_FOUND - no exchange '${gone}' in vhost '/'"`,
      });

      // The next publish opens a new channel, which declares the exchange; a queue bound then gets the event.
      let second = await orphan.publish('pdm.erp.object.created', testEvent('2003'));
      expect(second).toEqual({
        kind: 'retry',
        error: `no queue is bound for exchange "${gone}" with routing key "pdm.erp.object.created"`,
      });
      expect(await ch.checkExchange(gone)).toEqual({});
      const queue = await queueFor('pdm.#', gone);
      second = await orphan.publish('pdm.erp.object.created', testEvent('2003'));
      expect(second).toEqual({ kind: 'delivered' });
      expect((await ch.checkQueue(queue)).messageCount).toBe(1);
    } finally {
      await orphan.close();
    }
  });

  it('fails to connect with the reason, without the password', async () => {
    await expect(
      AmqpPublisher.connect({ url: 'amqp://guest:secret@127.0.0.1:1', exchange, timeoutMs: 2000 }),
    ).rejects.toThrow(/^cannot connect to the AMQP broker at amqp:\/\/\*\*\*@127\.0\.0\.1:1: /);
    await expect(
      AmqpPublisher.connect({ url: 'amqp://guest:wrong@127.0.0.1:5672', exchange, timeoutMs: 5000 }),
    ).rejects.toThrow(/^cannot connect to the AMQP broker at amqp:\/\/\*\*\*@127\.0\.0\.1:5672: .*ACCESS.REFUSED/);
  });

  it('gives a retry outcome after close instead of throwing', async () => {
    const closing = await AmqpPublisher.connect({ url: AMQP_BROKER, exchange, timeoutMs: 5000 });
    await closing.close();
    expect(await closing.publish('pdm.erp.object.created', testEvent('2004'))).toEqual({
      kind: 'retry',
      error: 'the AMQP publisher is closed',
    });
  });
});
