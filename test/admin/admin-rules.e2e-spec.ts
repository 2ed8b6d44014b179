import pg from 'pg';
import request from 'supertest';
import { reservationSql } from '../../src/numbers/numbers.repository.js';
import { LOCK_WAIT_MS, lockWaiters, withinMs } from '../helpers/bounded-wait.js';
import { USERS } from '../helpers/test-app.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { counterOf, createContainer, type TestContainer } from '../numbers/numbers-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const PART = 'wt.part.WTPart';
const enc = encodeURIComponent;

describe('/admin/containers/<name>/rules', () => {
  let pool: pg.Pool;
  let box: TestContainer;
  let rules: string;

  const t = useTestApp();
  beforeAll(async () => {
    // One listening server: requests running at the same time must not each start and stop their own.
    await t.app.listen(0, '127.0.0.1');
    pool = testPool();
    await pool.query("DELETE FROM containers WHERE name = 'adm-rules'");
    box = await createContainer(pool, {
      name: 'adm-rules',
      members: { alice: 'manager', bob: 'author' },
      rules: [{ cls: PART, prefix: 'AR-', width: 5, next: 40 }],
    });
    rules = `/admin/containers/${enc(box.name)}/rules`;
  });

  afterAll(async () => {
    await pool.query('DELETE FROM containers WHERE id = $1', [box.id]);
    await pool.end();
  });

  async function ruleRows() {
    const { rows } = await pool.query(
      'SELECT class, prefix, suffix, width, next::text FROM numbering_rules WHERE container_id = $1 ORDER BY class',
      [box.id],
    );
    return rows;
  }

  it('creates a rule the number service then uses, lists, changes and deletes it', async () => {
    const made = await request(t.http)
      .post(rules)
      .auth(...USERS.admin)
      .send({ class_name: DOC, prefix: 'AD-', width: 4, next: 7 });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      class_name: DOC,
      prefix: 'AD-',
      suffix: '',
      width: 4,
      next: 7,
      next_number: 'AD-0007',
    });
    const gen = await request(t.http)
      .post(`/numbers/generate/${DOC}?container-name=${enc(box.name)}&count=2`)
      .auth(...USERS.alice);
    expect(gen.status).toBe(200);
    expect(gen.body.items).toEqual(['AD-0007', 'AD-0008']);

    const list = await request(t.http)
      .get(rules)
      .auth(...USERS.admin);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      count: 2,
      container: box.name,
      items: [
        { class_name: DOC, prefix: 'AD-', suffix: '', width: 4, next: 9, next_number: 'AD-0009' },
        { class_name: PART, prefix: 'AR-', suffix: '', width: 5, next: 40, next_number: 'AR-00040' },
      ],
    });

    const changed = await request(t.http)
      .patch(`${rules}/${DOC}`)
      .auth(...USERS.admin)
      .send({ suffix: '-Z', width: 6, next: 20 });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      class_name: DOC,
      prefix: 'AD-',
      suffix: '-Z',
      width: 6,
      next: 20,
      next_number: 'AD-000020-Z',
    });

    const dup = await request(t.http)
      .post(rules)
      .auth(...USERS.admin)
      .send({ class_name: DOC, width: 4 });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(`class_name: container 'adm-rules' has a rule for ${DOC} already`);

    const del = await request(t.http)
      .delete(`${rules}/${DOC}`)
      .auth(...USERS.admin);
    expect(del.status).toBe(204);
    expect(
      (
        await request(t.http)
          .delete(`${rules}/${DOC}`)
          .auth(...USERS.admin)
      ).status,
    ).toBe(404);
    expect(await ruleRows()).toEqual([{ class: PART, prefix: 'AR-', suffix: '', width: 5, next: '40' }]);
  });

  it('never moves the counter back, nor past the width, changing nothing', async () => {
    for (const [body, status, message] of [
      [{ next: 39 }, 409, "next: 39 is below the rule's counter 40; numbers below it may have been handed out"],
      [{ width: 1 }, 400, 'next: 40 has more than width 1 digits'],
      [{ next: 100000 }, 400, 'next: 100000 has more than width 5 digits'],
      [{}, 400, 'give at least one of prefix, suffix, width, next'],
      [{ width: 19 }, 400, 'width must be at most 18'],
      [{ width: 2.5 }, 400, 'width must be a whole number'],
      [{ next: '41' }, 400, 'next must be a whole number'],
      [{ prefix: 'A B' }, 400, 'prefix must be up to 20 letters, digits or . _ - /'],
      [{ suffix: null }, 400, 'suffix must be a string'],
    ] as const) {
      const res = await request(t.http)
        .patch(`${rules}/${PART}`)
        .auth(...USERS.admin)
        .send(body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({
        body,
        status,
        message: expect.stringContaining(message),
      });
    }
    expect(await ruleRows()).toEqual([{ class: PART, prefix: 'AR-', suffix: '', width: 5, next: '40' }]);
  });

  it.each([
    [{ width: 4 }, 'class_name must be a string'],
    [{ class_name: 'wt.foo.Bar', width: 4 }, 'class_name must be one of'],
    [{ class_name: DOC }, 'width must be a whole number'],
    [{ class_name: DOC, width: 0 }, 'width must be at least 1'],
    [{ class_name: DOC, width: 3, next: 1000 }, 'next: 1000 has more than width 3 digits'],
    [{ class_name: DOC, width: 3, next: 0 }, 'next must be at least 1'],
  ])('refuses to create %j naming the field', async (body, message) => {
    const res = await request(t.http)
      .post(rules)
      .auth(...USERS.admin)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await ruleRows()).toHaveLength(1);
  });

  it('answers an unknown container or rule 404', async () => {
    const res = await request(t.http)
      .get('/admin/containers/adm-nowhere/rules')
      .auth(...USERS.admin);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("no container named 'adm-nowhere'");
    const rule = await request(t.http)
      .patch(`${rules}/wt.epm.EPMDocument`)
      .auth(...USERS.admin)
      .send({ next: 5 });
    expect(rule.status).toBe(404);
    expect(rule.body.message).toBe("container 'adm-rules' has no numbering rule for wt.epm.EPMDocument");
  });

  it('refuses everyone but administrators, the container manager included', async () => {
    for (const creds of [USERS.alice, USERS.bob, USERS.carol]) {
      const calls = [
        () => request(t.http).get(rules).auth(creds[0], creds[1]),
        () => request(t.http).post(rules).auth(creds[0], creds[1]).send({ class_name: DOC, width: 4 }),
        () => request(t.http).patch(`${rules}/${PART}`).auth(creds[0], creds[1]).send({ next: 1000 }),
        () => request(t.http).delete(`${rules}/${PART}`).auth(creds[0], creds[1]),
      ];
      for (const call of calls) {
        const res = await call();
        expect(res.status).toBe(403);
      }
    }
    expect((await request(t.http).delete(`${rules}/${PART}`)).status).toBe(401);
    expect(await ruleRows()).toEqual([{ class: PART, prefix: 'AR-', suffix: '', width: 5, next: '40' }]);
  });

  /**
   * A reservation and a change of `next` forced to interleave: a connection reserves 50 numbers
   * in a transaction it keeps open (the counter goes from 40 to 90, not yet committed), then the
   * change to next=60 is sent. Only because the change reads the rule FOR UPDATE does it wait
   * for the reservation and see 90: with a plain read it would see 40, pass the check and, once
   * the reservation commits, set the counter back to 60 below numbers handed out.
   */
  it('sees a reservation under way: next is checked against the counter it leaves', async () => {
    const first = new pg.Client({ connectionString: testDatabaseUrl() });
    await first.connect();
    try {
      await first.query('BEGIN');
      const sql = reservationSql(box.id, { cls: PART, table: 'masters' }, 50);
      const { rows } = await first.query<{ start: string }>(sql.text, sql.values);
      expect(rows[0].start).toBe('40');
      const pending = request(t.http)
        .patch(`${rules}/${PART}`)
        .auth(...USERS.admin)
        .send({ next: 60 })
        .then((r) => r);
      await lockWaiters(pool, 1, 'the change of next waits for the reservation under way', {
        pending: [pending],
        where: "query LIKE '%numbering_rules%'",
      });
      await first.query('COMMIT');
      const res = await withinMs(pending, LOCK_WAIT_MS, 'the change of next is answered');
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        "next: 60 is below the rule's counter 90; numbers below it may have been handed out",
      );
      expect(await counterOf(pool, box.id, PART)).toBe('90');
    } finally {
      await first.end();
    }
  });
});
