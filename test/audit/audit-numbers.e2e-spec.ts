import pg from 'pg';
import request from 'supertest';
import { ReservationBatcher } from '../../src/numbers/reservation-batcher.js';
import { LOCK_WAIT_MS, lockWaiters, pollUntil, withinMs } from '../helpers/bounded-wait.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { counterOf, createContainer, generateUrl, type TestContainer } from '../numbers/numbers-fixtures.js';
import { failEventsMarked, lastEventId, recorded } from './audit-fixtures.js';

const DOC = 'wt.doc.WTDocument';

/**
 * Number generation records one numbers.generate event per request, in the transaction of the
 * reservation, also when the batcher serves several requests with one reservation; a request
 * that gets no numbers records nothing.
 */
describe('audit events of number generation', () => {
  let db: pg.Pool;
  let box: TestContainer;

  const t = useTestApp();
  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    db = testPool();
    box = await createContainer(db, {
      name: 'audit-numbers',
      members: { alice: 'author', carol: 'author', bob: 'reader' },
      rules: [{ cls: DOC, prefix: 'AN', width: 4, next: 1 }],
    });
  });
  afterAll(async () => {
    await db.query('DELETE FROM containers WHERE id = $1', [box.id]);
    await db.end();
  });

  const generate = (count: number, user: readonly [string, string] = USERS.alice, name = box.name) =>
    request(t.http)
      .post(generateUrl(DOC, { 'container-name': name, count }))
      .auth(...user);
  const onBox = {
    action: 'numbers.generate',
    object_class: 'wt.pdmlink.PDMLinkProduct',
    object_number: 'audit-numbers',
    container: 'audit-numbers',
  };

  it('records who got which numbers, on the container whose rule gave them', async () => {
    const [res, events] = await recorded(db, () => generate(3));
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(['AN0001', 'AN0002', 'AN0003']);
    expect(events).toEqual([
      {
        ...onBox,
        user_name: 'alice',
        user: 'alice',
        object_id: String(box.id),
        detail: { class_name: DOC, count: 3, first: 'AN0001', last: 'AN0003' },
      },
    ]);
  });

  it('records one event per request of a batch, each with its own numbers, in the one reservation transaction', async () => {
    const holder = await db.connect();
    const since = await lastEventId(db);
    const batcher = t.app.get(ReservationBatcher) as unknown as { waiting: Map<string, unknown[]> };
    let results: request.Response[];
    let letGo = false;
    try {
      // The first request waits for the rule row the test holds; the next three queue behind it
      // in the batcher and are then served by one reservation.
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM numbering_rules WHERE container_id = $1 FOR UPDATE', [box.id]);
      const first = generate(1);
      const pending = first.then((r) => r);
      await lockWaiters(db, 1, 'the first request waits for the rule row the test holds', { pending: [pending] });
      const rest = [generate(2, USERS.carol), generate(3, USERS.alice), generate(4, USERS.carol)].map((r) =>
        r.then((x) => x),
      );
      await pollUntil(
        async () => (batcher.waiting.get(`${box.id}:${DOC}`)?.length ?? 0) === 3,
        'the three other requests queue in the batcher',
        { pending: rest },
      );
      await holder.query('COMMIT');
      letGo = true;
      results = await withinMs(Promise.all([pending, ...rest]), LOCK_WAIT_MS, 'the four requests are answered');
    } finally {
      // Ending the connection of a failed wait lets go of the rule row, so the requests finish.
      holder.release(!letGo);
    }
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results[0].body.items).toEqual(['AN0004']);

    // One event per request, each naming its caller and the numbers it was answered.
    const { rows } = await db.query<{ user_name: string; detail: { first: string; last: string }; tx: string }>(
      'SELECT user_name, detail, xmin::text AS tx FROM audit_events WHERE id > $1::int8 ORDER BY id',
      [since],
    );
    const answered = results.map((r, i) => {
      const items = r.body.items as string[];
      const user = i % 2 === 0 ? 'alice' : 'carol';
      return { user_name: user, detail: { class_name: DOC, count: i + 1, first: items[0], last: items.at(-1) } };
    });
    expect(rows.map(({ user_name, detail }) => ({ user_name, detail }))).toEqual(
      [...answered].sort((a, b) => (a.detail.first < b.detail.first ? -1 : 1)),
    );
    expect(rows.map((r) => r.detail.first)).toEqual(['AN0004', 'AN0005', expect.any(String), expect.any(String)]);
    // The first alone; the three others in one transaction, the one that moved the counter last.
    const rule = await db.query<{ tx: string }>(
      'SELECT xmin::text AS tx FROM numbering_rules WHERE container_id = $1',
      [box.id],
    );
    expect(rows.map((r) => r.tx === rule.rows[0].tx)).toEqual([false, true, true, true]);
    expect(await counterOf(db, box.id, DOC)).toBe('14');
  });

  it('records nothing for a request that gets no numbers', async () => {
    const [statuses, events] = await recorded(db, async () => [
      (await generate(10_000)).status,
      (await generate(1, USERS.bob)).status,
      (
        await request(t.http)
          .post(generateUrl('wt.part.WTPart', { 'container-name': box.name }))
          .auth(...USERS.alice)
      ).status,
    ]);
    expect(statuses).toEqual([409, 403, 404]);
    expect(events).toEqual([]);
    expect(await counterOf(db, box.id, DOC)).toBe('14');
  });

  it('reserves nothing when the transaction fails after the reservation', async () => {
    const doomed = await createContainer(db, {
      name: 'doomed-numbers',
      members: { alice: 'author' },
      rules: [{ cls: DOC, prefix: 'DN', width: 4, next: 1 }],
    });
    const undo = await failEventsMarked(db, 'doomed');
    try {
      const [res, events] = await recorded(db, () => generate(2, USERS.alice, 'doomed-numbers'));
      expect(res.status).toBe(500);
      expect(events).toEqual([]);
      expect(await counterOf(db, doomed.id, DOC)).toBe('1');
    } finally {
      await undo();
    }
    const res = await generate(2, USERS.alice, 'doomed-numbers');
    expect(res.body.items).toEqual(['DN0001', 'DN0002']);
    await db.query('DELETE FROM containers WHERE id = $1', [doomed.id]);
  });
});
