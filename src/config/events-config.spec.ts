import { loadConfig } from './app-config.js';

describe('events configuration: the AMQP broker', () => {
  it('has no broker and the exchange pdm.events by default', () => {
    expect(loadConfig({})).toMatchObject({ eventsAmqpUrl: '', eventsAmqpExchange: 'pdm.events' });
  });

  it('reads an amqp(s) URL and an exchange name', () => {
    expect(
      loadConfig({
        EVENTS_AMQP_URL: ' amqps://pdm:secret@mq.example.com/prod ',
        EVENTS_AMQP_EXCHANGE: 'plant-7:events',
      }),
    ).toMatchObject({ eventsAmqpUrl: 'amqps://pdm:secret@mq.example.com/prod', eventsAmqpExchange: 'plant-7:events' });
  });

  it('refuses other URLs without repeating them (they may hold a password)', () => {
    expect(() => loadConfig({ EVENTS_AMQP_URL: 'http://pdm:secret@mq.example.com' })).toThrow(
      'EVENTS_AMQP_URL: is not an amqp:// or amqps:// URL',
    );
  });

  it('refuses exchange names the broker does not take or keeps for itself', () => {
    for (const name of ['', 'pdm events', 'amq.topic', 'pdm/events', 'x'.repeat(128)]) {
      expect(() => loadConfig({ EVENTS_AMQP_EXCHANGE: name })).toThrow(
        `EVENTS_AMQP_EXCHANGE: "${name}" is not an exchange name (letters, digits, _ - . and :, not starting with amq.)`,
      );
    }
  });
});
