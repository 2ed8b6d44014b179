import type pg from 'pg';
import request from 'supertest';
import { importFilesFixture, oidOf, removeFilesFixture } from '../files/files-fixtures.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { masterId } from './audit-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const EVENT_OID = /^OR:wt\.audit\.AuditRecord:\d+$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Event {
  oid: string;
  at: string;
  user: string;
  action: string;
  object: string | null;
  number: string | null;
  container: string | null;
  detail: Record<string, unknown> | null;
}

/**
 * GET /objects/<ref>/history for those who may read the object (404 for anyone else, as for an
 * object that does not exist), GET /admin/events for administrators with each filter, and
 * wt.audit.AuditRecord in QML under the same access rules.
 */
describe('history of an object and the audit event listing', () => {
  let db: pg.Pool;
  let ah1: string;
  let ah2: string;
  /** The fixture's events, newest first, as the listing answers them. */
  let all: Event[];

  const get = (path: string, user: readonly [string, string]) =>
    request(t.http)
      .get(path)
      .auth(...user);
  const write = (path: string, user: readonly [string, string] = USERS.alice) =>
    request(t.http)
      .post(path)
      .auth(...user)
      .send({ data: Buffer.from(path).toString('base64') });

  const t = useTestApp();
  beforeAll(async () => {
    await importFilesFixture('AH');
    db = testPool();
    ah1 = await masterId(db, DOC, 'AH-1');
    ah2 = await masterId(db, DOC, 'AH-2');
    for (const path of ['/files/AH-1/a.txt', '/files/AH-2/b.txt', '/files/AH-1/a.txt', '/files/AH-1/c.txt']) {
      expect((await write(path)).status).toBeLessThan(300);
    }
    expect((await write('/files/AH-1/model.prt?type=wt.epm.EPMDocument')).status).toBe(200);
    expect(
      (
        await request(t.http)
          .delete('/files/AH-1/c.txt')
          .auth(...USERS.alice)
      ).status,
    ).toBe(200);
    all = (await get('/admin/events?limit=500', USERS.admin)).body.items.filter((e: Event) =>
      e.number?.startsWith('AH-'),
    );
  });
  afterAll(async () => {
    await removeFilesFixture(db, 'AH');
    await db.end();
  });

  it('answers a reader the history of the object, newest first, paged', async () => {
    const res = await get('/objects/AH-1/history?type=wt.doc.WTDocument', USERS.bob);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 4,
      total: 4,
      page: 1,
      limit: 50,
      object: {
        oid: `OR:wt.doc.WTDocumentMaster:${ah1}`,
        class: DOC,
        number: 'AH-1',
        name: 'document AH-1',
        container: 'AH Files',
      },
      items: ['files.delete', 'files.upload', 'files.replace', 'files.upload'].map((action) => ({
        oid: expect.stringMatching(EVENT_OID),
        at: expect.stringMatching(ISO),
        user: 'alice',
        action,
        object: `OR:wt.doc.WTDocumentMaster:${ah1}`,
        number: 'AH-1',
        container: 'AH Files',
        detail: expect.objectContaining({ iteration: 'A.1' }),
      })),
    });
    expect(res.body.items.map((e: Event) => e.detail!.fileName)).toEqual(['c.txt', 'c.txt', 'a.txt', 'a.txt']);
    const ids = res.body.items.map((e: Event) => Number(e.oid.split(':')[2]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const page2 = await get('/objects/AH-1/history?type=wt.doc.WTDocument&limit=3&page=2', USERS.bob);
    expect(page2.body).toMatchObject({ count: 1, total: 4, page: 2, limit: 3 });
    expect(page2.body.items).toEqual([res.body.items[3]]);
  });

  it('answers every iteration and the master the same history', async () => {
    const byNumber = await get('/objects/AH-2/history', USERS.alice);
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.items.map((e: Event) => [e.action, e.detail!.fileName])).toEqual([['files.upload', 'b.txt']]);
    for (const ref of [
      await oidOf(db, DOC, 'AH-2', 1),
      await oidOf(db, DOC, 'AH-2', 2),
      `OR:wt.doc.WTDocumentMaster:${ah2}`,
    ]) {
      const res = await get(`/objects/${ref}/history`, USERS.bob);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(byNumber.body);
    }
  });

  it('answers 404 to whoever may not read the object, as for one that does not exist', async () => {
    const hidden = await get('/objects/AH-2/history', USERS.carol);
    const missing = await get('/objects/AH-404/history', USERS.carol);
    expect([hidden.status, missing.status]).toEqual([404, 404]);
    expect(hidden.body.message).toBe('no object "AH-2"');
    expect(missing.body.message).toBe('no object "AH-404"');
    const oid = await get(`/objects/${await oidOf(db, DOC, 'AH-2')}/history`, USERS.carol);
    expect(oid.status).toBe(404);
    expect((await get('/objects/AH-2/history', USERS.admin)).status).toBe(200);
    expect((await request(t.http).get('/objects/AH-2/history')).status).toBe(401);
  });

  it('answers 400 for a number several classes carry, a bad OID, type or page', async () => {
    const both = await get('/objects/AH-1/history', USERS.bob);
    expect(both.status).toBe(400);
    expect(both.body.message).toBe(
      'several objects carry the number "AH-1" (wt.doc.WTDocument, wt.epm.EPMDocument): give type',
    );
    const cad = await get('/objects/AH-1/history?type=wt.epm.EPMDocument', USERS.bob);
    expect(cad.body.items.map((e: Event) => [e.action, e.object!.split(':')[1]])).toEqual([
      ['files.replace', 'wt.epm.EPMDocumentMaster'],
    ]);
    const cases: [string, string][] = [
      ['/objects/OR:wt.pdmlink.PDMLinkProduct:1/history', 'histories are those of'],
      ['/objects/OR:nonsense/history', 'is not an OID'],
      [`/objects/OR:wt.doc.WTDocumentMaster:${ah1}/history?type=wt.part.WTPart`, 'contradicts'],
      ['/objects/AH-2/history?type=wt.Nothing', 'type must be one of'],
      ['/objects/AH-2/history?page=0', 'page must be at least 1'],
      ['/objects/AH-2/history?limit=501', 'limit must be at most 500'],
    ];
    for (const [path, message] of cases) {
      const res = await get(path, USERS.bob);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.message).toContain(message);
    }
  });

  it('lists every event to administrators only', async () => {
    const res = await get('/admin/events', USERS.admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, limit: 50, count: Math.min(50, res.body.total) });
    expect(res.body.items.slice(0, all.length)).toEqual(all);
    const demo = await get('/admin/events?user=admin&to=2026-03-02', USERS.admin);
    expect(demo.body.items.map((e: Event) => [e.action, e.object?.split(':')[1], e.number, e.container])).toEqual([
      ['admin.user.update', 'wt.org.WTUser', 'bob', null],
      ['admin.member.set', 'wt.pdmlink.PDMLinkProduct', 'Drive Unit', 'Drive Unit'],
    ]);
    for (const user of [USERS.alice, USERS.carol, USERS.bob]) {
      const refused = await get('/admin/events', user);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('this administration operation needs an administrator');
    }
  });

  it('filters by user, object, time and action', async () => {
    const list = async (query: string) => {
      const res = await get(`/admin/events?limit=500&${query}`, USERS.admin);
      expect([query, res.status]).toEqual([query, 200]);
      return (res.body.items as Event[]).filter((e) => e.number?.startsWith('AH-'));
    };
    const docAh1 = all.filter((e) => e.object === `OR:wt.doc.WTDocumentMaster:${ah1}`);
    expect(docAh1).toHaveLength(4);
    expect(await list('object=AH-1')).toEqual(all.filter((e) => e.number === 'AH-1'));
    expect(await list(`object=${encodeURIComponent(await oidOf(db, DOC, 'AH-1'))}`)).toEqual(docAh1);
    expect(await list(`object=OR:wt.doc.WTDocumentMaster:${ah1}`)).toEqual(docAh1);
    expect(await list('user=alice')).toEqual(all);
    expect(await list('user=bob')).toEqual([]);
    expect(await list('action=files.upload')).toEqual(all.filter((e) => e.action === 'files.upload'));
    expect(await list('action=files.r*')).toEqual(all.filter((e) => e.action === 'files.replace'));
    const pivot = all[2].at;
    expect(await list(`from=${pivot}`)).toEqual(all.filter((e) => e.at >= pivot));
    expect(await list(`to=${pivot}`)).toEqual(all.filter((e) => e.at < pivot));
    expect(await list(`from=${all.at(-1)!.at}&to=${pivot}&action=files.*&user=alice&object=AH-1`)).toEqual(
      all.filter((e) => e.at < pivot && e.number === 'AH-1'),
    );
  });

  it('answers 400 naming a bad filter', async () => {
    const cases: [string, string][] = [
      ['from=yesterday', 'from must be an ISO 8601 date or time'],
      ['to=2026-02-30', 'to must be an ISO 8601 date or time'],
      ['from=2026-11-25&to=2026-11-24', 'from (2026-11-25) is after to (2026-11-24)'],
      ['action=Files!', 'action must be an action such as files.upload'],
      ['object=OR:x', 'object "OR:x" is not an OID'],
      ['user=a&user=b', 'user must be given at most once'],
      ['limit=0', 'limit must be at least 1'],
      ['colour=red', 'property colour should not exist'],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/admin/events?${query}`, USERS.admin);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.message).toContain(message);
    }
  });

  describe('wt.audit.AuditRecord in QML', () => {
    const qml = (where: string, extra = '') => `<?xml version="1.0" encoding="UTF-8"?>
<qml><statement><query>
  <select>
    <column alias="E" heading="Action">eventKey</column>
    <column alias="E" heading="User">userName</column>
    <column alias="E" heading="Object">targetName</column>
    <column alias="E" heading="Class">targetType</column>
    <object alias="E" heading="Container" propertyName="containerName"/>
    <column alias="E" heading="Id">thePersistInfo.theObjectIdentifier.id</column>
    ${extra ? '<column alias="D" heading="Iteration">iterationInfo.identifier.iterationId</column>' : ''}
  </select>
  <from><table alias="E">wt.audit.AuditRecord</table>${extra ? '<table alias="D">wt.doc.WTDocument</table>' : ''}</from>
  <where>${where}</where>
  <orderBy><orderByItem type="desc"><columnTarget heading="Id"/></orderByItem></orderBy>
  ${extra}
</query></statement></qml>`;
    const like = (pattern: string) => `<condition>
      <operand><column alias="E">targetName</column></operand><operator type="like"/>
      <operand><constant>${pattern}</constant></operand></condition>`;
    const report = (body: string, user: readonly [string, string]) =>
      request(t.http)
        .post('/reports')
        .auth(...user)
        .set('Content-Type', 'text/xml')
        .send(body);
    const rows = (events: Event[]) =>
      events.map((e) => [
        e.action,
        e.user,
        e.number,
        e.object!.split(':')[1],
        e.container,
        Number(e.oid.split(':')[2]),
      ]);

    it('returns the events of the containers the caller reads, every event to administrators', async () => {
      const bob = await report(qml(like('AH-%')), USERS.bob);
      expect(bob.status).toBe(200);
      expect(bob.body.items).toEqual(rows(all));
      const admin = await report(qml(like('AH-%')), USERS.admin);
      expect(admin.body.items).toEqual(rows(all));
      const carol = await report(qml(like('AH-%')), USERS.carol);
      expect(carol.status).toBe(200);
      expect(carol.body.items).toEqual([]);
      // Events without a container (users) are the administrators' only.
      const users = qml(`<condition><operand><column alias="E">targetType</column></operand>
        <operator type="equal"/><operand><constant>wt.org.WTUser</constant></operand></condition>`);
      expect((await report(users, USERS.alice)).body.items).toEqual([]);
      expect((await report(users, USERS.admin)).body.items.length).toBeGreaterThan(0);
    });

    it('joins targetReference to the master and to every iteration of the object', async () => {
      const join = `<referenceJoin><join name="targetReference">
        <aliasTarget alias="E"/><aliasTarget alias="D"/></join></referenceJoin>`;
      const where = `<condition><operand><column alias="D">master&gt;number</column></operand>
        <operator type="equal"/><operand><constant>AH-2</constant></operand></condition>`;
      const res = await report(qml(where, join), USERS.bob);
      expect(res.status).toBe(200);
      const [upload] = rows(all.filter((e) => e.number === 'AH-2'));
      // One event, met by both iterations of AH-2.
      expect(res.body.items).toEqual([
        [...upload, 1],
        [...upload, 2],
      ]);
      expect((await report(qml(where, join), USERS.carol)).body.items).toEqual([]);
    });
  });
});
