import type pg from 'pg';
import type request from 'supertest';
import { eventsSince, failEventsOf, lastEventId } from '../audit/audit-fixtures.js';
import { fingerprint } from '../security/security-helpers.js';
import { objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `OA${process.pid}`;

/** Every row of the tables a write under /objects may change, hashed: equal means nothing was stored. */
async function stored(db: pg.Pool): Promise<Record<string, string>> {
  const out = await fingerprint(db);
  for (const table of ['objects', 'links', 'audit_events']) {
    const { rows } = await db.query<{ n: string; h: string }>(
      `SELECT count(*)::text AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${table} t`,
    );
    out[table] = `${rows[0].n}:${rows[0].h}`;
  }
  return out;
}

/** One write under /objects: `arrange` makes what it needs and answers how to send it. */
interface Write {
  what: string;
  /** The event whose insert fails. */
  action: string;
  /** The status the write answers once its event can be stored. */
  status: number;
  arrange(f: ObjectsFixture, n: string): Promise<() => request.Test>;
}

const part = (f: ObjectsFixture, number: string) => f.create({ type: 'wt.part.WTPart', number, name: number });
const plain = async (f: ObjectsFixture, type: string, name: string, more: object = {}) => {
  const res = await f.as('alice').post('/objects', { type, container: f.main.name, name, ...more });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { oid: string };
};
/** A part using another: answers the parent's number and the member's. */
const partUsing = async (f: ObjectsFixture, n: string) => {
  const [parent, member] = [`${n}-parent`, `${n}-member`];
  await part(f, parent);
  await part(f, member);
  const res = await f.as('alice').post(`/objects/${parent}/uses`, { member });
  if (res.status !== 201) throw new Error(`link failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { parent, member };
};

const WRITES: Write[] = [
  {
    what: 'creating a part with a generated number',
    action: 'objects.create',
    status: 201,
    arrange: async (f, n) => () =>
      f.as('alice').post('/objects', { type: 'wt.part.WTPart', container: f.main.name, number: 'generate', name: n }),
  },
  {
    what: 'creating a plain object',
    action: 'objects.create',
    status: 201,
    arrange: async (f, n) => () =>
      f.as('alice').post('/objects', { type: 'wt.workflow.engine.WfProcess', container: f.main.name, name: n }),
  },
  {
    what: 'making a new iteration with other attributes',
    action: 'objects.iterate',
    status: 201,
    arrange: async (f, n) => {
      await f.create({ type: 'wt.doc.WTDocument', number: n, name: n });
      return () => f.as('alice').post(`/objects/${n}/iterations`, { name: `${n} renamed`, note: 'again' });
    },
  },
  {
    what: 'making a new revision',
    action: 'objects.revise',
    status: 201,
    arrange: async (f, n) => {
      await f.create({ type: 'wt.doc.WTDocument', number: n, name: n });
      return () => f.as('alice').post(`/objects/${n}/revisions`, { note: 'B' });
    },
  },
  {
    what: 'changing the lifecycle state',
    action: 'objects.state',
    status: 200,
    arrange: async (f, n) => {
      await f.create({ type: 'wt.doc.WTDocument', number: n, name: n });
      return () => f.as('alice').post(`/objects/${n}/state`, { state: 'UNDERREVIEW' });
    },
  },
  {
    what: 'deleting a part another part uses (force)',
    action: 'objects.delete',
    status: 200,
    arrange: async (f, n) => {
      const { member } = await partUsing(f, n);
      return () => f.as('alice').delete(`/objects/${member}?force=true`);
    },
  },
  {
    what: 'deleting a change order a work item refers to (force), for the work item',
    action: 'objects.update',
    status: 200,
    arrange: async (f, n) => {
      const order = await f.create({ type: 'wt.change2.WTChangeOrder2', number: n, name: n });
      await plain(f, 'wt.workflow.work.WorkItem', `${n} item`, { references: { primaryBusinessObject: order.oid } });
      return () => f.as('alice').delete(`/objects/${n}?force=true`);
    },
  },
  {
    what: 'deleting a plain object a catalog link names (force)',
    action: 'objects.delete',
    status: 200,
    arrange: async (f, n) => {
      const activity = await plain(f, 'wt.workflow.work.WfAssignedActivity', `${n} approve`);
      const assignment = await plain(f, 'wt.workflow.work.WfAssignment', `${n} approvers`);
      const link = await f.as('alice').post('/objects/links', {
        class: 'wt.workflow.work.ActivityAssignmentLink',
        a: activity.oid,
        b: assignment.oid,
      });
      if (link.status !== 201) throw new Error(`link failed: ${link.status}`);
      return () => f.as('alice').delete(`/objects/${assignment.oid}?force=true`);
    },
  },
  {
    what: 'changing a plain object',
    action: 'objects.update',
    status: 200,
    arrange: async (f, n) => {
      const process = await plain(f, 'wt.workflow.engine.WfProcess', n);
      return () => f.as('alice').patch(`/objects/${process.oid}`, { name: `${n} renamed`, props: { priority: 2 } });
    },
  },
  {
    what: 'adding a usage link in place',
    action: 'objects.uses.add',
    status: 201,
    arrange: async (f, n) => {
      await part(f, `${n}-parent`);
      await part(f, `${n}-member`);
      return () => f.as('alice').post(`/objects/${n}-parent/uses`, { member: `${n}-member`, lineNumber: 10 });
    },
  },
  {
    what: 'adding a usage link on a new iteration',
    action: 'objects.uses.add',
    status: 201,
    arrange: async (f, n) => {
      await part(f, `${n}-parent`);
      await part(f, `${n}-member`);
      return () => f.as('alice').post(`/objects/${n}-parent/uses`, { member: `${n}-member`, iterate: true });
    },
  },
  {
    what: 'changing a usage link',
    action: 'objects.uses.update',
    status: 200,
    arrange: async (f, n) => {
      const { parent, member } = await partUsing(f, n);
      return () => f.as('alice').patch(`/objects/${parent}/uses/${member}`, { quantity: 3, lineNumber: 20 });
    },
  },
  {
    what: 'removing a usage link on a new iteration',
    action: 'objects.uses.remove',
    status: 200,
    arrange: async (f, n) => {
      const { parent, member } = await partUsing(f, n);
      return () => f.as('alice').delete(`/objects/${parent}/uses/${member}?iterate=true`);
    },
  },
  {
    what: 'linking two objects by a catalog link class',
    action: 'objects.links.add',
    status: 201,
    arrange: async (f, n) => {
      await part(f, n);
      await f.create({ type: 'wt.doc.WTDocument', number: `${n}-doc`, name: n });
      return () => f.as('alice').post('/objects/links', { class: 'wt.part.WTPartDescribeLink', a: n, b: `${n}-doc` });
    },
  },
  {
    what: 'removing a catalog link',
    action: 'objects.links.remove',
    status: 200,
    arrange: async (f, n) => {
      await part(f, n);
      await f.create({ type: 'wt.doc.WTDocument', number: `${n}-doc`, name: n });
      const link = await f
        .as('alice')
        .post('/objects/links', { class: 'wt.part.WTPartDescribeLink', a: n, b: `${n}-doc` });
      if (link.status !== 201) throw new Error(`link failed: ${link.status}`);
      return () => f.as('alice').delete(`/objects/links/${link.body.id}`);
    },
  },
];

/**
 * Every write under /objects records its audit event in the transaction of the change: when the
 * event cannot be stored (a trigger of the test refuses it), the write answers an error and
 * leaves nothing behind, neither the change nor any event. Were the event recorded after the
 * change had committed, the change would stay without its event.
 */
describe('audit events of /objects writes, in the transaction of the change', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
  });
  afterAll(() => f.close());

  it.each(WRITES.map((w, i) => ({ ...w, n: `${NAME}-${i + 1}` })))(
    'stores nothing when the $action event of $what fails',
    async ({ action, status, arrange, n }) => {
      const send = await arrange(f, n);
      const before = await stored(f.db);
      const undo = await failEventsOf(f.db, action);
      let res: request.Response;
      try {
        res = await send();
      } finally {
        await undo();
      }
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 500,
        body: {
          statusCode: 500,
          error: 'Internal Server Error',
          message: 'internal error',
          requestId: expect.any(String),
        },
      });
      expect(await stored(f.db)).toEqual(before);

      // The same write goes through once its event can be stored, and records it.
      const since = await lastEventId(f.db);
      const again = await send();
      expect(again.status).toBe(status);
      expect((await eventsSince(f.db, since)).map((e) => e.action)).toContain(action);
    },
  );
});
