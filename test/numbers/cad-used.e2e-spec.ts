import type pg from 'pg';
import request from 'supertest';
import { interleave } from '../helpers/interleave.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createCadFixture, type CadFixture } from './cad-fixtures.js';

describe('POST /numbers/used/<oid_or_number>', () => {
  let pool: pg.Pool;

  const t = useTestApp();
  // A second instance: on one instance, changes of one document take turns before the database.
  const other = useTestApp();
  beforeAll(async () => {
    // One listening server: requests running at the same time must not each start and stop their own.
    await t.app.listen(0, '127.0.0.1');
    await other.app.listen(0, '127.0.0.1');
    pool = testPool();
  });

  afterAll(async () => {
    await pool.query("DELETE FROM masters WHERE number LIKE 'cadused%'");
    await pool.query("DELETE FROM containers WHERE name LIKE 'cadused%'");
    await pool.end();
  });

  async function lineNumbers(f: CadFixture, prefix: string): Promise<Record<string, number | null>> {
    const { rows } = await pool.query<{ number: string; line: number | null }>(
      `SELECT m.number, ul.line_number::int AS line FROM usage_links ul JOIN masters m ON m.id = ul.child_id
       WHERE ul.parent_id = $1`,
      [f.iterations[`${prefix}-ASM`]],
    );
    return Object.fromEntries(rows.map((r) => [r.number.slice(prefix.length + 1), r.line]));
  }

  it('numbers the links without a line number by member number, then renumbers all on request', async () => {
    const p = 'cadused1';
    const f = await createCadFixture(pool, p, { alice: 'author' });
    await pool.query('UPDATE usage_links SET line_number = 15 WHERE id = $1', [f.links[`${p}-C2`]]);
    const res = await request(t.http)
      .post(`/numbers/used/${p}-ASM`)
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      number: `${p}-ASM`,
      subtype: 'CADASSEMBLY',
      mode: 'missing',
      start: 10,
      step: 10,
      numbered: 2,
    });
    expect(
      res.body.links.map((l: { member: { number: string }; lineNumber: number }) => [l.member.number, l.lineNumber]),
    ).toEqual([
      [`${p}-C2`, 15],
      [`${p}-C1`, 25],
      [`${p}-C3`, 35],
    ]);
    expect(await lineNumbers(f, p)).toEqual({ C1: 25, C2: 15, C3: 35 });

    const again = await request(t.http)
      .post(`/numbers/used/${p}-ASM`)
      .auth(...USERS.alice);
    expect(again.status).toBe(200);
    expect(again.body.numbered).toBe(0);

    const all = await request(t.http)
      .post(`/numbers/used/${p}-ASM?mode=all&start=100&step=5`)
      .auth(...USERS.alice);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ mode: 'all', start: 100, step: 5, numbered: 3 });
    expect(await lineNumbers(f, p)).toEqual({ C2: 100, C1: 105, C3: 110 });
  });

  it('answers a document that is not an assembly 400 naming its subtype, and checks its parameters', async () => {
    const p = 'cadused2';
    const f = await createCadFixture(pool, p, { alice: 'author', bob: 'reader' });
    const part = await request(t.http)
      .post(`/numbers/used/${p}-C1`)
      .auth(...USERS.alice);
    expect(part.status).toBe(400);
    expect(part.body.message).toBe(
      `${p}-C1 is a CADCOMPONENT, not a CADASSEMBLY: only assemblies number the links they use`,
    );
    for (const [query, message] of [
      ['mode=some', 'mode must be missing or all'],
      ['start=-1', 'start must be a whole number from 0 to 999999999'],
      ['step=0', 'step must be a whole number from 1 to 999999'],
      ['step=1e3', 'step must be a whole number from 1 to 999999'],
    ]) {
      const res = await request(t.http)
        .post(`/numbers/used/${p}-ASM?${query}`)
        .auth(...USERS.alice);
      expect({ query, status: res.status, message: res.body.message }).toEqual({ query, status: 400, message });
    }
    const doc = await request(t.http)
      .post(`/numbers/used/OR:wt.doc.WTDocument:${f.iterations[`${p}-DOC`]}`)
      .auth(...USERS.alice);
    expect(doc.status).toBe(400);
    expect(
      (
        await request(t.http)
          .post(`/numbers/used/${p}-ASM`)
          .auth(...USERS.bob)
      ).status,
    ).toBe(403);
    expect(
      (
        await request(t.http)
          .post(`/numbers/used/${p}-ASM`)
          .auth(...USERS.carol)
      ).status,
    ).toBe(404);
    expect((await request(t.http).post(`/numbers/used/${p}-ASM`)).status).toBe(401);
    expect(await lineNumbers(f, p)).toEqual({ C1: null, C2: null, C3: null });
  });

  /**
   * A line number set on one link and a numbering of the missing ones, forced to interleave: a
   * connection of the test holds usage_links in SHARE mode, which lets both requests read the
   * links but neither write them. The link change (C3 → 10) is sent first, then the numbering.
   * Without the lock on the assembly both read the links while none has a number: the numbering
   * plans C1 → 10, C2 → 20, C3 → 30, skips C3 once the change has given it 10, and C1 and C3
   * both end at 10. With it the numbering waits for the change and numbers on from 10. The two
   * calls go to two instances, which only the lock in the database serialises.
   */
  it('never gives two links the same line number when calls run at the same time', async () => {
    const p = 'cadused3';
    const f = await createCadFixture(pool, p, { alice: 'author' });
    const [a, b] = await interleave(
      pool,
      'LOCK TABLE usage_links IN SHARE MODE',
      () =>
        request(t.http)
          .post(`/numbers/attributes/${p}-ASM/${p}-C3`)
          .auth(...USERS.alice)
          .send({ lineNumber: 10 }),
      // On another instance: on one, the second change waits its turn in the process instead.
      () =>
        request(other.http)
          .post(`/numbers/used/${p}-ASM`)
          .auth(...USERS.alice),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await lineNumbers(f, p)).toEqual({ C3: 10, C1: 20, C2: 30 });
  });
});
