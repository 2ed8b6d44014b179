import type pg from 'pg';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createCadFixture, type CadFixture } from '../numbers/cad-fixtures.js';
import { failEventsMarked, masterId, recorded } from './audit-fixtures.js';

const CAD = 'wt.epm.EPMDocument';

/**
 * The number service's CAD writes record numbers.attributes, numbers.link and numbers.used on
 * the document's master, in the change's transaction; refused ones record nothing.
 */
describe('audit events of CAD attributes and used links', () => {
  let db: pg.Pool;
  let f: CadFixture;
  const P = 'auditcad';
  const ASM = `${P}-ASM`;

  const t = useTestApp();
  beforeAll(async () => {
    db = testPool();
    f = await createCadFixture(db, P, { alice: 'author', bob: 'reader' });
  });
  afterAll(async () => {
    await db.query('DELETE FROM masters WHERE container_id = $1', [f.containerId]);
    await db.query('DELETE FROM containers WHERE id = $1', [f.containerId]);
    await db.end();
  });

  const post = (path: string, body?: object, user: readonly [string, string] = USERS.alice) => {
    const req = request(t.http)
      .post(path)
      .auth(...user);
    return body === undefined ? req : req.send(body);
  };
  const on = async (number: string) => ({
    user_name: 'alice',
    user: 'alice',
    object_class: 'wt.epm.EPMDocumentMaster',
    object_id: await masterId(db, CAD, number),
    object_number: number,
    container: P,
  });

  it('records numbers.attributes with the names given, before and after, and the iteration made', async () => {
    const [res, events] = await recorded(db, () =>
      post(`/numbers/attributes/${P}-C1`, {
        attributes: { mass_kg: 1.5, material: null, note: 'x'.repeat(300) },
        iterate: true,
      }),
    );
    expect(res.status).toBe(200);
    expect(events).toEqual([
      {
        ...(await on(`${P}-C1`)),
        action: 'numbers.attributes',
        detail: {
          iteration: 'A.2',
          newIteration: { from: 'A.1', to: 'A.2' },
          attributes: {
            before: { mass_kg: null, material: 'aluminium', note: null },
            // Texts are clipped: an event stays small whatever the request carried.
            after: { mass_kg: 1.5, material: null, note: `${'x'.repeat(200)}…` },
          },
        },
      },
    ]);
  });

  it("records numbers.link with the link's line number, reference number and attributes before and after", async () => {
    const [res, events] = await recorded(db, () =>
      post(`/numbers/attributes/${ASM}/${P}-C3`, { lineNumber: 30, referenceNumber: 'M3', attributes: { torque: 40 } }),
    );
    expect(res.status).toBe(200);
    expect(events).toEqual([
      {
        ...(await on(ASM)),
        action: 'numbers.link',
        detail: {
          iteration: 'A.1',
          link: f.links[`${P}-C3`],
          member: `${P}-C3`,
          lineNumber: { before: null, after: 30 },
          referenceNumber: { before: null, after: 'M3' },
          attributes: { before: { torque: null }, after: { torque: 40 } },
        },
      },
    ]);
    const [cleared, clearEvents] = await recorded(db, () =>
      request(t.http)
        .delete(`/numbers/attributes/${ASM}/${P}-C3`)
        .auth(...USERS.alice),
    );
    expect(cleared.status).toBe(200);
    expect(clearEvents.map((e) => [e.action, e.detail!.attributes])).toEqual([
      ['numbers.link', { before: { torque: 40 }, after: { torque: null } }],
    ]);
  });

  it('records numbers.used with how the links were numbered', async () => {
    const [res, events] = await recorded(db, () => post(`/numbers/used/${ASM}?mode=all&start=100&step=5`));
    expect(res.status).toBe(200);
    expect(events).toEqual([
      {
        ...(await on(ASM)),
        action: 'numbers.used',
        detail: { iteration: 'A.1', mode: 'all', start: 100, step: 5, numbered: 3 },
      },
    ]);
  });

  it('records nothing for refused changes', async () => {
    const [statuses, events] = await recorded(db, async () => [
      (await post(`/numbers/attributes/${P}-C2`, { attributes: { a: 1 } }, USERS.bob)).status,
      (await post(`/numbers/attributes/${P}-C2`, { attributes: { a: 1 } }, USERS.carol)).status,
      (await post(`/numbers/attributes/${P}-C2`, { attributes: { 'no good': 1 } })).status,
      (await post(`/numbers/used/${P}-C2`)).status,
      (await post(`/numbers/attributes/${ASM}/${P}-C1`, { lineNumber: 100 })).status,
      (await post(`/numbers/attributes/OR:${CAD}:${f.iterations[`${P}-C1`]}`, { attributes: { a: 1 } })).status,
    ]);
    expect(statuses).toEqual([403, 404, 400, 400, 409, 409]);
    expect(events).toEqual([]);
  });

  it('changes nothing when the transaction fails after the change', async () => {
    await db.query(
      "INSERT INTO masters (class, subtype, number, name, container_id) VALUES ($1, 'CADPART', 'doomed-cad', 'x', $2)",
      [CAD, f.containerId],
    );
    await db.query(
      `INSERT INTO iterations (master_id, created_by, modified_by, attributes)
       SELECT m.id, u.id, u.id, '{"a": 1}' FROM masters m, users u WHERE m.number = 'doomed-cad' AND u.name = 'alice'`,
    );
    const undo = await failEventsMarked(db, 'doomed');
    try {
      const [res, events] = await recorded(db, () =>
        post('/numbers/attributes/doomed-cad', { attributes: { a: 2 }, iterate: true }),
      );
      expect(res.status).toBe(500);
      expect(events).toEqual([]);
    } finally {
      await undo();
    }
    const { rows } = await db.query(
      `SELECT i.iteration, i.attributes FROM iterations i JOIN masters m ON m.id = i.master_id
       WHERE m.number = 'doomed-cad'`,
    );
    expect(rows).toEqual([{ iteration: 1, attributes: { a: 1 } }]);
  });
});
