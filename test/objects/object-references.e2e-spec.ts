import type request from 'supertest';
import { standardCatalog } from '../../src/catalog/catalog-load.js';
import { referenceKeys } from '../../src/objects/links/object-references.js';
import { referrersSql } from '../../src/objects/links/object-references.repository.js';
import { fingerprint } from '../security/security-helpers.js';
import { objectsFixture, whileTableHeld, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `RF${process.pid}`;

/**
 * References plain objects keep in their JSON (an activity's parentProcessRef, a work item's
 * primaryBusinessObject …): deleting their target is refused while they name it, force removes
 * them with an event each, the lookup runs on the GIN index of props, and a reference stored
 * while its target is being deleted is serialised with the deletion.
 */
describe('deleting objects that other objects reference in their JSON', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
    // One listening server: requests running at the same time must not each start and stop their own.
    await f.t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => f.close());

  const idOf = (oid: string) => Number(oid.split(':').pop());

  async function unchanged(work: () => Promise<void>): Promise<void> {
    const audit = 'SELECT count(*)::int AS n FROM audit_events';
    const before = { tables: await fingerprint(f.db), audit: (await f.db.query(audit)).rows[0].n };
    await work();
    expect({ tables: await fingerprint(f.db), audit: (await f.db.query(audit)).rows[0].n }).toEqual(before);
  }

  const plain = async (body: Record<string, unknown>, user: 'alice' | 'carol' = 'alice') => {
    const res = await f.as(user).post('/objects', { container: f.main.name, ...body });
    expect([res.status, res.body.message]).toEqual([201, undefined]);
    return res.body as { oid: string; props: Record<string, unknown>; references: Record<string, string> };
  };
  const props = async (oid: string) =>
    (await f.db.query<{ props: Record<string, unknown> }>('SELECT props FROM objects WHERE id = $1', [idOf(oid)]))
      .rows[0].props;
  const updates = async (oid: string) =>
    (
      await f.db.query<{ user_name: string; detail: unknown }>(
        `SELECT user_name, detail FROM audit_events WHERE action = 'objects.update' AND object_class = $1
         AND object_id = $2 ORDER BY id`,
        [oid.split(':')[1], idOf(oid)],
      )
    ).rows;

  it('refuses a plain object others reference unless force=true, which removes the references', async () => {
    const process = await plain({ type: 'wt.workflow.engine.WfProcess', number: `${NAME}-WF`, name: `${NAME} review` });
    const approve = await plain({
      type: 'wt.workflow.work.WfAssignedActivity',
      name: `${NAME} approve`,
      props: { deadline: '2026-12-01T17:00:00Z' },
      references: { parentProcessRef: process.oid },
    });
    const approvers = await plain({
      type: 'wt.workflow.work.WfAssignment',
      number: `${NAME}-AS`,
      name: `${NAME} approvers`,
      references: { parentProcessRef: `${NAME}-WF` },
    });
    // carol's, in a container alice cannot read.
    const hidden = await plain(
      {
        type: 'wt.workflow.work.WfAssignment',
        container: f.secret.name,
        name: `${NAME} secret approvers`,
        references: { parentProcessRef: process.oid },
      },
      'carol',
    );
    // Another process: a reference to it is not one to this one.
    const other = await plain({ type: 'wt.workflow.engine.WfProcess', name: `${NAME} other` });
    await plain({
      type: 'wt.workflow.work.WfAssignedActivity',
      name: `${NAME} elsewhere`,
      references: { parentProcessRef: other.oid },
    });

    await unchanged(async () => {
      const refused = await f.as('alice').delete(`/objects/${process.oid}`);
      expect([refused.status, refused.body.message]).toEqual([
        409,
        `${NAME}-WF is referred to by 3 objects (${NAME} approve, ${NAME}-AS, 1 in containers you cannot read): ` +
          'remove those references first, or delete with force=true, which removes them too',
      ]);
      const forced = await f.as('alice').delete(`/objects/${process.oid}?force=true`);
      expect([forced.status, forced.body.message]).toEqual([
        403,
        'force=true would remove references of 1 object you may not change; nothing was deleted',
      ]);
    });
    // The reference is kept under the class's JSON key: an activity's parentProcessRef in "process".
    expect(await props(approve.oid)).toEqual({ deadline: '2026-12-01T17:00:00Z', process: idOf(process.oid) });

    const gone = await f.as('carol').delete(`/objects/${process.oid}?force=true`);
    expect([gone.status, gone.body]).toEqual([
      200,
      { oid: process.oid, class: 'wt.workflow.engine.WfProcess', number: `${NAME}-WF`, links: 0, references: 3 },
    ]);
    expect(await props(approve.oid)).toEqual({ deadline: '2026-12-01T17:00:00Z' });
    const read = await f.as('bob').get(`/objects/${approvers.oid}`);
    expect([read.status, read.body.references]).toEqual([200, {}]);
    expect(await props(hidden.oid)).toEqual({});
    expect(await updates(approve.oid)).toEqual([
      {
        user_name: 'carol',
        detail: {
          props: { before: { process: idOf(process.oid) }, after: { process: null } },
          deleted: process.oid,
        },
      },
    ]);
    const deleted = await f.db.query(
      `SELECT detail FROM audit_events WHERE action = 'objects.delete' AND object_class = $1 AND object_id = $2`,
      ['wt.workflow.engine.WfProcess', idOf(process.oid)],
    );
    expect(deleted.rows).toEqual([{ detail: { state: null, force: true, links: 0, references: 3 } }]);
  });

  it('refuses a versioned object referenced by OID from any of its iterations, naming links and references', async () => {
    const order = await f.create({ type: 'wt.change2.WTChangeOrder2', number: `${NAME}-CN`, name: 'change' });
    const item = await plain({
      type: 'wt.workflow.work.WorkItem',
      number: `${NAME}-WI`,
      name: 'review',
      references: { primaryBusinessObject: order.oid },
    });
    expect(item.references).toEqual({ primaryBusinessObject: order.oid });
    // After a revision, by the OID of B.1: another iteration of the same object.
    const revised = await f.as('alice').post(`/objects/${order.number}/revisions`, {});
    expect(revised.status).toBe(201);
    const flow = await plain({
      type: 'wt.workflow.engine.WfProcess',
      number: `${NAME}-WF2`,
      name: 'change flow',
      references: { businessObjectReference: revised.body.oid },
    });
    expect(flow.references.businessObjectReference).toBe(revised.body.oid);
    const task = await f.create({ type: 'wt.change2.WTChangeActivity2', number: `${NAME}-CA`, name: 'task' });
    const link = await f
      .as('alice')
      .post('/objects/links', { class: 'wt.change2.IncludedIn2', a: order.oid, b: task.oid });
    expect(link.status).toBe(201);

    await unchanged(async () => {
      const refused = await f.as('alice').delete(`/objects/${order.number}?type=wt.change2.WTChangeOrder2`);
      expect([refused.status, refused.body.message]).toEqual([
        409,
        `${NAME}-CN is named by 1 catalog link (${link.body.oid}) and is referred to by 2 objects ` +
          `(${NAME}-WI, ${NAME}-WF2): remove those links and references first, or delete with force=true, which ` +
          'removes them too',
      ]);
    });
    const gone = await f.as('alice').delete(`/objects/${order.number}?force=true`);
    expect([gone.status, gone.body.links, gone.body.references, gone.body.iterations]).toEqual([200, 1, 2, 2]);
    expect(await props(item.oid)).toEqual({});
    expect(await props(flow.oid)).toEqual({});
    expect(await updates(flow.oid)).toEqual([
      {
        user_name: 'alice',
        detail: {
          props: { before: { businessObject: revised.body.oid }, after: { businessObject: null } },
          deleted: order.masterOid,
        },
      },
    ]);
  });

  it('finds the objects naming it through the GIN index of props, not by reading every object row', async () => {
    const catalog = standardCatalog();
    const keys = referenceKeys(catalog, {
      storage: 'iteration',
      cls: 'wt.change2.WTChangeOrder2',
      masterId: 7,
      iterationIds: [11, 12],
    });
    expect(keys).toEqual(
      expect.arrayContaining([
        {
          key: 'businessObject',
          classes: expect.arrayContaining(['wt.workflow.work.WorkItem', 'wt.workflow.engine.WfProcess']),
          values: [
            'OR:wt.change2.WTChangeOrder2:11',
            'OR:wt.change2.WTChangeOrder2:12',
            'OR:wt.change2.WTChangeOrder2Master:7',
          ],
        },
      ]),
    );
    const q = referrersSql(keys, 0, 1, false);
    // As many work items and processes as a busy system keeps, each naming another change order:
    // the planner then has the objects' real sizes to choose by.
    await f.db.query(
      `INSERT INTO objects (class, name, container_id, props)
       SELECT CASE WHEN g % 2 = 0 THEN 'wt.workflow.work.WorkItem' ELSE 'wt.workflow.engine.WfProcess' END,
              $1 || g, $2, jsonb_build_object('businessObject', 'OR:wt.change2.WTChangeOrder2:' || (1000000 + g))
       FROM generate_series(1, 20000) g`,
      [`${NAME} bulk `, f.main.id],
    );
    try {
      await f.db.query('ANALYZE objects');
      const { rows } = await f.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${q.text}`, q.values);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toContain('Bitmap Index Scan on objects_props_idx');
      expect(plan).not.toMatch(/Seq Scan on objects/);
    } finally {
      await f.db.query('DELETE FROM objects WHERE container_id = $1 AND name LIKE $2', [f.main.id, `${NAME} bulk %`]);
    }
  });

  /**
   * The test holds `objects` in SHARE mode (whileTableHeld): the create reads and holds its
   * reference's target (FOR SHARE) but cannot insert; the deletion then waits for the target's
   * row. Once both wait the test lets go: the create commits first, and the deletion sees it.
   */
  const referWhileDeleting = (create: object, deletion: string): Promise<request.Response[]> =>
    whileTableHeld(
      f.db,
      'objects',
      () => f.as('alice').post('/objects', { container: f.main.name, ...create }),
      () => f.as('alice').delete(deletion),
    );

  it('refuses to delete a plain object a reference being stored names, once it is committed', async () => {
    const process = await plain({ type: 'wt.workflow.engine.WfProcess', number: `${NAME}-race`, name: 'raced' });
    const [add, remove] = await referWhileDeleting(
      {
        type: 'wt.workflow.work.WfAssignedActivity',
        name: `${NAME} raced`,
        references: { parentProcessRef: process.oid },
      },
      `/objects/${process.oid}`,
    );
    expect([add.status, remove.status]).toEqual([201, 409]);
    expect(remove.body.message).toBe(
      `${NAME}-race is referred to by 1 object (${NAME} raced): remove those references first, or delete with ` +
        'force=true, which removes them too',
    );
    expect((await f.as('bob').get(`/objects/${add.body.oid}`)).body.references).toEqual({
      parentProcessRef: process.oid,
    });
  });

  it('refuses to delete a change order a reference being stored names, once it is committed', async () => {
    const order = await f.create({ type: 'wt.change2.WTChangeOrder2', number: `${NAME}-CN-race`, name: 'raced' });
    const [add, remove] = await referWhileDeleting(
      {
        type: 'wt.workflow.work.WorkItem',
        name: `${NAME} raced item`,
        references: { primaryBusinessObject: order.oid },
      },
      `/objects/${order.oid}`,
    );
    expect([add.status, remove.status]).toEqual([201, 409]);
    expect(remove.body.message).toBe(
      `${NAME}-CN-race is referred to by 1 object (${NAME} raced item): remove those references first, or delete ` +
        'with force=true, which removes them too',
    );
    expect((await f.as('bob').get(`/objects/${order.oid}`)).status).toBe(200);
  });
});
