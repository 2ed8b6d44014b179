import request from 'supertest';
import { createTestApp, USERS } from '../helpers/test-app.js';
import { fingerprint } from '../security/security-helpers.js';
import { auditOf, objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `OI${process.pid}`;

describe('POST /objects/<ref>/iterations, /revisions and /state', () => {
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

  /** A part using another, with a file: what iterations and revisions must carry over. */
  async function partWithFileAndLink(number: string) {
    const part = await f.create({
      type: 'wt.part.WTPart',
      number,
      name: `part ${number}`,
      attributes: { material: 'steel', mass: 2 },
    });
    await f.create({ type: 'wt.part.WTPart', number: `${number}-child`, name: 'child' });
    const file = await f
      .as('alice')
      .post(`/files/${number}/drawing.txt?type=wt.part.WTPart`, { data: Buffer.from('bytes').toString('base64') });
    expect(file.status).toBe(201);
    const link = await f
      .as('alice')
      .post(`/objects/${number}/uses`, { member: `${number}-child`, quantity: 3, lineNumber: 10 });
    expect(link.status).toBe(201);
    return { part, link: link.body as { id: number } };
  }

  async function carried(iterationOid: string) {
    const id = Number(iterationOid.split(':').pop());
    const files = await f.db.query('SELECT file_name, sha256 FROM content_items WHERE iteration_id = $1', [id]);
    const links = await f.db.query(
      `SELECT ul.id, m.number, ul.quantity, ul.line_number::int AS line FROM usage_links ul JOIN masters m ON m.id = ul.child_id
       WHERE ul.parent_id = $1`,
      [id],
    );
    return { files: files.rows.map((r) => r.file_name), links: links.rows };
  }

  it('makes the next iteration with the changes asked for, carrying files and links over', async () => {
    const number = `${NAME}-it`;
    const { part, link } = await partWithFileAndLink(number);
    const res = await f.as('alice').post(`/objects/${number}/iterations`, {
      name: 'renamed part',
      description: 'now described',
      attributes: { mass: 2.5, material: null, finish: 'anodised' },
      note: 'mass measured',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      number,
      name: 'renamed part',
      version: 'A',
      iteration: 2,
      latest: true,
      state: 'INWORK',
      description: 'now described',
      note: 'mass measured',
      attributes: { mass: 2.5, finish: 'anodised' },
      createdBy: 'alice',
    });
    expect(res.body.oid).not.toBe(part.oid);
    const now = await carried(res.body.oid);
    expect(now.files).toEqual(['drawing.txt']);
    expect(now.links).toEqual([{ id: expect.any(Number), number: `${number}-child`, quantity: 3, line: 10 }]);
    expect(now.links[0].id).not.toBe(link.id);
    // The older iteration keeps what it had; the name is the object's, so it shows the new one.
    const old = await f.as('bob').get(`/objects/${part.oid}`);
    expect(old.body).toMatchObject({
      iteration: 1,
      latest: false,
      name: 'renamed part',
      attributes: { material: 'steel', mass: 2 },
    });
    expect(await carried(part.oid)).toEqual({
      files: ['drawing.txt'],
      links: [{ id: link.id, number: `${number}-child`, quantity: 3, line: 10 }],
    });
    const events = await auditOf(f.db, part.masterOid);
    // The file service records its upload on the same master: one history for the object.
    expect(events.map((e) => e.action)).toEqual([
      'objects.create',
      'files.upload',
      'objects.uses.add',
      'objects.iterate',
    ]);
    expect(events[3]).toMatchObject({
      user_name: 'alice',
      detail: {
        from: 'A.1',
        to: 'A.2',
        changed: ['name', 'description', 'attributes.finish', 'attributes.mass', 'attributes.material'],
      },
    });
  });

  it('clears a title with null; managers and administrators iterate too', async () => {
    const doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-doc`, name: 'doc', title: 'a title' });
    const cleared = await f.as('carol').post(`/objects/${NAME}-doc/iterations`, { title: null });
    expect(cleared.status).toBe(201);
    expect(cleared.body).toMatchObject({ title: null, iteration: 2, createdBy: 'carol', note: null });
    const admin = await f.as('admin').post(`/objects/${cleared.body.oid}/iterations`, {});
    expect(admin.status).toBe(201);
    expect(admin.body).toMatchObject({ iteration: 3, createdBy: 'admin' });
    expect((await auditOf(f.db, doc.masterOid))[1].detail).toEqual({ from: 'A.1', to: 'A.2', changed: ['title'] });
  });

  it('refuses readers (403), outsiders (404), older iterations (409) and bad input (400), storing nothing', async () => {
    const doc = await f.create({ type: 'com.acme.SoftwarePart', number: `${NAME}-ref`, name: 'firmware' });
    await f.as('alice').post(`/objects/${NAME}-ref/iterations`, {});
    await f
      .as('carol')
      .post('/objects', { type: 'wt.doc.WTDocument', container: f.secret.name, number: `${NAME}-sec`, name: 's' });
    await unchanged(async () => {
      const cases: [string, string, object, number, string][] = [
        [
          'bob',
          `/objects/${NAME}-ref/iterations`,
          {},
          403,
          `changing ${NAME}-ref needs author or manager rights in container '${f.main.name}'; you may only read there`,
        ],
        ['alice', `/objects/${NAME}-sec/iterations`, {}, 404, `no object "${NAME}-sec"`],
        ['alice', `/objects/${NAME}-sec/revisions`, {}, 404, `no object "${NAME}-sec"`],
        ['alice', `/objects/${NAME}-sec/state`, { state: 'UNDERREVIEW' }, 404, `no object "${NAME}-sec"`],
        [
          'bob',
          `/objects/${NAME}-ref/revisions`,
          {},
          403,
          `changing ${NAME}-ref needs author or manager rights in container '${f.main.name}'; you may only read there`,
        ],
        [
          'bob',
          `/objects/${NAME}-ref/state`,
          { state: 'UNDERREVIEW' },
          403,
          `changing ${NAME}-ref needs author or manager rights in container '${f.main.name}'; you may only read there`,
        ],
        [
          'alice',
          `/objects/${doc.oid}/iterations`,
          {},
          409,
          `${doc.oid} is iteration A.1 of ${NAME}-ref, not the latest (A.2, ${doc.oid.replace(/\d+$/, '')}`,
        ],
        ['alice', `/objects/${doc.oid}/revisions`, {}, 409, 'only the latest iteration can be changed'],
        [
          'alice',
          `/objects/${NAME}-ref/iterations`,
          { attributes: { memoryKb: 1.5 } },
          400,
          'attributes.memoryKb must be an integer (a long of com.acme.SoftwarePart)',
        ],
        ['alice', `/objects/${NAME}-ref/iterations`, { title: 'x' }, 400, 'title is only for wt.doc.WTDocument'],
        [
          'alice',
          `/objects/${NAME}-ref/iterations`,
          { name: ' padded' },
          400,
          'name must be 1 to 1000 printable characters without leading or trailing space',
        ],
        ['alice', `/objects/${NAME}-ref/iterations`, { state: 'RELEASED' }, 400, 'property state should not exist'],
        ['alice', `/objects/${NAME}-ref/revisions`, { note: 5 }, 400, 'note must be a string'],
        ['alice', `/objects/${NAME}-ref/state`, {}, 400, 'state must be given'],
        [
          'alice',
          `/objects/${NAME}-ref/state`,
          { state: 'released' },
          400,
          'state must be a state name such as RELEASED',
        ],
        [
          'alice',
          `/objects/${NAME}-ref/state`,
          { state: 'FROZEN' },
          400,
          'state: FROZEN is not a state of the lifecycle (INWORK, UNDERREVIEW, RELEASED, OBSOLETE)',
        ],
        [
          'alice',
          `/objects/${NAME}-ref/state`,
          { state: 'RELEASED' },
          409,
          `${NAME}-ref A.2: cannot go from INWORK to RELEASED: from INWORK the lifecycle allows UNDERREVIEW`,
        ],
      ];
      for (const [user, path, body, status, message] of cases) {
        const res = await f.as(user as 'alice').post(path, body);
        expect({ path, status: res.status, message: res.body.message }).toEqual({
          path,
          status,
          message: expect.stringContaining(message),
        });
      }
    });
  });

  it('revises A → B in the first state, carrying attributes, files and links; the list shows every iteration', async () => {
    const number = `${NAME}-rev`;
    const { part } = await partWithFileAndLink(number);
    // Iterated before it is released: a released object is revised, not iterated (objects-released).
    expect((await f.as('alice').post(`/objects/${number}/iterations`, {})).status).toBe(201);
    for (const state of ['UNDERREVIEW', 'RELEASED']) {
      expect((await f.as('alice').post(`/objects/${number}/state`, { state })).status).toBe(200);
    }
    const res = await f.as('alice').post(`/objects/${number}/revisions`, { note: 'for the new housing' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      version: 'B',
      iteration: 1,
      latest: true,
      state: 'INWORK',
      note: 'for the new housing',
      attributes: { material: 'steel', mass: 2 },
    });
    expect(await carried(res.body.oid)).toMatchObject({
      files: ['drawing.txt'],
      links: [{ number: `${number}-child`, quantity: 3, line: 10 }],
    });
    const list = await f.as('bob').get(`/objects/${number}/iterations`);
    expect(
      list.body.items.map(
        (i: { version: string; iteration: number; state: string }) => `${i.version}.${i.iteration} ${i.state}`,
      ),
    ).toEqual(['A.1 INWORK', 'A.2 RELEASED', 'B.1 INWORK']);
    expect((await f.as('carol').post(`/objects/${number}/revisions`)).body).toMatchObject({
      version: 'C',
      iteration: 1,
    });
    const events = await auditOf(f.db, part.masterOid);
    expect(events.filter((e) => e.action === 'objects.revise').map((e) => e.detail)).toEqual([
      { from: 'A.2', to: 'B.1', state: { from: 'RELEASED', to: 'INWORK' } },
      { from: 'B.1', to: 'C.1', state: { from: 'INWORK', to: 'INWORK' } },
    ]);
  });

  it('counts versions past Z as AA, and stops after ZZZ', async () => {
    const doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-z`, name: 'z' });
    const id = Number(doc.oid.split(':').pop());
    await f.db.query(`UPDATE iterations SET version = 'Z' WHERE id = $1`, [id]);
    expect((await f.as('alice').post(`/objects/${NAME}-z/revisions`)).body).toMatchObject({
      version: 'AA',
      iteration: 1,
    });
    await f.db.query(`UPDATE iterations SET version = 'ZZZ' WHERE id = $1`, [id]);
    await unchanged(async () => {
      const res = await f.as('alice').post(`/objects/${NAME}-z/revisions`);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(`${NAME}-z has version ZZZ: no version follows it (A to ZZZ)`);
    });
  });

  it('moves the state along the lifecycle, back from review, and not past a final state', async () => {
    const doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-st`, name: 'states' });
    const path = `/objects/${NAME}-st/state`;
    for (const state of ['UNDERREVIEW', 'INWORK', 'UNDERREVIEW', 'RELEASED', 'OBSOLETE']) {
      const res = await f.as('alice').post(path, { state });
      expect({ status: res.status, state: res.body.state, iteration: res.body.iteration }).toEqual({
        status: 200,
        state,
        iteration: 1,
      });
    }
    const final = await f.as('alice').post(path, { state: 'INWORK' });
    expect(final.status).toBe(409);
    expect(final.body.message).toBe(`${NAME}-st A.1: cannot go from OBSOLETE to INWORK: OBSOLETE is a final state`);
    const events = (await auditOf(f.db, doc.masterOid)).filter((e) => e.action === 'objects.state');
    expect(events.map((e) => e.detail)).toEqual([
      { from: 'INWORK', to: 'UNDERREVIEW', version: 'A.1' },
      { from: 'UNDERREVIEW', to: 'INWORK', version: 'A.1' },
      { from: 'INWORK', to: 'UNDERREVIEW', version: 'A.1' },
      { from: 'UNDERREVIEW', to: 'RELEASED', version: 'A.1' },
      { from: 'RELEASED', to: 'OBSOLETE', version: 'A.1' },
    ]);
  });

  it('follows the lifecycle OBJECTS_LIFECYCLE configures', async () => {
    const app = await createTestApp({ OBJECTS_LIFECYCLE: '{"DRAFT":["APPROVED"],"APPROVED":["DRAFT"]}' });
    const as = (path: string, body: object) =>
      request(app.http)
        .post(path)
        .auth(...USERS.alice)
        .send(body);
    try {
      const created = await as('/objects', {
        type: 'wt.doc.WTDocument',
        container: f.main.name,
        number: `${NAME}-lc`,
        name: 'lc',
      });
      expect(created.body).toMatchObject({ state: 'DRAFT' });
      expect((await as(`/objects/${NAME}-lc/state`, { state: 'APPROVED' })).body).toMatchObject({ state: 'APPROVED' });
      const old = await as(`/objects/${NAME}-lc/state`, { state: 'RELEASED' });
      expect(old.status).toBe(400);
      expect(old.body.message).toBe('state: RELEASED is not a state of the lifecycle (DRAFT, APPROVED)');
    } finally {
      await app.close();
    }
    // A state the configured lifecycle does not know has no way out under the default one.
    const res = await f.as('alice').post(`/objects/${NAME}-lc/state`, { state: 'INWORK' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      `${NAME}-lc A.1: state APPROVED is not in the lifecycle (INWORK, UNDERREVIEW, RELEASED, OBSOLETE): no transition leaves it`,
    );
  });
});
