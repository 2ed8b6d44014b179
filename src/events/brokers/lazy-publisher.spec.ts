import type { CloudEvent } from '../cloud-event.js';
import { LazyPublisher, type BrokerPublisher } from './lazy-publisher.js';

const event = { id: '1', type: 'com.example.object.created' } as CloudEvent;

function publisher(sent: string[]): BrokerPublisher {
  return {
    publish: async (key) => {
      sent.push(key);
      return { kind: 'delivered' };
    },
    close: async () => undefined,
  };
}

describe('LazyPublisher', () => {
  it('answers retry without connecting while no address is configured', async () => {
    let connects = 0;
    const lazy = new LazyPublisher('NATS', 'no NATS server is configured (EVENTS_NATS_URL)', async () => {
      connects++;
      return publisher([]);
    });
    expect(await lazy.publish('a', event)).toEqual({
      kind: 'retry',
      error: 'no NATS server is configured (EVENTS_NATS_URL)',
    });
    expect(connects).toBe(0);
  });

  it('connects once at the first event and again after a failed connection', async () => {
    const sent: string[] = [];
    let connects = 0;
    const lazy = new LazyPublisher('the AMQP broker', null, async () => {
      connects++;
      if (connects === 1) throw new Error('ECONNREFUSED');
      return publisher(sent);
    });
    expect(await lazy.publish('a', event)).toEqual({
      kind: 'retry',
      error: 'cannot reach the AMQP broker: ECONNREFUSED',
    });
    expect(await lazy.publish('b', event)).toEqual({ kind: 'delivered' });
    expect(await lazy.publish('c', event)).toEqual({ kind: 'delivered' });
    expect(connects).toBe(2);
    expect(sent).toEqual(['b', 'c']);
  });

  it('forgets a connection whose publish throws', async () => {
    let connects = 0;
    const lazy = new LazyPublisher('NATS', null, async () => {
      connects++;
      return {
        publish: async () => {
          throw new Error('connection closed');
        },
        close: async () => undefined,
      };
    });
    expect(await lazy.publish('a', event)).toEqual({ kind: 'retry', error: 'cannot reach NATS: connection closed' });
    await lazy.publish('a', event);
    expect(connects).toBe(2);
    await expect(lazy.close()).resolves.toBeUndefined();
  });
});
