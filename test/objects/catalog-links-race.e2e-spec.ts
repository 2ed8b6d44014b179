import type request from 'supertest';
import { objectsFixture, whileTableHeld, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `CL${process.pid}`;

/**
 * A catalog link being stored and a deletion of its end, forced to interleave: the link holds
 * its ends (FOR SHARE) until it commits, so the deletion waits, then sees the link and is refused.
 * Without that hold the deletion would count no link and leave the link naming nothing.
 */
describe('catalog links under concurrent requests', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
    await f.t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => f.close());

  const plain = async (type: string, name: string) => {
    const res = await f.as('alice').post('/objects', { type, container: f.main.name, name: `${NAME} ${name}` });
    expect(res.status).toBe(201);
    return res.body as { oid: string };
  };

  /**
   * The link's request while the test holds `links` (it reads and locks rows but cannot insert
   * the link), then the deletion once the first waits (whileTableHeld). Answers both.
   */
  const linkWhileDeleting = (link: object, deletion: string): Promise<request.Response[]> =>
    whileTableHeld(
      f.db,
      'links',
      () => f.as('alice').post('/objects/links', link),
      () => f.as('alice').delete(deletion),
    );

  it('refuses to delete an object a link being added names, once the link is committed', async () => {
    const activity = await plain('wt.workflow.work.WfAssignedActivity', 'approve');
    const assignment = await plain('wt.workflow.work.WfAssignment', 'approvers');
    const answers = await linkWhileDeleting(
      { class: 'wt.workflow.work.ActivityAssignmentLink', a: activity.oid, b: assignment.oid },
      `/objects/${assignment.oid}`,
    );
    expect(answers.map((r) => r.status)).toEqual([201, 409]);
    expect(answers[1].body.message).toBe(
      `${NAME} approvers is named by 1 catalog link (${answers[0].body.oid}): remove those links first, ` +
        'or delete with force=true, which removes them too',
    );
    expect((await f.as('bob').get(`/objects/${assignment.oid}`)).status).toBe(200);
    const { rows } = await f.db.query(
      `SELECT count(*)::int AS n FROM links l WHERE l.class = 'wt.workflow.work.ActivityAssignmentLink'
       AND NOT EXISTS (SELECT 1 FROM objects o WHERE o.id = l.role_b_id)`,
    );
    expect(rows[0].n).toBe(0);
  });

  /** The same for a versioned object: the link holds its master FOR SHARE, the deletion takes it FOR UPDATE. */
  it('refuses to delete a change order a link being added names, once the link is committed', async () => {
    const order = await f.create({ type: 'wt.change2.WTChangeOrder2', number: `${NAME}-CN`, name: 'change' });
    const task = await f.create({ type: 'wt.change2.WTChangeActivity2', number: `${NAME}-CA`, name: 'task' });
    const answers = await linkWhileDeleting(
      { class: 'wt.change2.IncludedIn2', a: order.number, b: task.oid },
      `/objects/${order.oid}`,
    );
    expect(answers.map((r) => r.status)).toEqual([201, 409]);
    expect(answers[1].body.message).toBe(
      `${NAME}-CN is named by 1 catalog link (${answers[0].body.oid}): remove those links first, ` +
        'or delete with force=true, which removes them too',
    );
    expect((await f.as('bob').get(`/objects/${order.oid}`)).status).toBe(200);
    const { rows } = await f.db.query(
      `SELECT count(*)::int AS n FROM links l WHERE l.class = 'wt.change2.IncludedIn2'
       AND NOT EXISTS (SELECT 1 FROM iterations i WHERE i.id = l.role_a_id)`,
    );
    expect(rows[0].n).toBe(0);
  });
});
