import type pg from 'pg';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createCadFixture, type CadFixture } from './cad-fixtures.js';

const P = 'cadattr';
const ASM = `${P}-ASM`;

describe('/numbers/attributes', () => {
  let pool: pg.Pool;
  let f: CadFixture;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    f = await createCadFixture(pool, P, { alice: 'author', bob: 'reader' });
  });

  afterAll(async () => {
    await pool.query('DELETE FROM masters WHERE container_id = $1', [f.containerId]);
    await pool.query('DELETE FROM containers WHERE id = $1', [f.containerId]);
    await pool.end();
  });

  async function latest(number: string) {
    const { rows } = await pool.query(
      `SELECT i.id, i.version, i.iteration, i.attributes, i.note FROM iterations i JOIN masters m ON m.id = i.master_id
       WHERE m.number = $1 AND i.latest`,
      [number],
    );
    return rows[0];
  }

  it('reads the attributes of a CAD document by number and by OID, with its used links', async () => {
    const res = await request(t.http)
      .get(`/numbers/attributes/${ASM}?links=yes`)
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    const member = (c: string) => ({ oid: `OR:wt.epm.EPMDocument:${f.iterations[`${P}-${c}`]}`, number: `${P}-${c}` });
    const link = (c: string) => ({
      id: f.links[`${P}-${c}`],
      member: member(c),
      quantity: 2,
      unit: 'ea',
      lineNumber: null,
      referenceNumber: null,
      attributes: {},
    });
    expect(res.body).toEqual({
      oid: `OR:wt.epm.EPMDocument:${f.iterations[ASM]}`,
      number: ASM,
      subtype: 'CADASSEMBLY',
      version: 'A.1',
      attributes: { material: 'aluminium' },
      links: [link('C1'), link('C2'), link('C3')],
      truncated: false,
    });
    const byOid = await request(t.http)
      .get(`/numbers/attributes/${res.body.oid}`)
      .auth(...USERS.bob);
    expect(byOid.status).toBe(200);
    expect(byOid.body).toEqual({
      oid: res.body.oid,
      number: ASM,
      subtype: 'CADASSEMBLY',
      version: 'A.1',
      attributes: { material: 'aluminium' },
    });
  });

  it.each([
    [`/numbers/attributes/${P}-DOC`, 404, `no CAD document with number ${P}-DOC`],
    ['/numbers/attributes/OR:wt.doc.WTDocument:1', 400, 'oid_or_number OR:wt.doc.WTDocument:1 is not a CAD document'],
    ['/numbers/attributes/OR:wt.epm.EPMDocument:x', 400, 'oid_or_number "OR:wt.epm.EPMDocument:x" is not an OID'],
    [`/numbers/attributes/${ASM}?links=maybe`, 400, 'links must be yes or no'],
  ])('answers %s with %i naming what is wrong', async (path, status, message) => {
    const res = await request(t.http)
      .get(path)
      .auth(...USERS.alice);
    expect(res.status).toBe(status);
    expect(res.body.message).toContain(message);
  });

  it('hides the document from a caller who may not read its container (404), and answers 401 without credentials', async () => {
    const res = await request(t.http)
      .get(`/numbers/attributes/${ASM}`)
      .auth(...USERS.carol);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`no CAD document with number ${ASM}`);
    expect((await request(t.http).get(`/numbers/attributes/${ASM}`)).status).toBe(401);
    expect(
      (
        await request(t.http)
          .post(`/numbers/attributes/${ASM}`)
          .send({ attributes: { a: 1 } })
      ).status,
    ).toBe(401);
  });

  it('merges attributes into the latest iteration: null removes, others are kept, message is the note', async () => {
    const before = await latest(`${P}-C1`);
    const res = await request(t.http)
      .post(`/numbers/attributes/${P}-C1`)
      .auth(...USERS.alice)
      .send({ attributes: { mass_kg: 1.5, material: null, checked: true }, message: 'mass measured' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      oid: `OR:wt.epm.EPMDocument:${before.id}`,
      number: `${P}-C1`,
      subtype: 'CADCOMPONENT',
      version: 'A.1',
      attributes: { mass_kg: 1.5, checked: true },
    });
    expect(await latest(`${P}-C1`)).toMatchObject({
      id: before.id,
      note: 'mass measured',
      attributes: { mass_kg: 1.5, checked: true },
    });
  });

  it('with iterate makes a new iteration carrying the links over under new ids', async () => {
    const res = await request(t.http)
      .post(`/numbers/attributes/${P}-DRW`)
      .auth(...USERS.alice)
      .send({ attributes: { sheet: 'A1' }, iterate: true, message: 'sheet size' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 'A.2', attributes: { material: 'aluminium', sheet: 'A1' } });
    const now = await latest(`${P}-DRW`);
    expect(res.body.oid).toBe(`OR:wt.epm.EPMDocument:${now.id}`);
    expect(now).toMatchObject({ iteration: 2, note: 'sheet size' });
    // The previous iteration is read-only now.
    const old = await request(t.http)
      .post(`/numbers/attributes/OR:wt.epm.EPMDocument:${f.iterations[`${P}-DRW`]}`)
      .auth(...USERS.alice)
      .send({ attributes: { sheet: 'A0' } });
    expect(old.status).toBe(409);
    expect(old.body.message).toContain('is iteration A.1, not the latest');
  });

  it.each([
    [{}, 'attributes must be given'],
    [{ attributes: [1] }, 'attributes must be an object'],
    [{ attributes: { 'bad name': 1 } }, 'attributes: "bad name" is not an attribute name'],
    [
      { attributes: { nested: { a: 1 } } },
      'attributes.nested must be a string of at most 4000 characters, a number, true, false or null',
    ],
    [{ attributes: { a: 'x'.repeat(4001) } }, 'attributes.a must be a string of at most 4000 characters'],
    [{ attributes: { a: 1 }, iterate: 'yes' }, 'iterate must be true or false'],
    [{ attributes: { a: 1 }, message: 7 }, 'message must be a string'],
    [{ attributes: { a: 1 }, extra: 1 }, 'property extra should not exist'],
  ])('refuses body %# naming the field, changing nothing', async (body, message) => {
    const before = await latest(`${P}-C2`);
    const res = await request(t.http)
      .post(`/numbers/attributes/${P}-C2`)
      .auth(...USERS.alice)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await latest(`${P}-C2`)).toEqual(before);
  });

  it('refuses a reader (403) and someone without access (404), changing nothing', async () => {
    const before = await latest(`${P}-C2`);
    const bob = await request(t.http)
      .post(`/numbers/attributes/${P}-C2`)
      .auth(...USERS.bob)
      .send({ attributes: { a: 1 } });
    expect(bob.status).toBe(403);
    expect(bob.body.message).toBe(`changing ${P}-C2 needs author or manager rights in its container`);
    const carol = await request(t.http)
      .post(`/numbers/attributes/${P}-C2`)
      .auth(...USERS.carol)
      .send({ attributes: { a: 1 } });
    expect(carol.status).toBe(404);
    const link = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${P}-C2`)
      .auth(...USERS.bob)
      .send({ lineNumber: 5 });
    expect(link.status).toBe(403);
    expect(await latest(`${P}-C2`)).toEqual(before);
    const admin = await request(t.http)
      .post(`/numbers/attributes/${P}-C2`)
      .auth(...USERS.admin)
      .send({ attributes: { by: 'admin' } });
    expect(admin.status).toBe(200);
  });

  it("sets a link's line number, reference number and attributes by link id or member number; DELETE clears the attributes", async () => {
    const set = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${P}-C3`)
      .auth(...USERS.alice)
      .send({ lineNumber: 30, referenceNumber: 'M3', attributes: { torque_Nm: 40, note: 'x' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      id: f.links[`${P}-C3`],
      lineNumber: 30,
      referenceNumber: 'M3',
      attributes: { torque_Nm: 40, note: 'x' },
    });
    const merge = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${f.links[`${P}-C3`]}`)
      .auth(...USERS.alice)
      .send({ attributes: { note: null } });
    expect(merge.status).toBe(200);
    expect(merge.body).toMatchObject({ lineNumber: 30, referenceNumber: 'M3', attributes: { torque_Nm: 40 } });
    const taken = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${P}-C1`)
      .auth(...USERS.alice)
      .send({ lineNumber: 30 });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(
      `lineNumber: 30 is the line number of the link to ${P}-C3 (link ${f.links[`${P}-C3`]}) in ${ASM}`,
    );
    const cleared = await request(t.http)
      .delete(`/numbers/attributes/${ASM}/${P}-C3`)
      .auth(...USERS.alice);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ lineNumber: 30, referenceNumber: 'M3', attributes: {} });
    const { rows } = await pool.query(
      'SELECT line_number::int, reference_number, attributes FROM usage_links WHERE id = $1',
      [f.links[`${P}-C3`]],
    );
    expect(rows[0]).toEqual({ line_number: 30, reference_number: 'M3', attributes: {} });
  });

  it.each([
    [{ lineNumber: -1 }, 400, 'lineNumber must be at least 0'],
    [{ lineNumber: 1.5 }, 400, 'lineNumber must be a whole number or null'],
    [{ referenceNumber: 'a\nb' }, 400, 'referenceNumber must be 1 to 100 characters'],
    [{ attributes: 'x' }, 400, 'attributes must be an object'],
  ])('refuses the link change %j naming the field', async (body, status, message) => {
    const res = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${P}-C2`)
      .auth(...USERS.alice)
      .send(body);
    expect(res.status).toBe(status);
    expect(res.body.message).toContain(message);
  });

  it('answers an unknown link 404', async () => {
    const res = await request(t.http)
      .post(`/numbers/attributes/${ASM}/999999999`)
      .auth(...USERS.alice)
      .send({ lineNumber: 1 });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`${ASM} A.1 has no used link 999999999`);
  });
  it("keeps a link's reference number and attributes when the file service makes a new iteration", async () => {
    const set = await request(t.http)
      .post(`/numbers/attributes/${ASM}/${P}-C2`)
      .auth(...USERS.alice)
      .send({ referenceNumber: 'M2', attributes: { torque_Nm: 12 } });
    expect(set.status).toBe(200);
    const before = await latest(ASM);
    const upload = await request(t.http)
      .post(`/files/${ASM}/iterated.txt?type=wt.epm.EPMDocument&iterate=true`)
      .auth(...USERS.alice)
      .send({ data: Buffer.from('next iteration').toString('base64') });
    expect(upload.status).toBe(201);
    const after = await latest(ASM);
    expect(after.id).not.toBe(before.id);
    const { rows } = await pool.query(
      `SELECT ul.reference_number, ul.attributes FROM usage_links ul JOIN masters m ON m.id = ul.child_id
       WHERE ul.parent_id = $1 AND m.number = $2`,
      [after.id, `${P}-C2`],
    );
    expect(rows).toEqual([{ reference_number: 'M2', attributes: { torque_Nm: 12 } }]);
  });
});
