import type request from 'supertest';
import { objectsFixture, waitingBackends, type ObjectsFixture } from './objects-fixtures.js';

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

  it('refuses to delete an object a link being added names, once the link is committed', async () => {
    const activity = await plain('wt.workflow.work.WfAssignedActivity', 'approve');
    const assignment = await plain('wt.workflow.work.WfAssignment', 'approvers');
    const holder = await f.db.connect();
    let answers: request.Response[];
    try {
      await holder.query('BEGIN');
      // Lets the link's request read and lock rows, but not insert the link, until both requests wait.
      await holder.query('LOCK TABLE links IN SHARE MODE');
      const add = f
        .as('alice')
        .post('/objects/links', {
          class: 'wt.workflow.work.ActivityAssignmentLink',
          a: activity.oid,
          b: assignment.oid,
        })
        .then((r) => r);
      await waitingBackends(f.db, 1);
      const remove = f
        .as('alice')
        .delete(`/objects/${assignment.oid}`)
        .then((r) => r);
      await waitingBackends(f.db, 2);
      await holder.query('COMMIT');
      answers = await Promise.all([add, remove]);
    } finally {
      holder.release();
    }
    expect(answers.map((r) => r.status)).toEqual([201, 409]);
    expect(answers[1].body.message).toBe(
      `${NAME} approvers is named by 1 link (wt.workflow.work.ActivityAssignmentLink): delete them first, ` +
        'or delete with force=true, which removes them too',
    );
    expect((await f.as('bob').get(`/objects/${assignment.oid}`)).status).toBe(200);
    const { rows } = await f.db.query(
      `SELECT count(*)::int AS n FROM links l WHERE l.class = 'wt.workflow.work.ActivityAssignmentLink'
       AND NOT EXISTS (SELECT 1 FROM objects o WHERE o.id = l.role_b_id)`,
    );
    expect(rows[0].n).toBe(0);
  });
});
