import { readFileSync } from 'node:fs';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `CO${process.pid}`;

/** Objects of the catalog's other classes: change objects (versioned), plain objects and catalog links. */
describe('/objects for change objects, plain objects and catalog links', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
  });
  afterAll(async () => {
    await f.db.query(`DELETE FROM objects WHERE container_id IS NULL AND name LIKE $1`, [`${NAME}%`]);
    await f.close();
  });

  const events = async (cls: string, id: number) =>
    (
      await f.db.query<{ action: string; user_name: string; detail: unknown }>(
        'SELECT action, user_name, detail FROM audit_events WHERE object_class = $1 AND object_id = $2 ORDER BY id',
        [cls, id],
      )
    ).rows;
  const idOf = (oid: string) => Number(oid.split(':').pop());

  it('creates change objects and links them; the change-notices template finds them', async () => {
    const rule = await f.as('admin').post(`/admin/containers/${encodeURIComponent(f.main.name)}/rules`, {
      class_name: 'wt.change2.WTChangeOrder2',
      prefix: `${NAME}-CN`,
      width: 3,
    });
    expect(rule.status).toBe(201);
    const order = await f.create({
      type: 'wt.change2.WTChangeOrder2',
      number: 'generate',
      name: 'Thicker housing',
      attributes: { priority: `${NAME}-HIGH`, needDate: '2026-12-01T00:00:00.000Z' },
    });
    expect(order).toMatchObject({ number: `${NAME}-CN001`, class: 'wt.change2.WTChangeOrder2', state: 'INWORK' });
    const task = await f.create({ type: 'wt.change2.WTChangeActivity2', number: `${NAME}-CA1`, name: 'Wall 4 mm' });
    const part = await f.create({ type: 'wt.part.WTPart', number: `${NAME}-P1`, name: 'Housing' });
    const wrongType = await f.as('alice').post('/objects', {
      container: f.main.name,
      type: 'wt.change2.WTChangeOrder2',
      number: `${NAME}-CN9`,
      name: 'x',
      attributes: { needDate: 'soon' },
    });
    expect([wrongType.status, wrongType.body.message]).toEqual([
      400,
      'attributes.needDate must be an ISO-8601 date or timestamp (a timestamp of wt.change2.WTChangeOrder2)',
    ]);

    // As in Windchill, role A of IncludedIn2 is the change order, role B the change activity.
    const included = await f.as('alice').post('/objects/links', {
      class: 'wt.change2.IncludedIn2',
      a: order.oid,
      b: task.number,
    });
    expect(included.status).toBe(201);
    expect(included.body).toMatchObject({
      class: 'wt.change2.IncludedIn2',
      a: { oid: order.oid, number: `${NAME}-CN001` },
      b: { oid: task.oid, number: `${NAME}-CA1`, name: 'Wall 4 mm' },
      container: { name: f.main.name },
    });
    const affected = await f.as('alice').post('/objects/links', {
      class: 'wt.change2.AffectedActivityData',
      a: task.oid,
      b: part.number,
      props: { description: 'wall 3 mm to 4 mm' },
    });
    expect(affected.status).toBe(201);
    expect(affected.body.props).toEqual({ description: 'wall 3 mm to 4 mm' });

    // Role classes are the catalog's: a part is no change task, and a task is not role A.
    const wrong = await f
      .as('alice')
      .post('/objects/links', { class: 'wt.change2.IncludedIn2', a: order.oid, b: part.oid });
    expect([wrong.status, wrong.body.message]).toEqual([
      400,
      `b (role B of wt.change2.IncludedIn2): ${part.oid} is not a wt.change2.WTChangeActivity2 (the class b (role B of wt.change2.IncludedIn2) must name)`,
    ]);
    const reversed = await f
      .as('alice')
      .post('/objects/links', { class: 'wt.change2.IncludedIn2', a: task.oid, b: order.oid });
    expect([reversed.status, reversed.body.message]).toEqual([
      400,
      `a (role A of wt.change2.IncludedIn2): ${task.oid} is not a wt.change2.WTChangeOrder2 (the class a (role A of wt.change2.IncludedIn2) must name)`,
    ]);
    const again = await f
      .as('alice')
      .post('/objects/links', { class: 'wt.change2.IncludedIn2', a: order.oid, b: task.oid });
    expect([again.status, again.body.message]).toEqual([
      409,
      `${NAME}-CN001 and ${NAME}-CA1 are linked by a wt.change2.IncludedIn2 already`,
    ]);
    const notLink = await f.as('alice').post('/objects/links', { class: 'wt.part.WTPart', a: 'x', b: 'y' });
    expect(notLink.status).toBe(400);
    expect(notLink.body.message).toMatch(
      /^class: wt\.part\.WTPart is not a link class of the catalog \(those: .*wt\.change2\.IncludedIn2/,
    );
    const reader = await f
      .as('bob')
      .post('/objects/links', { class: 'wt.change2.ChangeRecord2', a: task.oid, b: part.oid });
    expect([reader.status, reader.body.message]).toEqual([
      403,
      `linking needs author or manager rights in the container of ${NAME}-CA1; you may only read there`,
    ]);

    const qml = readFileSync('docs/examples/change-notices.qml', 'utf8');
    const [u, p] = USERS.bob;
    const report = await request(f.t.http)
      .post(`/reports?priority=${NAME}-HIGH`)
      .auth(u, p)
      .set('Content-Type', 'text/xml')
      .send(qml);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      count: 1,
      items: [
        [
          `${NAME}-CN001`,
          'Change Notice',
          `${NAME}-HIGH`,
          '2026-12-01T00:00:00.000Z',
          `${NAME}-CA1`,
          'INWORK',
          `${NAME}-P1`,
          'wt.part.WTPart',
        ],
      ],
    });

    const listed = await f.as('bob').get(`/objects/${task.number}/links`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ object: task.oid, count: 2 });
    expect(listed.body.items.map((l: { class: string }) => l.class)).toEqual([
      'wt.change2.IncludedIn2',
      'wt.change2.AffectedActivityData',
    ]);
    const removed = await f.as('alice').delete(`/objects/links/${affected.body.oid}`);
    expect([removed.status, removed.body.id]).toEqual([200, affected.body.id]);
    expect((await f.as('bob').get(`/objects/${part.number}/links`)).body).toEqual({
      object: part.oid,
      count: 0,
      total: 0,
      page: 1,
      limit: 50,
      items: [],
    });
    expect((await events('wt.change2.AffectedActivityData', affected.body.id)).map((e) => e.action)).toEqual([
      'objects.links.add',
      'objects.links.remove',
    ]);
  });

  it('pages the links naming an object: oldest first, those the caller reads, ends they may not read restricted', async () => {
    const doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-LD`, name: 'described' });
    const made: string[] = [];
    for (const i of [1, 2, 3, 4, 5]) {
      const p = await f.create({ type: 'wt.part.WTPart', number: `${NAME}-LP${i}`, name: `part ${i}` });
      const res = await f
        .as('alice')
        .post('/objects/links', { class: 'wt.part.WTPartDescribeLink', a: p.oid, b: doc.oid });
      expect(res.status).toBe(201);
      made.push(res.body.oid);
    }
    const secret = await f.create(
      { type: 'wt.part.WTPart', number: `${NAME}-LS`, name: 'secret part', container: f.secret.name },
      'carol',
    );
    // Kept in the secret container (role A's): bob does not see it, nor count it.
    const hidden = await f
      .as('carol')
      .post('/objects/links', { class: 'wt.part.WTPartDescribeLink', a: secret.oid, b: doc.oid });
    expect([hidden.status, hidden.body.container?.name]).toEqual([201, f.secret.name]);
    // Kept where bob reads it, with an end he may not read.
    const inserted = await f.db.query<{ id: number }>(
      'INSERT INTO links (class, role_a_id, role_b_id, container_id) VALUES ($1, $2, $3, $4) RETURNING id',
      ['wt.part.WTPartReferenceLink', idOf(secret.oid), idOf(doc.masterOid), f.main.id],
    );
    const refId = inserted.rows[0].id;

    const first = await f.as('bob').get(`/objects/${doc.number}/links?limit=2`);
    expect(first.status).toBe(200);
    expect({ ...first.body, items: first.body.items.map((l: { oid: string }) => l.oid) }).toEqual({
      object: doc.oid,
      count: 2,
      total: 6,
      page: 1,
      limit: 2,
      items: made.slice(0, 2),
    });
    expect(first.body.items[0]).toEqual({
      id: idOf(made[0]),
      oid: made[0],
      class: 'wt.part.WTPartDescribeLink',
      softType: null,
      a: { oid: expect.stringMatching(/^OR:wt\.part\.WTPart:\d+$/), number: `${NAME}-LP1`, name: 'part 1' },
      b: { oid: doc.oid, number: doc.number, name: 'described' },
      container: { oid: f.main.oid, name: f.main.name },
      props: {},
      createdAt: expect.stringMatching(/^\d{4}-/),
    });
    const last = await f.as('bob').get(`/objects/${doc.oid}/links?limit=2&page=3`);
    expect([last.status, last.body.count, last.body.total]).toEqual([200, 2, 6]);
    expect(last.body.items).toEqual([
      expect.objectContaining({ oid: made[4] }),
      {
        id: refId,
        oid: `OR:wt.part.WTPartReferenceLink:${refId}`,
        class: 'wt.part.WTPartReferenceLink',
        softType: null,
        a: { oid: null, number: null, name: null, restricted: true },
        b: { oid: doc.masterOid, number: doc.number, name: 'described' },
        container: { oid: f.main.oid, name: f.main.name },
        props: {},
        createdAt: expect.stringMatching(/^\d{4}-/),
      },
    ]);
    const past = await f.as('bob').get(`/objects/${doc.number}/links?page=4&limit=2`);
    expect([past.status, past.body]).toEqual([
      200,
      { object: doc.oid, count: 0, total: 6, page: 4, limit: 2, items: [] },
    ]);
    const all = await f.as('carol').get(`/objects/${doc.number}/links`);
    expect([all.status, all.body.total, all.body.limit, all.body.items.length]).toEqual([200, 7, 50, 7]);
    expect(all.body.items[5]).toMatchObject({ oid: hidden.body.oid, a: { oid: secret.oid } });
    for (const [query, message] of [
      ['limit=0', 'limit must be at least 1'],
      ['limit=501', 'limit must be at most 500'],
      ['page=0', 'page must be at least 1'],
      ['page=x', 'page must be a whole number'],
      ['sort=id', 'property sort should not exist'],
    ]) {
      const res = await f.as('bob').get(`/objects/${doc.number}/links?${query}`);
      // Several checks of one value each say what was wrong (page=x: not a whole number, and so out of range).
      expect([query, res.status, res.body.message]).toEqual([query, 400, expect.stringContaining(message)]);
    }
  });

  it('creates, reads, changes and deletes plain objects, with props checked against the catalog', async () => {
    const created = await f.as('alice').post('/objects', {
      type: 'wt.workflow.engine.WfProcess',
      container: f.main.name,
      number: `${NAME}-WF1`,
      name: `${NAME} review`,
      state: 'OPEN_RUNNING',
      props: { priority: 2, startTime: '2026-11-25T10:00:00Z', description: 'first review' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      class: 'wt.workflow.engine.WfProcess',
      number: `${NAME}-WF1`,
      state: 'OPEN_RUNNING',
      container: { name: f.main.name },
      props: { priority: 2, startTime: '2026-11-25T10:00:00Z', description: 'first review' },
      references: {},
      createdBy: 'alice',
    });
    const oid: string = created.body.oid;
    for (const [props, message] of [
      [{ colour: 'red' }, 'props.colour: wt.workflow.engine.WfProcess has no such property (its properties: '],
      [{ priority: 'high' }, 'props.priority must be an integer (a long of wt.workflow.engine.WfProcess)'],
    ] as const) {
      const res = await f.as('alice').post('/objects', {
        type: 'wt.workflow.engine.WfProcess',
        container: f.main.name,
        name: 'x',
        props,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
    // A rule for a plain class numbers its objects, skipping the numbers they already carry.
    const rule = await f.as('admin').post(`/admin/containers/${encodeURIComponent(f.main.name)}/rules`, {
      class_name: 'wt.workflow.engine.WfProcess',
      prefix: `${NAME}-WF`,
      width: 1,
    });
    expect(rule.status).toBe(201);
    const generated = await f.as('alice').post('/objects', {
      type: 'wt.workflow.engine.WfProcess',
      container: f.main.name,
      number: 'generate',
      name: `${NAME} second`,
    });
    expect([generated.status, generated.body.number]).toEqual([201, `${NAME}-WF2`]);
    expect((await f.as('bob').get(`/objects/${oid}`)).body).toMatchObject({ oid, name: `${NAME} review` });
    const byNumber = await f.as('bob').get(`/objects/${NAME}-WF1?type=wt.workflow.engine.WfProcess`);
    expect([byNumber.status, byNumber.body.oid]).toEqual([200, oid]);
    const outsider = await request(f.t.http).get(`/objects/${oid}`).auth('carol', 'carol-pw');
    expect(outsider.status).toBe(200); // carol manages the main container

    const byReader = await f.as('bob').patch(`/objects/${oid}`, { state: 'CLOSED' });
    expect(byReader.status).toBe(403);
    const changed = await f.as('alice').patch(`/objects/${oid}`, {
      state: 'CLOSED_COMPLETED_EXECUTED',
      props: { priority: 3, description: null },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      state: 'CLOSED_COMPLETED_EXECUTED',
      props: { priority: 3, startTime: '2026-11-25T10:00:00Z' },
    });
    expect(changed.body.props).not.toHaveProperty('description');

    // A link names it: deleting it is refused unless forced.
    const activity = await f.as('alice').post('/objects', {
      type: 'wt.workflow.work.WfAssignedActivity',
      container: f.main.name,
      name: `${NAME} approve`,
      references: { parentProcessRef: oid },
    });
    expect(activity.status).toBe(201);
    expect(activity.body.references).toEqual({ parentProcessRef: oid });
    const assignment = await f.as('alice').post('/objects', {
      type: 'wt.workflow.work.WfAssignment',
      container: f.main.name,
      name: `${NAME} approvers`,
    });
    const link = await f.as('alice').post('/objects/links', {
      class: 'wt.workflow.work.ActivityAssignmentLink',
      a: activity.body.oid,
      b: assignment.body.oid,
    });
    expect(link.status).toBe(201);
    const refused = await f.as('alice').delete(`/objects/${assignment.body.oid}`);
    expect([refused.status, refused.body.message]).toEqual([
      409,
      `${NAME} approvers is named by 1 catalog link (${link.body.oid}): remove those links first, or delete with force=true, which removes them too`,
    ]);
    const forced = await f.as('alice').delete(`/objects/${assignment.body.oid}?force=true`);
    expect([forced.status, forced.body]).toEqual([
      200,
      { oid: assignment.body.oid, class: 'wt.workflow.work.WfAssignment', number: null, links: 1, references: 0 },
    ]);
    expect((await f.as('alice').get(`/objects/${assignment.body.oid}`)).status).toBe(404);
    expect((await events('wt.workflow.engine.WfProcess', idOf(oid))).map((e) => [e.action, e.detail])).toEqual([
      ['objects.create', { type: 'wt.workflow.engine.WfProcess', state: 'OPEN_RUNNING', generated: false }],
      [
        'objects.update',
        {
          state: { from: 'OPEN_RUNNING', to: 'CLOSED_COMPLETED_EXECUTED' },
          props: { before: { description: 'first review', priority: 2 }, after: { description: null, priority: 3 } },
        },
      ],
    ]);
  });

  it('keeps organisations outside containers: administrators make them, everyone reads them', async () => {
    const body = { type: 'wt.org.WTOrganization', name: `${NAME} Supplier Ltd`, props: { cageCode: '1ABC5' } };
    const byAuthor = await f.as('alice').post('/objects', body);
    expect([byAuthor.status, byAuthor.body.message]).toEqual([
      403,
      'a wt.org.WTOrganization outside containers is read by everyone and made by administrators only; give container',
    ]);
    const made = await f.as('admin').post('/objects', body);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ container: null, props: { cageCode: '1ABC5' }, number: null });
    expect((await f.as('bob').get(`/objects/${made.body.oid}`)).body.name).toBe(`${NAME} Supplier Ltd`);
    expect((await f.as('bob').patch(`/objects/${made.body.oid}`, { name: 'mine' })).status).toBe(403);
    const gone = await f.as('admin').delete(`/objects/${made.body.oid}`);
    expect([gone.status, gone.body.links]).toEqual([200, 0]);
  });

  it('answers PATCH of a versioned object with 400 naming the way to change it', async () => {
    const doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-D1`, name: 'doc' });
    const res = await f.as('alice').patch(`/objects/${doc.number}`, { name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('versioned objects change through /iterations and /state');
  });
});
