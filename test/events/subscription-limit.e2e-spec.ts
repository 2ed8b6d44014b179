import { interleave } from '../helpers/interleave.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { testPool } from '../helpers/test-database.js';
import { as, dropEvents, EVENTS_ENV, eventsContainers } from './events-fixtures.js';

/**
 * EVENTS_SUBSCRIPTION_LIMIT holds for creations at the same time: each counts the owner's
 * subscriptions after locking the owner's row (SubscriptionsRepository.create), so the second
 * counts the first's. Here the test holds that row while both creations start.
 */
describe('the subscription limit', () => {
  const t = useTestApp({ ...EVENTS_ENV, EVENTS_SUBSCRIPTION_LIMIT: '1' });
  const db = testPool();
  let c: Awaited<ReturnType<typeof eventsContainers>>;

  beforeAll(async () => {
    c = await eventsContainers(db, 'lim');
  });
  afterAll(async () => {
    await dropEvents(db, [c.main.id, c.other.id]);
    await db.end();
  });

  it('lets one of two parallel creations of one owner through', async () => {
    const create = (name: string) => () =>
      as(t.http, 'carol').post('/events/subscriptions', {
        name,
        actions: ['objects.*'],
        container: c.main.name,
        url: 'http://127.0.0.1:9/hook',
      });
    const answers = await interleave(
      db,
      "SELECT 1 FROM users WHERE name = 'carol' FOR UPDATE",
      create('first'),
      create('second'),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(refused.body.message).toBe('carol has 1 subscriptions (EVENTS_SUBSCRIPTION_LIMIT); delete one first');
    const made = answers.find((r) => r.status === 201)!;
    expect(made.body).toMatchObject({ owner: 'carol', container: c.main.name, active: true });

    const list = await as(t.http, 'carol').get('/events/subscriptions');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, items: [{ id: made.body.id }] });
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_subscriptions s JOIN users u ON u.id = s.owner_id WHERE u.name = 'carol'`,
    );
    expect(rows[0].n).toBe(1);
  });
});
