import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `VR${process.pid}`;

/** `VR:<class>:<branch id>`: a version, as templates produce it and every service that takes an OID takes it. */
describe('version references', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
  });
  afterAll(() => f.close());

  const idOf = (oid: string) => Number(oid.split(':').pop());

  it('are produced by templates, and name the latest iteration of their version in /objects, /files and /numbers', async () => {
    const a1 = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-doc`, name: 'spec' });
    const a2 = (await f.as('alice').post(`/objects/${a1.number}/iterations`, {})).body;
    const b1 = (await f.as('alice').post(`/objects/${a1.number}/revisions`, {})).body;
    const b2 = (await f.as('alice').post(`/objects/${a1.number}/iterations`, {})).body;
    const vrA = `VR:wt.doc.WTDocument:${idOf(a1.oid)}`;
    const vrB = `VR:wt.doc.WTDocument:${idOf(b1.oid)}`;

    const qml = `<qml><statement><query>
      <select>
        <object alias="D" heading="Iteration" propertyName="iterationDisplayIdentifier"/>
        <object alias="D" heading="Version" propertyName="versionReference"/>
        <object alias="D" heading="Branch" propertyName="branchIdentifier"/>
      </select>
      <from><table alias="D">wt.doc.WTDocument</table></from>
      <where><condition><operand><column alias="D">number</column></operand><operator type="equal"/>
        <operand><constant>${a1.number}</constant></operand></condition></where>
      <orderBy><orderByItem><columnTarget heading="Iteration"/></orderByItem></orderBy>
    </query></statement></qml>`;
    const report = await request(f.t.http)
      .post('/reports')
      .auth(...USERS.bob)
      .set('Content-Type', 'text/xml')
      .send(qml);
    expect([report.status, report.body.message]).toEqual([200, undefined]);
    expect(report.body.items).toEqual([
      ['A.1', vrA, idOf(a1.oid)],
      ['A.2', vrA, idOf(a1.oid)],
      ['B.1', vrB, idOf(b1.oid)],
      ['B.2', vrB, idOf(b1.oid)],
    ]);

    // Every answer of an iteration carries its version's reference, the value templates produce.
    expect([a1, a2, b1, b2].map((o) => o.versionReference)).toEqual([vrA, vrA, vrB, vrB]);
    const readA = await f.as('bob').get(`/objects/${vrA}`);
    expect([readA.status, readA.body.oid, readA.body.versionReference]).toEqual([200, a2.oid, vrA]);
    const listed1 = await f.as('bob').get(`/objects/${a1.number}/iterations`);
    expect([listed1.status, listed1.body.items.map((i: { versionReference: string }) => i.versionReference)]).toEqual([
      200,
      [vrA, vrA, vrB, vrB],
    ]);
    const oldOne = await f.as('bob').get(`/objects/${a1.number}?version=A.1`);
    expect([oldOne.status, oldOne.body.oid, oldOne.body.versionReference]).toEqual([200, a1.oid, vrA]);
    expect((await f.as('bob').get(`/objects/${vrB}`)).body.oid).toBe(b2.oid);
    // A version that is not the latest is read-only, as an older iteration's OID is.
    const old = await f.as('alice').post(`/objects/${vrA}/iterations`, {});
    expect(old.status).toBe(409);
    expect(old.body.message).toContain('only the latest iteration can be changed');
    const b3 = await f.as('alice').post(`/objects/${vrB}/iterations`, {});
    expect([b3.status, b3.body.version, b3.body.iteration, b3.body.versionReference]).toEqual([201, 'B', 3, vrB]);
    const review = await f.as('alice').post(`/objects/${vrB}/state`, { state: 'UNDERREVIEW' });
    expect([review.status, review.body.oid, review.body.versionReference]).toEqual([200, b3.body.oid, vrB]);

    const upload = await f
      .as('alice')
      .post(`/files/${vrB}/notes.txt`, { data: Buffer.from('notes').toString('base64') });
    expect(upload.status).toBe(201);
    expect(upload.body.holder).toBe(b3.body.oid);
    const listed = await f.as('bob').get(`/files/${vrB}?role=all`);
    expect([listed.status, listed.body.items.map((i: { filename: string }) => i.filename)]).toEqual([
      200,
      ['notes.txt'],
    ]);

    // A branch id is the id of a version's first iteration: another iteration's id names no version.
    const notBranch = await f.as('bob').get(`/objects/VR:wt.doc.WTDocument:${idOf(a2.oid)}`);
    expect(notBranch.status).toBe(404);
    const bad = await f.as('bob').get('/objects/VR:nothing');
    expect([bad.status, bad.body.message]).toEqual([
      400,
      '"VR:nothing" is not a version reference (VR:<class>:<branch id>)',
    ]);

    const cad = await f.create({
      type: 'wt.epm.EPMDocument',
      subtype: 'CADCOMPONENT',
      number: `${NAME}-cad`,
      name: 'gear.prt',
    });
    const vrCad = `VR:wt.epm.EPMDocument:${idOf(cad.oid)}`;
    const merged = await f.as('alice').post(`/numbers/attributes/${vrCad}`, { attributes: { material: 'steel' } });
    expect(merged.status).toBe(200);
    const attrs = await f.as('bob').get(`/numbers/attributes/${vrCad}`);
    expect([attrs.status, attrs.body.attributes]).toEqual([200, { material: 'steel' }]);
    expect(cad.versionReference).toBe(vrCad);
  });

  it("are answered for the catalog's other versioned classes too", async () => {
    const order = await f.create({ type: 'wt.change2.WTChangeOrder2', number: `${NAME}-CN`, name: 'change' });
    const vr = `VR:wt.change2.WTChangeOrder2:${idOf(order.oid)}`;
    expect(order.versionReference).toBe(vr);
    const revised = await f.as('alice').post(`/objects/${vr}/revisions`, {});
    expect([revised.status, revised.body.versionReference]).toEqual([
      201,
      `VR:wt.change2.WTChangeOrder2:${idOf(revised.body.oid)}`,
    ]);
    const read = await f.as('bob').get(`/objects/${vr}`);
    expect([read.status, read.body.oid, read.body.versionReference]).toEqual([200, order.oid, vr]);
  });
});
