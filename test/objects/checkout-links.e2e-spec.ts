import { importText } from '../../src/import/import-file.js';
import { testDatabaseUrl } from '../helpers/test-database.js';
import { createContainer, type TestContainer } from '../numbers/numbers-fixtures.js';
import { expectHeldByAlice } from './checkout-fixtures.js';
import { objectsFixture, whileTableHeld, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `COL${process.pid}`;
const PKG = `com.test.col${process.pid}`;
/** A plain class a dataset declares, and a declared link class from parts to it. */
const SAMPLE = `${PKG}.Sample`;
const SAMPLED = `${PKG}.SampledBy`;
const DOC = 'wt.doc.WTDocument';
const PART = 'wt.part.WTPart';
const DESCRIBE = 'wt.part.WTPartDescribeLink';

/**
 * Check-outs and the writes outside the objects, files, usage links and CAD services: catalog
 * links (a link is its role A's, as a usage link is its parent's), deletions removing other
 * objects' links, plain objects and the dataset import. Objects live in `<NAME> Team` (alice and
 * bob authors).
 */
describe('check-out of the objects catalog links, deletions and imports change', () => {
  let f: ObjectsFixture;
  let team: TestContainer;
  beforeAll(async () => {
    f = await objectsFixture(NAME, { CATALOG_CHECK_INTERVAL_MS: '0' });
    team = await createContainer(f.db, { name: `${NAME} Team`, members: { alice: 'author', bob: 'author' } });
    const types = {
      classes: [
        { name: SAMPLE, parent: 'wt.fc.Item' },
        { name: SAMPLED, parent: 'wt.fc.ObjectToObjectLink', roles: { a: PART, b: SAMPLE } },
      ],
    };
    await importText(JSON.stringify({ format: 'pdm-dataset/1', types }), NAME, testDatabaseUrl());
    await f.t.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await f.db.query('DELETE FROM links WHERE container_id = $1', [team.id]);
    await f.db.query('DELETE FROM objects WHERE container_id = $1', [team.id]);
    await f.db.query('DELETE FROM masters WHERE container_id = $1', [team.id]);
    await f.db.query('DELETE FROM containers WHERE id = $1', [team.id]);
    await f.db.query('DELETE FROM catalog_types WHERE name LIKE $1', [`${PKG}.%`]);
    await f.close();
  });

  const inTeam = (type: string, number: string) => f.create({ container: team.name, type, number, name: number });
  const sample = async (number: string) => {
    const res = await f.as('alice').post('/objects', { type: SAMPLE, container: team.name, number, name: number });
    expect(res.status).toBe(201);
    return res.body as { oid: string; number: string };
  };
  const checkout = async (ref: string) =>
    expect((await f.as('alice').post(`/objects/${ref}/checkout`)).status).toBe(200);
  const link = (user: 'alice' | 'bob', cls: string, a: string, b: string) =>
    f.as(user).post('/objects/links', { class: cls, a, b });
  const linksOf = async (ref: string) =>
    ((await f.as('bob').get(`/objects/${ref}/links`)).body.items as { class: string; b: { number: string } }[])
      .map((l) => `${l.class} ${l.b.number}`)
      .sort();

  it("refuses bob's changes of the links alice's checked-out part owns, standard and declared classes; alice's pass", async () => {
    const part = await inTeam(PART, `${NAME}-P1`);
    const [d1, d2] = [await inTeam(DOC, `${NAME}-D1`), await inTeam(DOC, `${NAME}-D2`)];
    const s1 = await sample(`${NAME}-S1`);
    const before = await link('bob', DESCRIBE, part.number, d1.number);
    expect(before.status).toBe(201);
    await checkout(part.number);

    expectHeldByAlice(part.number, [
      await link('bob', DESCRIBE, part.number, d2.number),
      await link('bob', SAMPLED, part.number, s1.number),
      await f.as('bob').delete(`/objects/links/${before.body.id}`),
      await f.as('bob').delete(`/objects/links/${before.body.oid}`),
    ]);
    expect(await linksOf(part.number)).toEqual([`${DESCRIBE} ${d1.number}`]);

    const added = await link('alice', SAMPLED, part.number, s1.number);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ class: SAMPLED, a: { number: part.number }, b: { oid: s1.oid } });
    const removed = await f.as('alice').delete(`/objects/links/${before.body.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: before.body.id, class: DESCRIBE, b: { number: d1.number } });
    expect(await linksOf(part.number)).toEqual([`${SAMPLED} ${s1.number}`]);
  });

  it('removes the links naming the working copy when the check-out is undone: they would name nothing', async () => {
    const part = await inTeam(PART, `${NAME}-P5`);
    const d = await inTeam(DOC, `${NAME}-D6`);
    const working = await f.as('alice').post(`/objects/${part.number}/checkout`);
    expect(working.status).toBe(200);
    const made = await link('alice', DESCRIBE, working.body.oid, d.number);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ a: { oid: working.body.oid }, b: { number: d.number } });
    // Nobody else names the working copy, nor removes its links.
    const hidden = await link('bob', DESCRIBE, working.body.oid, d.number);
    expect([hidden.status, hidden.body.message]).toEqual([
      404,
      `a (role A of ${DESCRIBE}): no ${PART} "${working.body.oid}"`,
    ]);
    expectHeldByAlice(working.body.oid, [await f.as('bob').delete(`/objects/links/${made.body.id}`)]);
    expect((await f.as('alice').post(`/objects/${part.number}/undo-checkout`)).status).toBe(200);
    const { rows } = await f.db.query('SELECT id FROM links WHERE id = $1', [made.body.id]);
    expect(rows).toEqual([]);
    expect(await linksOf(d.number)).toEqual([]);
  });

  it('lets bob link to an object alice holds checked out in role B: only role A owns the link', async () => {
    const part = await inTeam(PART, `${NAME}-P2`);
    const d = await inTeam(DOC, `${NAME}-D3`);
    await checkout(d.number);
    const res = await link('bob', DESCRIBE, part.number, d.number);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ class: DESCRIBE, a: { number: part.number }, b: { number: d.number } });
  });

  it("refuses bob's deletions that would remove usage links or links of alice's checked-out part; alice's pass", async () => {
    const part = await inTeam(PART, `${NAME}-P3`);
    const member = await inTeam(PART, `${NAME}-P3M`);
    const d = await inTeam(DOC, `${NAME}-D4`);
    const s = await sample(`${NAME}-S2`);
    expect((await f.as('bob').post(`/objects/${part.number}/uses`, { member: member.number })).status).toBe(201);
    expect((await link('bob', DESCRIBE, part.number, d.number)).status).toBe(201);
    expect((await link('bob', SAMPLED, part.number, s.number)).status).toBe(201);
    await checkout(part.number);

    expectHeldByAlice(part.number, [
      await f.as('bob').delete(`/objects/${member.number}?type=${PART}&force=true`),
      await f.as('bob').delete(`/objects/${d.number}?force=true`),
      await f.as('bob').delete(`/objects/${s.oid}?force=true`),
    ]);
    expect(await linksOf(part.number)).toEqual([`${SAMPLED} ${s.number}`, `${DESCRIBE} ${d.number}`]);

    const deleted = [
      await f.as('alice').delete(`/objects/${s.oid}?force=true`),
      await f.as('alice').delete(`/objects/${d.number}?force=true`),
      await f.as('alice').delete(`/objects/${member.number}?type=${PART}&force=true`),
    ];
    // The sample's link, the document's link, the member's two usage links (the latest iteration's and the working copy's).
    expect(deleted.map((r) => [r.status, r.body.links, r.body.usedBy])).toEqual([
      [200, 1, undefined],
      [200, 1, 0],
      [200, 0, 2],
    ]);
    expect(await linksOf(part.number)).toEqual([]);
  });

  it('answers 400 for a check-out of a plain object: its class is not versioned', async () => {
    const s = await sample(`${NAME}-S3`);
    const message = (ref: string) =>
      `${ref} is a ${SAMPLE}, a class that is not versioned: only versioned objects (documents, parts, CAD ` +
      'documents, change objects …) are checked out; a plain object changes in place (PATCH /objects/<ref>)';
    const byOid = await f.as('alice').post(`/objects/${s.oid}/checkout`);
    expect(byOid.status).toBe(400);
    expect(byOid.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: message(s.oid),
      requestId: expect.any(String),
    });
    const byNumber = await f.as('alice').post(`/objects/${s.number}/checkin?type=${SAMPLE}`);
    expect([byNumber.status, byNumber.body.message]).toEqual([400, message(s.number)]);
  });

  it('refuses an import changing a checked-out object or a link it owns, and stores nothing', async () => {
    const part = await inTeam(PART, `${NAME}-P4`);
    const d = await inTeam(DOC, `${NAME}-D5`);
    await checkout(part.number);
    const changed = { class: PART, number: part.number, name: 'renamed', container: team.name };
    const refusal = (path: string) =>
      `${path}: ${part.number} is checked out by alice; an import does not change a checked-out object: have it ` +
      `checked in, or the check-out undone (POST /objects/${part.number}/undo-checkout), and import again`;
    const datasets: [object, string][] = [
      [{ objects: [changed] }, refusal('objects[0]')],
      [{ links: [{ class: DESCRIBE, a: part.number, b: d.number }] }, refusal('links[0].a')],
    ];
    for (const [data, message] of datasets) {
      const run = importText(JSON.stringify({ format: 'pdm-dataset/1', ...data }), NAME, testDatabaseUrl());
      await expect(run).rejects.toThrow(message);
    }
    const seen = await f.as('bob').get(`/objects/${part.number}`);
    expect(seen.body).toMatchObject({ name: part.number, iteration: 1, latest: true, checkedOutBy: 'alice' });
    expect(await linksOf(part.number)).toEqual([]);
  });

  describe('races', () => {
    /**
     * alice's check-out holds the part's master until it commits (the test holds audit_events);
     * bob's link, sent while it waits, holds role A FOR SHARE, so it waits for the check-out and
     * then reads it: refused naming alice. Without the guard on the locked row, bob's link would
     * be stored on the part alice holds.
     */
    it("refuses a link whose role A's check-out committed while the link's request waited", async () => {
      const part = await inTeam(PART, `${NAME}-X1`);
      const d = await inTeam(DOC, `${NAME}-X1D`);
      const [first, second] = await whileTableHeld(
        f.db,
        'audit_events',
        () => f.as('alice').post(`/objects/${part.number}/checkout`),
        () => link('bob', DESCRIBE, part.number, d.number),
      );
      expect([first.status, first.body.checkedOutBy]).toEqual([200, 'alice']);
      expectHeldByAlice(part.number, [second]);
      expect(await linksOf(part.number)).toEqual([]);
    });
  });
});
