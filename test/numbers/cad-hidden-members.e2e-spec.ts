import type pg from 'pg';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createCadFixture, type CadFixture } from './cad-fixtures.js';

const P = 'cadhide';
const ASM = `${P}-ASM`;
/** A member in a container the caller may not read, as structure and history show it. */
const RESTRICTED = { oid: null, number: null, restricted: true };

/**
 * alice authors the assembly's container, but its member C3 lies in a container she may not
 * read: the numbers service's answers about the assembly's links must not name it (nor give its
 * OID), exactly as GET /objects/<ref>/structure and history do not, and a member she names that
 * she may not read is answered 404 like one that does not exist. The administrator still sees it.
 */
describe('CAD links to a member the caller may not read', () => {
  let pool: pg.Pool;
  let f: CadFixture;
  let hidden: number;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    await pool.query('DELETE FROM masters WHERE number LIKE $1', [`${P}-%`]);
    await pool.query('DELETE FROM containers WHERE name = $1', [`${P}-hidden`]);
    f = await createCadFixture(pool, P, { alice: 'author' });
    const { rows } = await pool.query<{ id: number }>(
      "INSERT INTO containers (class, name) VALUES ('wt.pdmlink.PDMLinkProduct', $1) RETURNING id",
      [`${P}-hidden`],
    );
    hidden = rows[0].id;
    await pool.query('UPDATE masters SET container_id = $1 WHERE number = $2', [hidden, `${P}-C3`]);
  });

  afterAll(async () => {
    await pool.query('DELETE FROM masters WHERE number LIKE $1', [`${P}-%`]);
    await pool.query('DELETE FROM containers WHERE id = ANY($1::int[])', [[f.containerId, hidden]]);
    await pool.end();
  });

  beforeEach(async () => {
    await pool.query(
      `UPDATE usage_links SET line_number = NULL, reference_number = NULL, attributes = '{}' WHERE parent_id = $1`,
      [f.iterations[ASM]],
    );
  });

  const member = (c: string) => ({ oid: `OR:wt.epm.EPMDocument:${f.iterations[`${P}-${c}`]}`, number: `${P}-${c}` });
  const link = (c: string, m: object, values: object = {}) => ({
    id: f.links[`${P}-${c}`],
    member: m,
    quantity: 2,
    unit: 'ea',
    lineNumber: null,
    referenceNumber: null,
    attributes: {},
    ...values,
  });
  const setLine = (c: string, n: number) =>
    pool.query('UPDATE usage_links SET line_number = $1 WHERE id = $2', [n, f.links[`${P}-${c}`]]);

  it('GET attributes?links=yes shows the member restricted (ordered as one without a number); the administrator sees it', async () => {
    const res = await request(t.http)
      .get(`/numbers/attributes/${ASM}?links=yes`)
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body.links).toEqual([link('C3', RESTRICTED), link('C1', member('C1')), link('C2', member('C2'))]);
    expect(JSON.stringify(res.body)).not.toContain(`${P}-C3`);

    const admin = await request(t.http)
      .get(`/numbers/attributes/${ASM}?links=yes`)
      .auth(...USERS.admin);
    expect(admin.status).toBe(200);
    expect(admin.body.links).toEqual([link('C1', member('C1')), link('C2', member('C2')), link('C3', member('C3'))]);
  });

  it('POST used/<assembly> numbers every link and shows the member restricted', async () => {
    await setLine('C3', 5);
    const res = await request(t.http)
      .post(`/numbers/used/${ASM}`)
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ number: ASM, mode: 'missing', numbered: 2 });
    expect(res.body.links).toEqual([
      link('C3', RESTRICTED, { lineNumber: 5 }),
      link('C1', member('C1'), { lineNumber: 15 }),
      link('C2', member('C2'), { lineNumber: 25 }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain(`${P}-C3`);

    const admin = await request(t.http)
      .post(`/numbers/used/${ASM}`)
      .auth(...USERS.admin);
    expect(admin.status).toBe(200);
    expect(admin.body.links[0]).toEqual(link('C3', member('C3'), { lineNumber: 5 }));
  });

  it('POST and DELETE attributes/<assembly>/<link id> change the link and show the member restricted', async () => {
    const id = f.links[`${P}-C3`];
    const set = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${id}`)
      .auth(...USERS.alice)
      .send({ lineNumber: 7, referenceNumber: 'M1', attributes: { torque_Nm: 40 } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual(
      link('C3', RESTRICTED, { lineNumber: 7, referenceNumber: 'M1', attributes: { torque_Nm: 40 } }),
    );

    const cleared = await request(t.http)
      .delete(`/numbers/attributes/${ASM}/${id}`)
      .auth(...USERS.alice);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual(link('C3', RESTRICTED, { lineNumber: 7, referenceNumber: 'M1' }));

    const admin = await request(t.http)
      .delete(`/numbers/attributes/${ASM}/${id}`)
      .auth(...USERS.admin);
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual(link('C3', member('C3'), { lineNumber: 7, referenceNumber: 'M1' }));
  });

  it('answers the member named by its number 404, as a member that does not exist', async () => {
    const call = (method: 'post' | 'delete', link: string) => {
      const path = `/numbers/attributes/${ASM}/${link}`;
      return method === 'post'
        ? request(t.http)
            .post(path)
            .auth(...USERS.alice)
            .send({ referenceNumber: 'M9' })
        : request(t.http)
            .delete(path)
            .auth(...USERS.alice);
    };
    for (const method of ['post', 'delete'] as const) {
      const named = await call(method, `${P}-C3`);
      const missing = await call(method, `${P}-NONE`);
      for (const [res, name] of [
        [named, `${P}-C3`],
        [missing, `${P}-NONE`],
      ] as const) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          statusCode: 404,
          error: 'Not Found',
          message: `${ASM} A.1 has no used link ${name}`,
          requestId: expect.any(String),
        });
      }
    }
    const { rows } = await pool.query('SELECT reference_number FROM usage_links WHERE id = $1', [f.links[`${P}-C3`]]);
    expect(rows[0].reference_number).toBeNull();

    const admin = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${P}-C3`)
      .auth(...USERS.admin)
      .send({ referenceNumber: 'M9' });
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual(link('C3', member('C3'), { referenceNumber: 'M9' }));
  });

  it("refuses another link's line number (409) without naming the member it belongs to", async () => {
    await setLine('C3', 10);
    const res = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${f.links[`${P}-C2`]}`)
      .auth(...USERS.alice)
      .send({ lineNumber: 10 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: `lineNumber: 10 is the line number of another link (link ${f.links[`${P}-C3`]}) in ${ASM}`,
      requestId: expect.any(String),
    });

    const admin = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${f.links[`${P}-C2`]}`)
      .auth(...USERS.admin)
      .send({ lineNumber: 10 });
    expect(admin.status).toBe(409);
    expect(admin.body.message).toBe(
      `lineNumber: 10 is the line number of the link to ${P}-C3 (link ${f.links[`${P}-C3`]}) in ${ASM}`,
    );
  });
});
