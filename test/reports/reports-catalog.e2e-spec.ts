import type pg from 'pg';
import request from 'supertest';
import { USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';

const PREFIX = `catalog-spec-${process.pid}`;

const post = (t: TestApp, body: string, user: readonly [string, string] = USERS.alice) =>
  request(t.http)
    .post('/reports?format=json')
    .auth(...user)
    .set('Content-Type', 'text/xml')
    .send(body);

const query = (select: string, from: string, rest = '') =>
  `<qml><statement><query><select>${select}</select><from>${from}</from>${rest}</query></statement></qml>`;

/**
 * The type catalog end to end: templates over catalog classes stored generically (objects,
 * links, change objects in masters and iterations), soft types, JSON-kept properties with bad
 * values, every problem of a template at once, types declared later, and the catalog endpoint.
 */
describe('reports over the type catalog', () => {
  let db: pg.Pool;
  // Every use checks catalog_types: types inserted by a test are seen by its next request.
  const t = useTestApp({ CATALOG_CHECK_INTERVAL_MS: '0' });
  beforeAll(async () => {
    db = testPool();
  });
  afterAll(async () => {
    await db.query('DELETE FROM objects WHERE number LIKE $1', [`${PREFIX}%`]);
    await db.query('DELETE FROM catalog_types WHERE name LIKE $1', ['com.late.%']);
    await db.end();
  });

  it('answers every unknown name of a template at once, each with its element path', async () => {
    const res = await post(
      t,
      query(
        '<column alias="P">nosuchProperty</column><column alias="X">name</column><column alias="W">name</column>',
        '<table alias="P">wt.part.WTPart</table><table alias="X">com.acme.Gadget</table><table alias="W">WCTYPE|com.nowhere.Base|com.nowhere.Soft</table>',
        '<referenceJoin><join name="noSuchRef"><aliasTarget alias="P"/><aliasTarget alias="P"/></join></referenceJoin>',
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.message).toMatch(/\(and 3 more problems, listed in "problems"\)$/);
    const Q = '/qml/statement/query';
    expect(res.body.problems).toEqual([
      {
        path: `${Q}/from/table[2]`,
        message: expect.stringMatching(
          /^unknown class com.acme.Gadget: neither it nor its package com.acme is in the catalog; declare it/,
        ),
      },
      {
        path: `${Q}/from/table[3]`,
        message: expect.stringMatching(/^unknown class com.nowhere.Base \(the base of soft type com.nowhere.Soft\)/),
      },
      { path: `${Q}/select/column[1]`, message: 'unknown property "nosuchProperty" of wt.part.WTPart' },
      {
        path: `${Q}/referenceJoin/join[1]/@name`,
        message: expect.stringMatching(/^unknown reference "noSuchRef" of wt.part.WTPart/),
      },
    ]);
  });

  it('reads objects without a container for everyone, and objects in a container only for its readers', async () => {
    const doc = query(
      '<column alias="O" heading="Name">name</column><object alias="O" heading="Type" propertyName="displayType"/>',
      '<table alias="O">wt.fc.Item</table>',
      '<orderBy><orderByItem><columnTarget heading="Name"/></orderByItem></orderBy>',
    );
    const names = async (user: readonly [string, string]) => {
      const res = await post(t, doc, user);
      expect(res.status).toBe(200);
      return (res.body.items as string[][]).map((r) => r[0]);
    };
    const bob = await names(USERS.bob);
    expect(bob).toEqual(expect.arrayContaining(['Acme Drives', 'Design', 'Engineering', 'Review CN-0001']));
    expect(bob).not.toContain('Secret review');
    const carol = await names(USERS.carol);
    expect(carol).toContain('Secret review');
    expect(carol).not.toContain('Review CN-0001');
  });

  it('applies access control to links in a linkJoin through their container', async () => {
    const doc = query(
      '<column alias="A" heading="Task">number</column><column alias="D" heading="Document">number</column>',
      '<table alias="A">wt.change2.WTChangeActivity2</table><table alias="D">wt.doc.WTDocument</table>',
      '<linkJoin><join name="wt.change2.AffectedActivityData"><aliasTarget alias="A"/><aliasTarget alias="D"/></join></linkJoin>',
    );
    const admin = await post(t, doc.replace('<qml>', '<qml bypassAccessControl="true">'), USERS.admin);
    expect(admin.status).toBe(200);
    expect(admin.body.items).toEqual(
      expect.arrayContaining([
        ['CA-0002', '0000000003'],
        ['CA-9001', 'SP00001-X'],
      ]),
    );
    const bob = await post(t, doc, USERS.bob);
    expect(bob.body.items).toEqual([['CA-0002', '0000000003']]);
  });

  it('reads a JSON value of the wrong kind as null, never as an error', async () => {
    await db.query(
      `INSERT INTO objects (class, number, name, state, container_id, props)
       SELECT 'wt.workflow.engine.WfProcess', $1, 'bad values', 'OPEN', id,
              '{"priority": 1e400, "startTime": "2026-02-30T10:00:00Z", "endTime": "yesterday"}'::jsonb
       FROM containers WHERE name = 'Drive Unit'`,
      [`${PREFIX}-bad`],
    );
    await db.query(
      `INSERT INTO objects (class, number, name, state, container_id, props)
       SELECT 'wt.workflow.engine.WfProcess', $1, 'good values', 'OPEN', id,
              '{"priority": 3, "startTime": "2026-02-03T10:00:00Z", "endTime": "2026-02-04"}'::jsonb
       FROM containers WHERE name = 'Drive Unit'`,
      [`${PREFIX}-good`],
    );
    const res = await post(
      t,
      query(
        '<column alias="P" heading="N">number</column><column alias="P">priority</column><column alias="P">startTime</column><column alias="P">endTime</column>',
        '<table alias="P">wt.workflow.engine.WfProcess</table>',
        `<where><condition><operand><column alias="P">number</column></operand><operator type="like"/><operand><constant>${PREFIX}*</constant></operand></condition></where>
         <orderBy><orderByItem><columnTarget heading="N"/></orderByItem></orderBy>`,
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      [`${PREFIX}-bad`, null, null, null],
      [`${PREFIX}-good`, 3, '2026-02-03T10:00:00.000Z', '2026-02-04T00:00:00.000Z'],
    ]);
  });

  it('warns about an undeclared soft type in the template details, and sees types declared later', async () => {
    const name = `${PREFIX} late type`;
    const doc = query(
      '<column alias="D">number</column>',
      '<table alias="D">WCTYPE|wt.doc.WTDocument|com.late.Memo</table>',
    );
    const put = await request(t.http)
      .put(`/reports/${encodeURIComponent(name)}?container=Drive%20Unit`)
      .auth(...USERS.admin)
      .set('Content-Type', 'text/xml')
      .send(doc);
    expect(put.status).toBe(201);
    expect(put.body.warnings).toEqual([
      {
        path: '/qml/statement/query/from/table[1]',
        message: expect.stringMatching(/^soft type com.late.Memo of wt.doc.WTDocument is not declared/),
      },
    ]);
    // A later import declares it: the running service sees it on the next request.
    await db.query(
      `INSERT INTO catalog_types (name, kind, spec) VALUES ('com.late.Memo', 'softType', '{"name": "com.late.Memo", "parent": "wt.doc.WTDocument"}')`,
    );
    try {
      const details = await request(t.http)
        .get(`/reports/api/1.0/templates/${encodeURIComponent(put.body.oid)}`)
        .auth(...USERS.admin);
      expect(details.status).toBe(200);
      expect(details.body.warnings).toEqual([]);
      const cls = await request(t.http)
        .get('/reports/api/1.0/catalog/wt.doc.WTDocument')
        .auth(...USERS.bob);
      expect(cls.body.softTypes).toContain('com.late.Memo');
    } finally {
      await db.query(`DELETE FROM catalog_types WHERE name = 'com.late.Memo'`);
      await db.query('DELETE FROM report_templates WHERE name = $1', [name]);
    }
  });

  it('serves the catalog to signed-in callers only', async () => {
    const anonymous = await request(t.http).get('/reports/api/1.0/catalog');
    expect(anonymous.status).toBe(401);
    const all = await request(t.http)
      .get('/reports/api/1.0/catalog')
      .auth(...USERS.bob);
    expect(all.status).toBe(200);
    expect(all.body.classes.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['wt.change2.WTChangeOrder2', 'wt.org.MembershipLink', 'com.acme.qa.TestReport']),
    );
    expect(all.body.softTypes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'com.acme.SoftwarePart', class: 'wt.part.WTPart', userDeclared: true }),
      ]),
    );
    const one = await request(t.http)
      .get('/reports/api/1.0/catalog/wt.change2.WTChangeOrder2')
      .auth(...USERS.bob);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      name: 'wt.change2.WTChangeOrder2',
      storage: 'iteration',
      master: 'wt.change2.WTChangeOrder2Master',
      oidPrefix: 'OR:wt.change2.WTChangeOrder2',
      softTypes: ['com.acme.UrgentChange'],
    });
    expect(one.body.properties).toEqual(
      expect.arrayContaining([
        { path: 'thePriority', type: 'string', source: 'json priority', about: expect.any(String) },
      ]),
    );
    const missing = await request(t.http)
      .get('/reports/api/1.0/catalog/wt.nothing.Here')
      .auth(...USERS.bob);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ statusCode: 404, message: 'no class wt.nothing.Here in the catalog' });
  });
});
