import { Webhook } from 'standardwebhooks';
import { useTestApp } from '../helpers/use-test-app.js';
import { testPool } from '../helpers/test-database.js';
import { as, dropEvents, EVENTS_ENV, eventsContainers, subscribe } from './events-fixtures.js';
import { WebhookReceiver } from './webhook-receiver.js';

describe('change events to webhooks', () => {
  const t = useTestApp(EVENTS_ENV);
  const db = testPool();
  let receiver: WebhookReceiver;
  let c: Awaited<ReturnType<typeof eventsContainers>>;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    c = await eventsContainers(db, 'wh');
  });
  afterAll(async () => {
    await dropEvents(db, [c.main.id, c.other.id]);
    await receiver.close();
  });

  it("delivers a container manager's subscription in commit order, signed per Standard Webhooks", async () => {
    const sub = await subscribe(t.http, 'carol', {
      name: 'order',
      actions: ['objects.*'],
      container: c.main.name,
      url: receiver.url('/order'),
    });
    expect(sub.secret).toMatch(/^whsec_/);
    const created = await as(t.http, 'alice').post('/objects', {
      container: c.main.name,
      type: 'wt.doc.WTDocument',
      number: `${c.tag}-1`,
      name: 'spec',
    });
    expect(created.status).toBe(201);
    const number = created.body.number as string;
    expect((await as(t.http, 'alice').post(`/objects/${number}/state`, { state: 'UNDERREVIEW' })).status).toBe(200);
    expect((await as(t.http, 'alice').post(`/objects/${number}/state`, { state: 'INWORK' })).status).toBe(200);
    const got = await receiver.waitFor('/order', 3);
    expect(got.map((r) => r.event.type)).toEqual([
      'pdm.object.created',
      'pdm.object.state-changed',
      'pdm.object.state-changed',
    ]);
    expect(got.map((r) => r.event.data.detail?.to ?? null)).toEqual([null, 'UNDERREVIEW', 'INWORK']);
    const first = got[0];
    expect(first.event).toMatchObject({
      specversion: '1.0',
      source: 'urn:pdm-services',
      datacontenttype: 'application/json',
      subject: created.body.masterOid,
      data: {
        action: 'objects.create',
        user: 'alice',
        object: { number, name: 'spec', type: 'wt.doc.WTDocument', container: c.main.name },
      },
    });
    expect(first.headers['webhook-id']).toBe(first.event.id);
    expect(first.headers['content-type']).toMatch(/^application\/cloudevents\+json/);
    const hook = new Webhook(sub.secret!);
    expect(hook.verify(first.body, first.headers as Record<string, string>)).toMatchObject({ id: first.event.id });
    expect(() => hook.verify(first.body.replace('spec', 'sp3c'), first.headers as Record<string, string>)).toThrow();
  });
});
