import { fingerprint } from '../security/security-helpers.js';
import { auditOf, objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `OU${process.pid}`;

describe('POST, PATCH and DELETE /objects/<ref>/uses', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
  });
  afterAll(() => f.close());

  async function unchanged(work: () => Promise<void>): Promise<void> {
    const audit = 'SELECT count(*)::int AS n FROM audit_events';
    const before = { tables: await fingerprint(f.db), audit: (await f.db.query(audit)).rows[0].n };
    await work();
    expect({ tables: await fingerprint(f.db), audit: (await f.db.query(audit)).rows[0].n }).toEqual(before);
  }

  const part = (number: string, user: 'alice' | 'carol' = 'alice', container?: string) =>
    f.create({ type: 'wt.part.WTPart', number, name: `part ${number}`, ...(container && { container }) }, user);

  it('adds a link to the latest iteration in place and answers it', async () => {
    const parent = await part(`${NAME}-A`);
    const child = await part(`${NAME}-B`);
    const res = await f
      .as('alice')
      .post(`/objects/${NAME}-A/uses`, { member: `${NAME}-B`, quantity: 2.5, unit: 'kg', lineNumber: 10 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      oid: `OR:wt.part.WTPartUsageLink:${res.body.id}`,
      parent: parent.oid,
      member: { oid: child.oid, number: `${NAME}-B`, name: `part ${NAME}-B` },
      quantity: 2.5,
      unit: 'kg',
      lineNumber: 10,
    });
    const structure = await f.as('bob').get(`/objects/${NAME}-A/structure`);
    expect(structure.body.root).toMatchObject({
      iteration: 1,
      children: [{ number: `${NAME}-B`, link: { quantity: 2.5, lineNumber: 10 } }],
    });
    const events = await auditOf(f.db, parent.masterOid);
    expect(events[1]).toEqual({
      action: 'objects.uses.add',
      user_name: 'alice',
      object_number: `${NAME}-A`,
      container_id: f.main.id,
      detail: {
        link: res.body.id,
        member: `${NAME}-B`,
        quantity: 2.5,
        unit: 'kg',
        lineNumber: 10,
        version: 'A.1',
        iterated: false,
      },
    });
  });

  it('links CAD assemblies to CAD documents as EPMMemberLink, members named by OID too', async () => {
    await f.create({ type: 'wt.epm.EPMDocument', subtype: 'CADASSEMBLY', number: `${NAME}-asm`, name: 'a.asm' });
    const prt = await f.create({
      type: 'wt.epm.EPMDocument',
      subtype: 'CADCOMPONENT',
      number: `${NAME}-prt`,
      name: 'b.prt',
    });
    const res = await f.as('carol').post(`/objects/${NAME}-asm/uses`, { member: prt.oid });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      oid: `OR:wt.epm.structure.EPMMemberLink:${res.body.id}`,
      quantity: 1,
      unit: 'ea',
      lineNumber: null,
      member: { number: `${NAME}-prt` },
    });
  });

  it('refuses self-use, cycles, unreadable members and objects that use nothing, storing nothing', async () => {
    await part(`${NAME}-C1`);
    await part(`${NAME}-C2`);
    await part(`${NAME}-C3`);
    await f.as('alice').post(`/objects/${NAME}-C1/uses`, { member: `${NAME}-C2`, lineNumber: 10 });
    await f.as('alice').post(`/objects/${NAME}-C2/uses`, { member: `${NAME}-C3` });
    await part(`${NAME}-S`, 'carol', f.secret.name);
    await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-doc`, name: 'doc' });
    await f.create({ type: 'wt.epm.EPMDocument', subtype: 'CADDRAWING', number: `${NAME}-drw`, name: 'c.drw' });
    await unchanged(async () => {
      const cases: [string, string, object, number, string][] = [
        ['alice', `${NAME}-C1`, { member: `${NAME}-C1` }, 400, 'member: an object cannot use itself'],
        [
          'alice',
          `${NAME}-C3`,
          { member: `${NAME}-C1` },
          409,
          `member: ${NAME}-C1 contains ${NAME}-C3 in its structure; using it would make a cycle`,
        ],
        ['alice', `${NAME}-C1`, { member: `${NAME}-S` }, 404, `member: no wt.part.WTPart "${NAME}-S"`],
        ['alice', `${NAME}-C1`, { member: `${NAME}-none` }, 404, `member: no wt.part.WTPart "${NAME}-none"`],
        [
          'alice',
          `${NAME}-C1`,
          { member: 'OR:wt.doc.WTDocument:1' },
          400,
          'member: a wt.part.WTPart uses objects of class wt.part.WTPart, not wt.doc.WTDocument',
        ],
        [
          'alice',
          `${NAME}-C1`,
          { member: `${NAME}-C3`, lineNumber: 10 },
          409,
          `lineNumber: 10 is the line number of the link to ${NAME}-C2`,
        ],
        [
          'alice',
          `${NAME}-doc`,
          { member: `${NAME}-C3` },
          400,
          `${NAME}-doc is a wt.doc.WTDocument: only parts and CAD assemblies use other objects`,
        ],
        [
          'alice',
          `${NAME}-drw`,
          { member: `${NAME}-C3` },
          400,
          `${NAME}-drw is a CADDRAWING: only parts and CAD assemblies use other objects`,
        ],
        ['alice', `${NAME}-C1`, { member: `${NAME}-C3`, quantity: 0 }, 400, 'quantity must be more than 0'],
        ['alice', `${NAME}-C1`, { member: `${NAME}-C3`, quantity: '2' }, 400, 'quantity must be a number'],
        ['alice', `${NAME}-C1`, { member: `${NAME}-C3`, lineNumber: -1 }, 400, 'lineNumber must be at least 0'],
        ['alice', `${NAME}-C1`, { member: `${NAME}-C3`, unit: '' }, 400, 'unit must be 1 to 32 printable characters'],
        [
          'alice',
          `${NAME}-C1`,
          { member: `${NAME}-C3`, referenceNumber: 'M1' },
          400,
          'property referenceNumber should not exist',
        ],
        ['alice', `${NAME}-C1`, {}, 400, 'member must be a string'],
        ['bob', `${NAME}-C1`, { member: `${NAME}-C3` }, 403, `changing ${NAME}-C1 needs author or manager rights`],
        ['alice', `${NAME}-S`, { member: `${NAME}-C3` }, 404, `no object "${NAME}-S"`],
      ];
      for (const [user, ref, body, status, message] of cases) {
        const res = await f.as(user as 'alice').post(`/objects/${ref}/uses`, body);
        expect({ ref, body, status: res.status, message: res.body.message }).toEqual({
          ref,
          body,
          status,
          message: expect.stringContaining(message),
        });
      }
    });
  });

  it('changes a link in place, named by id, OID or member number; clears its line number with null', async () => {
    const parent = await part(`${NAME}-U`);
    await part(`${NAME}-U1`);
    const added = (await f.as('alice').post(`/objects/${NAME}-U/uses`, { member: `${NAME}-U1`, lineNumber: 10 })).body;
    const byNumber = await f.as('alice').patch(`/objects/${NAME}-U/uses/${NAME}-U1`, { quantity: 4, lineNumber: 20 });
    expect(byNumber.status).toBe(200);
    expect(byNumber.body).toMatchObject({ id: added.id, parent: parent.oid, quantity: 4, lineNumber: 20, unit: 'ea' });
    const byOid = await f.as('carol').patch(`/objects/${NAME}-U/uses/${added.oid}`, { unit: 'pcs', lineNumber: null });
    expect(byOid.body).toMatchObject({ id: added.id, quantity: 4, unit: 'pcs', lineNumber: null });
    const byId = await f.as('alice').patch(`/objects/${NAME}-U/uses/${added.id}`, {});
    expect(byId.body).toMatchObject({ id: added.id, quantity: 4, unit: 'pcs' });
    expect((await f.as('bob').get(`/objects/${NAME}-U`)).body).toMatchObject({ iteration: 1, modifiedBy: 'alice' });
    const events = (await auditOf(f.db, parent.masterOid)).filter((e) => e.action === 'objects.uses.update');
    expect(events[0].detail).toEqual({
      link: added.id,
      member: `${NAME}-U1`,
      before: { quantity: 1, unit: 'ea', lineNumber: 10 },
      after: { quantity: 4, unit: 'ea', lineNumber: 20 },
      version: 'A.1',
      iterated: false,
    });
    await unchanged(async () => {
      const missing = await f.as('alice').patch(`/objects/${NAME}-U/uses/999999999`, { quantity: 1 });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(`${NAME}-U A.1 has no usage link "999999999"`);
      const bob = await f.as('bob').patch(`/objects/${NAME}-U/uses/${added.id}`, { quantity: 1 });
      expect(bob.status).toBe(403);
      const bad = await f.as('alice').patch(`/objects/${NAME}-U/uses/${added.id}`, { quantity: -1 });
      expect(bad.body).toMatchObject({ statusCode: 400, message: 'quantity must be more than 0' });
    });
  });

  it('with iterate=true makes a new iteration first; the older one keeps its links', async () => {
    const parent = await part(`${NAME}-I`);
    await part(`${NAME}-I1`);
    await part(`${NAME}-I2`);
    const add = await f.as('alice').post(`/objects/${NAME}-I/uses`, { member: `${NAME}-I1`, iterate: true });
    expect(add.status).toBe(201);
    expect(add.body.parent).not.toBe(parent.oid);
    const a2 = add.body.parent;
    const change = await f.as('alice').patch(`/objects/${NAME}-I/uses/${add.body.id}`, { quantity: 7, iterate: true });
    expect(change.body).toMatchObject({ quantity: 7, member: { number: `${NAME}-I1` } });
    expect(change.body.id).not.toBe(add.body.id);
    const remove = await f.as('alice').delete(`/objects/${NAME}-I/uses/${NAME}-I1?iterate=true`);
    expect(remove.status).toBe(200);
    expect(remove.body).toMatchObject({ quantity: 7, member: { number: `${NAME}-I1` } });
    const list = await f.as('bob').get(`/objects/${NAME}-I/iterations`);
    expect(list.body.items.map((i: { iteration: number }) => i.iteration)).toEqual([1, 2, 3, 4]);
    const quantities = async (oid: string) =>
      (await f.as('bob').get(`/objects/${oid}/structure`)).body.root.children.map(
        (c: { link: { quantity: number } }) => c.link.quantity,
      );
    expect(await quantities(parent.oid)).toEqual([]);
    expect(await quantities(a2)).toEqual([1]);
    expect(await quantities(change.body.parent)).toEqual([7]);
    expect(await quantities(remove.body.parent)).toEqual([]);
    const events = (await auditOf(f.db, parent.masterOid)).filter((e) => e.action.startsWith('objects.uses'));
    expect(events.map((e) => [e.action, (e.detail as { version: string }).version])).toEqual([
      ['objects.uses.add', 'A.2'],
      ['objects.uses.update', 'A.3'],
      ['objects.uses.remove', 'A.4'],
    ]);
  });

  it('removes a link; two links to one member must be named by id; restricted members stay hidden', async () => {
    const parent = await part(`${NAME}-R`);
    await part(`${NAME}-R1`);
    const one = (await f.as('alice').post(`/objects/${NAME}-R/uses`, { member: `${NAME}-R1`, lineNumber: 10 })).body;
    const two = (await f.as('alice').post(`/objects/${NAME}-R/uses`, { member: `${NAME}-R1`, lineNumber: 20 })).body;
    await part(`${NAME}-RS`, 'carol', f.secret.name);
    const hidden = (await f.as('carol').post(`/objects/${NAME}-R/uses`, { member: `${NAME}-RS` })).body;
    await unchanged(async () => {
      const ambiguous = await f.as('alice').delete(`/objects/${NAME}-R/uses/${NAME}-R1`);
      expect(ambiguous.status).toBe(409);
      expect(ambiguous.body.message).toBe(
        `link: ${NAME}-R uses ${NAME}-R1 2 times; give the link id (${one.id}, ${two.id})`,
      );
      const byHiddenNumber = await f.as('alice').delete(`/objects/${NAME}-R/uses/${NAME}-RS`);
      expect(byHiddenNumber.status).toBe(404);
    });
    const removed = await f.as('alice').delete(`/objects/${NAME}-R/uses/${hidden.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      id: hidden.id,
      oid: hidden.oid,
      parent: parent.oid,
      member: { oid: null, number: null, name: null, restricted: true },
      quantity: 1,
      unit: 'ea',
      lineNumber: null,
    });
    expect((await f.as('alice').delete(`/objects/${NAME}-R/uses/${one.id}`)).body).toMatchObject({
      id: one.id,
      lineNumber: 10,
    });
    const left = await f.db.query('SELECT id FROM usage_links WHERE parent_id = $1', [
      Number(parent.oid.split(':').pop()),
    ]);
    expect(left.rows).toEqual([{ id: two.id }]);
    const events = (await auditOf(f.db, parent.masterOid)).filter((e) => e.action === 'objects.uses.remove');
    expect(events.map((e) => e.detail)).toEqual([
      {
        link: hidden.id,
        member: `${NAME}-RS`,
        quantity: 1,
        unit: 'ea',
        lineNumber: null,
        version: 'A.1',
        iterated: false,
      },
      { link: one.id, member: `${NAME}-R1`, quantity: 1, unit: 'ea', lineNumber: 10, version: 'A.1', iterated: false },
    ]);
  });
});
