import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { createContainer, type TestContainer } from '../numbers/numbers-fixtures.js';
import { expectHeldByAlice } from './checkout-fixtures.js';
import { auditOf, objectsFixture, whileTableHeld, type ObjectBody, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `CO${process.pid}`;
const DOC = 'wt.doc.WTDocument';
const PART = 'wt.part.WTPart';
const CAD = 'wt.epm.EPMDocument';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * Check-out and check-in. Objects live in `<NAME> Team` (alice and bob authors, carol reader)
 * unless a test needs the fixture's container (alice author, bob reader, carol manager).
 */
describe('check-out and check-in', () => {
  let f: ObjectsFixture;
  let team: TestContainer;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
    team = await createContainer(f.db, {
      name: `${NAME} Team`,
      members: { alice: 'author', bob: 'author', carol: 'reader' },
    });
    // One listening server: requests running at the same time must not each start and stop their own.
    await f.t.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await f.db.query('DELETE FROM links WHERE container_id = $1', [team.id]);
    await f.db.query('DELETE FROM masters WHERE container_id = $1', [team.id]);
    await f.db.query('DELETE FROM containers WHERE id = $1', [team.id]);
    await f.close();
  });

  const inTeam = (body: Record<string, unknown>) => f.create({ container: team.name, ...body });
  const doc = (number: string) => inTeam({ type: DOC, number, name: number, title: 'first' });
  const checkout = (user: 'alice' | 'bob' | 'carol' | 'admin', ref: string) =>
    f.as(user).post(`/objects/${ref}/checkout`);
  const upload = (user: 'alice' | 'bob', ref: string, file: string, text: string, query = '') =>
    f.as(user).post(`/files/${ref}/${file}${query}`, { data: b64(text) });

  it('checks out to an author: a working copy the holder alone sees, the others read the latest checked-in iteration', async () => {
    const made = await doc(`${NAME}-1`);
    const res = await checkout('alice', made.number);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      number: made.number,
      version: 'A',
      iteration: 2,
      latest: false,
      workingCopy: true,
      isCheckedOut: true,
      checkedOutBy: 'alice',
      title: 'first',
    });
    const working = res.body as ObjectBody;
    const edited = await f.as('alice').post(`/objects/${made.number}/iterations`, { title: 'second' });
    expect(edited.status).toBe(201);
    expect(edited.body).toMatchObject({ oid: working.oid, iteration: 2, title: 'second', workingCopy: true });

    const seen = await f.as('bob').get(`/objects/${made.number}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      oid: made.oid,
      iteration: 1,
      latest: true,
      title: 'first',
      isCheckedOut: true,
      checkedOutBy: 'alice',
      workingCopy: false,
    });
    const hidden = await f.as('bob').get(`/objects/${working.oid}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ statusCode: 404, message: `no object "${working.oid}"` });
    const own = await f.as('alice').get(`/objects/${working.oid}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ oid: working.oid, title: 'second', workingCopy: true });
    const listed = await f.as('bob').get(`/objects/${made.number}/iterations`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ count: 1, items: [{ oid: made.oid }] });
    const files = await f.as('bob').get(`/files/${made.number}`);
    expect(files.status).toBe(200);
    expect(files.body).toMatchObject({ count: 0, items: [], isCheckedOut: true, checkedOutBy: 'alice' });

    expectHeldByAlice(made.number, [await checkout('bob', made.number)]);
  });

  it('refuses a check-out to a user who may only read the container (403)', async () => {
    const made = await doc(`${NAME}-2`);
    const res = await checkout('carol', made.number);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      statusCode: 403,
      message: `changing ${made.number} needs author or manager rights in container '${team.name}'; you may only read there`,
    });
    expect((await f.as('alice').get(`/objects/${made.number}`)).body).toMatchObject({ isCheckedOut: false });
  });

  it("refuses bob's writes of alice's check-out in objects, files, usage links and CAD attributes with 409 naming alice", async () => {
    const d = await doc(`${NAME}-3`);
    const part = await inTeam({ type: PART, number: `${NAME}-P3`, name: 'part' });
    const member = await inTeam({ type: PART, number: `${NAME}-P3M`, name: 'member' });
    const cad = await inTeam({ type: CAD, subtype: 'CADCOMPONENT', number: `${NAME}-C3`, name: 'c3.prt' });
    const asBob = f.as('bob');
    // bob stores a file and a link before the check-out; he may not touch them after it.
    expect((await upload('bob', d.number, 'a.txt', 'bob was here')).status).toBe(201);
    const link = await asBob.post(`/objects/${part.number}/uses`, { member: member.number });
    expect(link.status).toBe(201);
    for (const o of [d, part, cad]) expect((await checkout('alice', o.number)).status).toBe(200);

    expectHeldByAlice(d.number, [
      await asBob.post(`/objects/${d.number}/iterations`, { title: 'mine' }),
      await asBob.post(`/objects/${d.number}/revisions`, {}),
      await asBob.post(`/objects/${d.number}/state`, { state: 'UNDERREVIEW' }),
      await asBob.delete(`/objects/${d.number}`),
      await asBob.post(`/objects/${d.number}/checkin`, { message: 'not mine' }),
      await upload('bob', d.number, 'a.txt', 'replaced'),
      await upload('bob', d.number, 'b.txt', 'new', '?iterate=true'),
      await upload('bob', d.oid, 'b.txt', 'by OID'),
      await asBob.delete(`/files/${d.number}/a.txt`),
    ]);
    expectHeldByAlice(part.number, [
      await asBob.post(`/objects/${part.number}/uses`, { member: member.number }),
      await asBob.patch(`/objects/${part.number}/uses/${link.body.id}`, { quantity: 3 }),
      await asBob.delete(`/objects/${part.number}/uses/${link.body.id}`),
    ]);
    expectHeldByAlice(cad.number, [
      await asBob.post(`/numbers/attributes/${cad.number}`, { attributes: { MATERIAL: 'S235' } }),
    ]);

    // Nothing changed: the latest iterations are as they were, one each.
    const files = await asBob.get(`/files/${d.number}`);
    expect(files.body.items.map((i: { filename: string }) => i.filename)).toEqual(['a.txt']);
    expect((await asBob.get(`/objects/${d.number}/iterations`)).body.count).toBe(1);
    const structure = await asBob.get(`/objects/${part.number}/structure`);
    expect(structure.body.root.children).toEqual([expect.objectContaining({ number: member.number })]);
    const attrs = await asBob.get(`/numbers/attributes/${cad.number}`);
    expect(attrs.body).toMatchObject({ version: 'A.1', attributes: {} });
  });

  it("makes the holder's changes one new iteration at check-in", async () => {
    const part = await inTeam({ type: PART, number: `${NAME}-P4`, name: 'part', attributes: { weight: 1 } });
    const member = await inTeam({ type: PART, number: `${NAME}-P4M`, name: 'member' });
    const cad = await inTeam({ type: CAD, subtype: 'CADCOMPONENT', number: `${NAME}-C4`, name: 'c4.prt' });
    const working = (await checkout('alice', part.number)).body as ObjectBody;
    expect(working).toMatchObject({ iteration: 2, workingCopy: true });
    // iterate=true asks for a new iteration each time: the working copy takes them all in place.
    const changes = [
      await f.as('alice').post(`/objects/${part.number}/iterations`, { attributes: { weight: 2 } }),
      await upload('alice', part.number, 'drawing.txt', 'v1', `?type=${PART}&iterate=true`),
      await upload('alice', part.number, 'drawing.txt', 'v2', `?type=${PART}`),
      await f.as('alice').post(`/objects/${part.number}/uses`, { member: member.number, iterate: true }),
    ];
    expect(changes.map((r) => r.status)).toEqual([201, 201, 200, 201]);
    expect(changes[1].body).toMatchObject({ holder: working.oid });
    expect(changes[3].body).toMatchObject({ parent: working.oid });
    expect((await f.as('bob').get(`/files/${part.number}?type=${PART}`)).body.count).toBe(0);

    const res = await f.as('alice').post(`/objects/${part.number}/checkin`, { message: 'weight and drawing' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      oid: working.oid,
      version: 'A',
      iteration: 2,
      latest: true,
      workingCopy: false,
      isCheckedOut: false,
      checkedOutBy: null,
      note: 'weight and drawing',
      attributes: { weight: 2 },
    });
    const iterations = await f.as('bob').get(`/objects/${part.number}/iterations`);
    expect(iterations.body.items.map((i: ObjectBody) => [i.iteration, i.latest])).toEqual([
      [1, false],
      [2, true],
    ]);
    const files = await f.as('bob').get(`/files/${part.number}?type=${PART}`);
    expect(files.body).toMatchObject({ count: 1, items: [{ filename: 'drawing.txt', size: 2 }], isCheckedOut: false });
    expect((await f.as('bob').get(`/files/${part.oid}`)).body.count).toBe(0);
    const structure = await f.as('bob').get(`/objects/${part.number}/structure`);
    expect(structure.body.root.children).toEqual([expect.objectContaining({ number: member.number })]);

    // A CAD document's attributes go to the working copy, and arrive with the check-in.
    await checkout('alice', cad.number);
    const attrs = await f.as('alice').post(`/numbers/attributes/${cad.number}`, {
      attributes: { MATERIAL: 'S235' },
      iterate: true,
    });
    expect(attrs.status).toBe(200);
    expect(attrs.body).toMatchObject({ version: 'A.2', attributes: { MATERIAL: 'S235' } });
    expect((await f.as('bob').get(`/numbers/attributes/${cad.number}`)).body).toMatchObject({
      version: 'A.1',
      attributes: {},
    });
    expect((await f.as('alice').post(`/objects/${cad.number}/checkin`, {})).status).toBe(200);
    expect((await f.as('bob').get(`/numbers/attributes/${cad.number}`)).body).toMatchObject({
      version: 'A.2',
      attributes: { MATERIAL: 'S235' },
    });

    expect((await auditOf(f.db, part.masterOid)).map((e) => [e.action, e.detail])).toEqual([
      ['objects.create', expect.anything()],
      ['objects.checkout', { from: 'A.1', working: 'A.2' }],
      ['objects.iterate', expect.anything()],
      ['files.upload', expect.anything()],
      ['files.replace', expect.anything()],
      ['objects.uses.add', expect.objectContaining({ iterated: false, version: 'A.2' })],
      ['objects.checkin', { from: 'A.1', to: 'A.2', message: 'weight and drawing' }],
    ]);
  });

  it('discards the changes made while checked out when the holder undoes the check-out', async () => {
    const d = await doc(`${NAME}-5`);
    const working = (await checkout('alice', d.number)).body as ObjectBody;
    expect((await upload('alice', d.number, 'draft.txt', 'draft')).status).toBe(201);
    expect((await f.as('alice').post(`/objects/${d.number}/iterations`, { title: 'draft' })).status).toBe(201);
    const res = await f.as('alice').post(`/objects/${d.number}/undo-checkout`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ oid: d.oid, iteration: 1, latest: true, title: 'first', isCheckedOut: false });
    expect((await f.as('alice').get(`/objects/${working.oid}`)).status).toBe(404);
    expect((await f.as('alice').get(`/objects/${d.number}/iterations`)).body.count).toBe(1);
    expect((await f.as('alice').get(`/files/${d.number}`)).body).toMatchObject({ count: 0, isCheckedOut: false });
    const again = await f.as('alice').post(`/objects/${d.number}/undo-checkout`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      message: `${d.number} is not checked out (POST /objects/${d.number}/checkout checks it out)`,
    });
    const events = await auditOf(f.db, d.masterOid);
    expect(events.at(-1)).toMatchObject({
      action: 'objects.undo-checkout',
      user_name: 'alice',
      detail: { latest: 'A.1', working: 'A.2', holder: 'alice' },
    });
  });

  it("lets a manager of the container or an administrator break another's check-out, not an author", async () => {
    const inMain = await f.create({ type: DOC, number: `${NAME}-6`, name: 'six' });
    expect((await checkout('alice', inMain.number)).status).toBe(200);
    const broken = await f.as('carol').post(`/objects/${inMain.number}/undo-checkout`);
    expect(broken.status).toBe(200);
    expect(broken.body).toMatchObject({ oid: inMain.oid, isCheckedOut: false, checkedOutBy: null });
    expect((await auditOf(f.db, inMain.masterOid)).at(-1)).toMatchObject({
      action: 'objects.break-checkout',
      user_name: 'carol',
      detail: { latest: 'A.1', working: 'A.2', holder: 'alice' },
    });

    const d = await doc(`${NAME}-7`);
    expect((await checkout('alice', d.number)).status).toBe(200);
    const byAuthor = await f.as('bob').post(`/objects/${d.number}/undo-checkout`);
    expect(byAuthor.status).toBe(403);
    expect(byAuthor.body).toMatchObject({
      statusCode: 403,
      message:
        `${d.number} is checked out by alice: undoing another user's check-out needs manager rights in ` +
        `container '${team.name}' or an administrator`,
    });
    const byAdmin = await f.as('admin').post(`/objects/${d.number}/undo-checkout`);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ oid: d.oid, isCheckedOut: false });
    expect((await checkout('bob', d.number)).body).toMatchObject({ checkedOutBy: 'bob' });
  });

  it("walks a working copy's structure by its OID for its holder alone (404 to anyone else)", async () => {
    const part = await inTeam({ type: PART, number: `${NAME}-S1`, name: 'assembly' });
    const member = await inTeam({ type: PART, number: `${NAME}-S1M`, name: 'member' });
    const out = await checkout('alice', part.number);
    expect(out.status).toBe(200);
    const working = out.body as ObjectBody;
    expect((await f.as('alice').post(`/objects/${part.number}/uses`, { member: member.number })).status).toBe(201);
    for (const user of ['bob', 'admin'] as const) {
      const hidden = await f.as(user).get(`/objects/${working.oid}/structure`);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toMatchObject({ statusCode: 404, message: `no object "${working.oid}"` });
      // By number, everyone walks the checked-in iteration: no member yet.
      const checkedIn = await f.as(user).get(`/objects/${part.number}/structure`);
      expect(checkedIn.status).toBe(200);
      expect(checkedIn.body.root).toMatchObject({ number: part.number, iteration: 1, children: [] });
    }
    const own = await f.as('alice').get(`/objects/${working.oid}/structure`);
    expect(own.status).toBe(200);
    expect(own.body.root).toMatchObject({
      number: part.number,
      iteration: 2,
      children: [expect.objectContaining({ number: member.number })],
    });
  });

  it("keeps the links made on a working copy its holder's: listed to her, and its OID no end for others", async () => {
    const part = await inTeam({ type: PART, number: `${NAME}-L1`, name: 'described' });
    const kept = await doc(`${NAME}-L1D`);
    const drafted = await doc(`${NAME}-L1E`);
    const describe = (user: 'alice' | 'bob', a: string, b: string) =>
      f.as(user).post('/objects/links', { class: 'wt.part.WTPartDescribeLink', a, b });
    expect((await describe('alice', part.number, kept.number)).status).toBe(201);
    const working = (await checkout('alice', part.number)).body as ObjectBody;
    const draft = await describe('alice', working.oid, drafted.number);
    expect(draft.status).toBe(201);

    const listed = async (user: 'alice' | 'bob', ref: string) => {
      const res = await f.as(user).get(`/objects/${ref}/links`);
      expect(res.status).toBe(200);
      return (res.body.items as { a: { number: string }; b: { number: string } }[]).map((l) => [
        l.a.number,
        l.b.number,
      ]);
    };
    expect(await listed('bob', part.number)).toEqual([[part.number, kept.number]]);
    expect(await listed('bob', drafted.number)).toEqual([]);
    expect(await listed('alice', part.number)).toEqual([
      [part.number, kept.number],
      [part.number, drafted.number],
    ]);
    expect(await listed('alice', drafted.number)).toEqual([[part.number, drafted.number]]);

    const named = await describe('bob', working.oid, kept.number);
    expect(named.status).toBe(404);
    expect(named.body).toMatchObject({
      statusCode: 404,
      message: `a (role A of wt.part.WTPartDescribeLink): no wt.part.WTPart "${working.oid}"`,
    });
  });

  it('finds objects by checkedOut and checkedOutBy in q', async () => {
    const held = await doc(`${NAME}-Q1`);
    await doc(`${NAME}-Q2`);
    await checkout('alice', held.number);
    const query = async (q: object) => {
      const res = await request(f.t.http)
        .get('/query/1.0/query')
        .query({ q: JSON.stringify({ number: `${NAME}-Q*`, ...q }) })
        .auth(...USERS.bob);
      expect(res.status).toBe(200);
      return res.body.items.map((i: { number: string; iteration: number }) => `${i.number} ${i.iteration}`);
    };
    expect(await query({ checkedOut: true })).toEqual([`${NAME}-Q1 1`]);
    expect(await query({ checkedOut: false })).toEqual([`${NAME}-Q2 1`]);
    expect(await query({ checkedOutBy: 'alice' })).toEqual([`${NAME}-Q1 1`]);
    expect(await query({ checkedOutBy: 'bob' })).toEqual([]);
    // All iterations: the working copy is never among them.
    expect(await query({ latest: false })).toEqual([`${NAME}-Q1 1`, `${NAME}-Q2 1`]);
    const bad = await request(f.t.http)
      .get('/query/1.0/query')
      .query({ q: JSON.stringify({ checkedOut: 'yes' }) })
      .auth(...USERS.bob);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('q[0].checkedOut: "yes" is not a boolean');
  });

  it('reads checkoutInfo.state in a report: c/o for the original, c/i otherwise; the working copy only asked for', async () => {
    const held = await doc(`${NAME}-R1`);
    await doc(`${NAME}-R2`);
    await checkout('alice', held.number);
    const qml = `<?xml version="1.0" encoding="UTF-8"?>
<qml><statement><query>
  <select>
    <column alias="D" heading="Number">master&gt;number</column>
    <column alias="D" heading="Iteration">iterationInfo.identifier.iterationId</column>
    <column alias="D" heading="State">checkoutInfo.state</column>
  </select>
  <from><table alias="D">wt.doc.WTDocument</table></from>
  <where><condition><operand><column alias="D">master&gt;number</column></operand><operator type="like"/><operand><constant>${NAME}-R%</constant></operand></condition></where>
  <orderBy>
    <orderByItem><columnTarget heading="Number"/></orderByItem>
    <orderByItem><columnTarget heading="Iteration"/></orderByItem>
  </orderBy>
</query></statement></qml>`;
    const res = await request(f.t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', 'text/xml')
      .send(qml);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      [`${NAME}-R1`, 1, 'c/o'],
      [`${NAME}-R2`, 1, 'c/i'],
    ]);
    // Asked for by a condition on checkoutInfo.state, the holder's working copy is a row.
    const wrk = qml.replace(
      /<where>(.*)<\/where>/,
      '<where><compositeCondition type="and">$1<condition><operand><column alias="D">checkoutInfo.state</column></operand><operator type="equal"/><operand><constant>wrk</constant></operand></condition></compositeCondition></where>',
    );
    const asked = await request(f.t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', 'text/xml')
      .send(wrk);
    expect(asked.status).toBe(200);
    expect(asked.body.items).toEqual([[`${NAME}-R1`, 2, 'wrk']]);
  });

  describe('races', () => {
    /**
     * Two check-outs forced to interleave: alice's makes its working copy and waits to record its
     * event (the test holds audit_events); bob's is sent then and waits for the master's row.
     * Once let go, bob's reads the committed check-out under the lock and is refused naming
     * alice. Without the check under the lock (and the conditional claim), bob's would make a
     * second working copy: refused by the unique index with another message, or stored.
     */
    it('refuses the second of two check-outs with 409 naming the first holder', async () => {
      const d = await doc(`${NAME}-X1`);
      const [first, second] = await whileTableHeld(
        f.db,
        'audit_events',
        () => checkout('alice', d.number),
        () => checkout('bob', d.number),
      );
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ checkedOutBy: 'alice', iteration: 2 });
      expectHeldByAlice(d.number, [second]);
      const { rows } = await f.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM iterations i JOIN masters m ON m.id = i.master_id WHERE m.number = $1 AND i.working',
        [d.number],
      );
      expect(rows[0].n).toBe(1);
    });

    /**
     * alice's check-out holds the master's row until it commits; bob's upload, sent while it
     * waits, waits for the row in the file service's write path, then finds the object checked
     * out and is refused. Without the holder check there, bob's file would be stored in the
     * latest checked-in iteration under alice's check-out.
     */
    it("refuses another user's upload that waited for a check-out", async () => {
      const d = await doc(`${NAME}-X2`);
      const [first, second] = await whileTableHeld(
        f.db,
        'audit_events',
        () => checkout('alice', d.number),
        () => upload('bob', d.number, 'late.txt', 'late'),
      );
      expect(first.status).toBe(200);
      expectHeldByAlice(d.number, [second]);
      expect((await f.as('bob').get(`/files/${d.number}`)).body.count).toBe(0);
    });
  });
});
