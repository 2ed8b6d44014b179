import { interleave } from '../helpers/interleave.js';
import { objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `RL${process.pid}`;

/**
 * Released objects get no new iteration (OBJECTS_RELEASED_STATES), and an iteration holds at
 * most OBJECTS_MAX_LINKS usage links, also when two adds run at once.
 */
describe('released objects and the usage-link cap', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME, { OBJECTS_MAX_LINKS: '2' });
    await f.t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => f.close());

  const part = (n: string) => f.create({ type: 'wt.part.WTPart', number: `${NAME}-${n}`, name: `part ${n}` });
  const iterations = async (number: string) =>
    (
      await f.db.query(
        'SELECT count(*)::int AS n FROM iterations i JOIN masters m ON m.id = i.master_id WHERE m.number = $1',
        [number],
      )
    ).rows[0].n;

  it('refuses a new iteration of a RELEASED object (objects, files, usage links) and takes a revision', async () => {
    const doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-doc`, name: 'spec' });
    for (const state of ['UNDERREVIEW', 'RELEASED']) {
      expect((await f.as('alice').post(`/objects/${doc.number}/state`, { state })).status).toBe(200);
    }
    const message =
      `${NAME}-doc A.1 is RELEASED: a released object gets no new iteration; revise it first ` +
      "(POST /objects/<ref>/revisions makes the next version, in the lifecycle's first state)";
    const iterate = await f.as('alice').post(`/objects/${doc.number}/iterations`, { note: 'late fix' });
    expect([iterate.status, iterate.body.message]).toEqual([409, message]);
    const upload = await f
      .as('alice')
      .post(`/files/${doc.number}/late.txt?iterate=true`, { data: Buffer.from('x').toString('base64') });
    expect([upload.status, upload.body.message]).toEqual([409, message]);
    expect(await iterations(doc.number)).toBe(1);

    const revised = await f.as('alice').post(`/objects/${doc.number}/revisions`, {});
    expect(revised.status).toBe(201);
    expect(revised.body).toMatchObject({ version: 'B', iteration: 1, state: 'INWORK' });
    const next = await f.as('alice').post(`/objects/${doc.number}/iterations`, {});
    expect([next.status, next.body.version, next.body.iteration]).toEqual([201, 'B', 2]);

    const assembly = await part('asm');
    const member = await part('m0');
    for (const state of ['UNDERREVIEW', 'RELEASED']) {
      await f.as('alice').post(`/objects/${assembly.number}/state`, { state });
    }
    const link = await f.as('alice').post(`/objects/${assembly.number}/uses`, { member: member.number, iterate: true });
    expect([link.status, link.body.message]).toEqual([409, message.replace(`${NAME}-doc`, `${NAME}-asm`)]);
  });

  it('holds OBJECTS_MAX_LINKS when two adds are forced to interleave', async () => {
    const parent = await part('p');
    const members = await Promise.all(['m1', 'm2', 'm3'].map(part));
    expect((await f.as('alice').post(`/objects/${parent.number}/uses`, { member: members[0].number })).status).toBe(
      201,
    );
    // Both adds wait for the advisory lock that serialises them; then each counts under it.
    const answers = await interleave(
      f.db,
      `SELECT pg_advisory_xact_lock(hashtext('pdm.usage_structure'))`,
      () => f.as('alice').post(`/objects/${parent.number}/uses`, { member: members[1].number }),
      () => f.as('carol').post(`/objects/${parent.number}/uses`, { member: members[2].number }),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.status === 409)!.body.message).toBe(
      `${NAME}-p A.1 has 2 usage links, the most one iteration may hold (OBJECTS_MAX_LINKS=2); nothing was added`,
    );
    const { rows } = await f.db.query(
      `SELECT count(*)::int AS n FROM usage_links ul JOIN iterations i ON i.id = ul.parent_id
       JOIN masters m ON m.id = i.master_id WHERE m.number = $1 AND i.latest`,
      [parent.number],
    );
    expect(rows[0].n).toBe(2);
  });
});
