import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { demoQml } from './report-fixtures.js';

const PREFIX = `manage-spec-${process.pid}`;
const url = (name: string) => `/reports/${encodeURIComponent(`${PREFIX} ${name}`)}`;

describe('PUT and DELETE /reports/<name>', () => {
  let db: pg.Pool;
  const t = useTestApp();
  beforeAll(async () => {
    db = testPool();
  });
  afterAll(async () => {
    await db.query('DELETE FROM report_templates WHERE name LIKE $1', [`${PREFIX}%`]);
    await db.end();
  });

  const put = (name: string, user: readonly [string, string], qml: string, query = '') =>
    request(t.http)
      .put(`${url(name)}${query}`)
      .auth(...user)
      .set('Content-Type', 'text/xml')
      .send(qml);

  it('lets a manager create, run, replace and delete a template', async () => {
    const created = await put(
      'parts',
      USERS.carol,
      demoQml('Released parts'),
      '?container=Standard%20Parts&description=Parts%20by%20state',
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      oid: expect.stringMatching(/^OR:wt\.query\.template\.ReportTemplate:\d+$/),
      name: `${PREFIX} parts`,
      description: 'Parts by state',
      container: 'Standard Parts',
      parameters: [{ name: 'state', type: 'wt.lifecycle.State', default: 'RELEASED', isMacro: false }],
    });
    const stored = await db.query(
      'SELECT c.name AS container, t.qml FROM report_templates t JOIN containers c ON c.id = t.container_id WHERE t.name = $1',
      [`${PREFIX} parts`],
    );
    expect(stored.rows).toEqual([{ container: 'Standard Parts', qml: demoQml('Released parts') }]);

    const run = await request(t.http)
      .get(`${url('parts')}?format=json`)
      .auth(...USERS.bob);
    expect(run.status).toBe(200);
    expect(run.body.count).toBe(3);

    const replaced = await put('parts', USERS.carol, demoQml('Files per state'));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ description: 'Parts by state', container: 'Standard Parts', parameters: [] });
    const run2 = await request(t.http)
      .get(`${url('parts')}?format=json`)
      .auth(...USERS.bob);
    expect(run2.body.headings.map((h: { heading: string }) => h.heading)).toEqual(['State', 'Files', 'Bytes']);

    const del = await request(t.http)
      .delete(url('parts'))
      .auth(...USERS.carol);
    expect(del.status).toBe(204);
    expect((await db.query('SELECT 1 FROM report_templates WHERE name = $1', [`${PREFIX} parts`])).rowCount).toBe(0);
    const gone = await request(t.http)
      .get(url('parts'))
      .auth(...USERS.bob);
    expect(gone.status).toBe(404);
  });

  it('refuses readers and authors with 403 and changes nothing', async () => {
    const res = await put('bob', USERS.bob, demoQml('Released parts'), '?container=Standard%20Parts');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'only managers of container "Standard Parts" and administrators may change its report templates',
    );
    const alice = await put('alice', USERS.alice, demoQml('Released parts'), '?container=Drive%20Unit');
    expect(alice.status).toBe(403);
    const demo = await request(t.http)
      .delete('/reports/Part%20structure')
      .auth(...USERS.alice);
    expect(demo.status).toBe(403);
    const rows = await db.query('SELECT name FROM report_templates WHERE name LIKE $1 OR name = $2', [
      `${PREFIX}%`,
      'Part structure',
    ]);
    expect(rows.rows).toEqual([{ name: 'Part structure' }]);
  });

  it('lets an administrator create in any container', async () => {
    const res = await put('admin', USERS.admin, demoQml('Part structure'), '?container=Drive%20Unit');
    expect(res.status).toBe(201);
    expect(res.body.container).toBe('Drive Unit');
  });

  it('rejects a template that does not compile with 400 and stores nothing', async () => {
    const bad = demoQml('Released parts').replace('wt.part.WTPart</table>', 'wt.part.Nope</table>');
    const res = await put('bad', USERS.carol, bad, '?container=Standard%20Parts');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /^\/qml\/statement\/query\/from\/table\[1\]: unknown class wt.part.Nope: package wt.part is known/,
    );
    expect(res.body).not.toHaveProperty('problems');
    expect((await db.query('SELECT 1 FROM report_templates WHERE name = $1', [`${PREFIX} bad`])).rowCount).toBe(0);
  });

  it('needs a container to create and answers 404 for an unknown one', async () => {
    const none = await put('nocontainer', USERS.carol, demoQml('Released parts'));
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('parameter "container" (a container name) is required to create a report template');
    const unknown = await put('nocontainer', USERS.carol, demoQml('Released parts'), '?container=Nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('no container named "Nowhere"');
  });

  it('refuses the reserved name "version"', async () => {
    const res = await request(t.http)
      .put('/reports/version?container=Drive%20Unit')
      .auth(...USERS.admin)
      .set('Content-Type', 'text/xml')
      .send(demoQml('Part structure'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('"version" is reserved: GET /reports/version is the version record');
  });

  it('answers a PUT of a name taken in an unreadable container as a create that meets a taken name', async () => {
    // Drive Unit: carol is no member; Secret Project: alice is none. Each name is taken there.
    expect((await put('hidden du', USERS.admin, demoQml('Part structure'), '?container=Drive%20Unit')).status).toBe(
      201,
    );
    expect(
      (await put('hidden sp', USERS.admin, demoQml('Files per state'), '?container=Secret%20Project')).status,
    ).toBe(201);
    const stored = async () =>
      (
        await db.query('SELECT name, qml, container_id FROM report_templates WHERE name LIKE $1 ORDER BY name', [
          `${PREFIX} hidden%`,
        ])
      ).rows;
    const before = await stored();

    // carol manages Standard Parts: a free name would be created (201), a taken one is 409.
    const taken = await put('hidden du', USERS.carol, demoQml('Released parts'), '?container=Standard%20Parts');
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: `a report template named "${PREFIX} hidden du" exists already; nothing was stored`,
      requestId: expect.any(String),
    });
    expect(taken.text).not.toMatch(/Drive Unit|Part structure/);
    // Without a container, or in a container she may not manage: what a free name gets.
    for (const name of ['hidden du', 'hidden free']) {
      const none = await put(name, USERS.carol, demoQml('Released parts'));
      expect({ status: none.status, message: none.body.message }).toEqual({
        status: 400,
        message: 'parameter "container" (a container name) is required to create a report template',
      });
    }
    for (const name of ['hidden sp', 'hidden free']) {
      const reader = await put(name, USERS.alice, demoQml('Released parts'), '?container=Standard%20Parts');
      expect({ status: reader.status, message: reader.body.message }).toEqual({
        status: 403,
        message: 'only managers of container "Standard Parts" and administrators may change its report templates',
      });
    }
    expect(await stored()).toEqual(before);
    const free = await put('hidden free', USERS.carol, demoQml('Released parts'), '?container=Standard%20Parts');
    expect(free.status).toBe(201);
  });

  it('answers 404 when deleting an unknown template', async () => {
    const res = await request(t.http)
      .delete(url('never'))
      .auth(...USERS.admin);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`no report template named "${PREFIX} never"`);
  });
});
