import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { demoQml } from '../reports/report-fixtures.js';
import { failEventsMarked, recorded } from './audit-fixtures.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Report templates and administration record one event per change; refused changes none. */
describe('audit events of report templates and administration', () => {
  let db: pg.Pool;

  const t = useTestApp();
  beforeAll(async () => {
    db = testPool();
  });
  afterAll(async () => {
    await db.query("DELETE FROM report_templates WHERE name LIKE 'audit-%'");
    await db.query("DELETE FROM workspaces WHERE name LIKE 'audit-%'");
    await db.query("DELETE FROM containers WHERE name LIKE 'Audit %'");
    await db.query("DELETE FROM users WHERE name LIKE 'audit-%' OR name LIKE 'doomed-%'");
    await db.query("DELETE FROM content_roles WHERE name LIKE 'AUDIT%'");
    await db.end();
  });

  const as = (user: readonly [string, string]) => ({
    put: (path: string, body?: object | string) => {
      const r = request(t.http)
        .put(path)
        .auth(...user);
      return typeof body === 'string' ? r.set('Content-Type', 'text/xml').send(body) : r.send(body);
    },
    post: (path: string, body: object) =>
      request(t.http)
        .post(path)
        .auth(...user)
        .send(body),
    patch: (path: string, body: object) =>
      request(t.http)
        .patch(path)
        .auth(...user)
        .send(body),
    del: (path: string) =>
      request(t.http)
        .delete(path)
        .auth(...user),
  });
  const carol = as(USERS.carol);
  const admin = as(USERS.admin);

  it('records reports.put (created, then replaced) and reports.delete with container, description and QML digest', async () => {
    const first = demoQml('Released parts');
    const second = demoQml('Files per state');
    const [created, createdEvents] = await recorded(db, () =>
      carol.put('/reports/audit-parts?container=Standard%20Parts&description=parts', first),
    );
    expect(created.status).toBe(201);
    const id = created.body.oid.split(':')[2];
    const on = {
      user_name: 'carol',
      user: 'carol',
      object_class: 'wt.query.template.ReportTemplate',
      object_id: id,
      object_number: 'audit-parts',
      container: 'Standard Parts',
    };
    const facts = (qml: string) => ({
      container: 'Standard Parts',
      description: 'parts',
      qmlLength: qml.length,
      qmlSha256: sha(qml),
    });
    expect(createdEvents).toEqual([{ ...on, action: 'reports.put', detail: { created: true, after: facts(first) } }]);

    const [replaced, replacedEvents] = await recorded(db, () => carol.put('/reports/audit-parts', second));
    expect(replaced.status).toBe(200);
    expect(replacedEvents).toEqual([
      { ...on, action: 'reports.put', detail: { created: false, before: facts(first), after: facts(second) } },
    ]);

    const [refused, refusedEvents] = await recorded(db, async () => [
      (await as(USERS.bob).put('/reports/audit-parts', first)).status,
      (await as(USERS.bob).del('/reports/audit-parts')).status,
      (await carol.put('/reports/audit-parts', '<qml>')).status,
    ]);
    expect(refused).toEqual([403, 403, 400]);
    expect(refusedEvents).toEqual([]);

    const [deleted, deletedEvents] = await recorded(db, () => carol.del('/reports/audit-parts'));
    expect(deleted.status).toBe(204);
    expect(deletedEvents).toEqual([{ ...on, action: 'reports.delete', detail: { before: facts(second) } }]);
  });

  it('records user changes without passwords or hashes', async () => {
    const [created, createdEvents] = await recorded(db, () =>
      admin.post('/admin/users', { name: 'audit-erin', password: 'secret-pw-1', fullName: 'Erin' }),
    );
    expect(created.status).toBe(201);
    const id = created.body.oid.split(':')[2];
    const on = {
      user_name: 'admin',
      user: 'admin',
      object_class: 'wt.org.WTUser',
      object_id: id,
      object_number: 'audit-erin',
      container: null,
    };
    const after = { fullName: 'Erin', email: null, admin: false, disabled: false };
    expect(createdEvents).toEqual([{ ...on, action: 'admin.user.create', detail: { after } }]);

    const [updated, updatedEvents] = await recorded(db, () =>
      admin.patch('/admin/users/audit-erin', { password: 'secret-pw-2', disabled: true }),
    );
    expect(updated.status).toBe(200);
    expect(updatedEvents).toEqual([
      {
        ...on,
        action: 'admin.user.update',
        detail: { before: { disabled: false }, after: { disabled: true }, passwordChanged: true },
      },
    ]);
    const stored = await db.query("SELECT detail::text AS text FROM audit_events WHERE object_number = 'audit-erin'");
    const hash = await db.query("SELECT password_hash FROM users WHERE name = 'audit-erin'");
    for (const { text } of stored.rows as { text: string }[]) {
      expect(text).not.toContain('secret-pw');
      expect(text).not.toContain(hash.rows[0].password_hash);
    }

    const [deleted, deletedEvents] = await recorded(db, () => admin.del('/admin/users/audit-erin'));
    expect(deleted.status).toBe(204);
    expect(deletedEvents).toEqual([
      { ...on, action: 'admin.user.delete', detail: { before: { ...after, disabled: true } } },
    ]);
  });

  it('records containers, memberships, rules, workspaces and content roles; refused changes none', async () => {
    const [created, events1] = await recorded(db, () =>
      admin.post('/admin/containers', { class: 'wt.projmgmt.admin.Project2', name: 'Audit Box' }),
    );
    expect(created.status).toBe(201);
    const id = created.body.oid.split(':')[2];
    const box = {
      user_name: 'admin',
      user: 'admin',
      object_class: 'wt.projmgmt.admin.Project2',
      object_id: id,
      object_number: 'Audit Box',
      container: 'Audit Box',
    };
    expect(events1).toEqual([{ ...box, action: 'admin.container.create', detail: { after: { description: null } } }]);

    const [statuses, events] = await recorded(db, async () => [
      (await admin.put('/admin/containers/Audit%20Box/members/bob', { role: 'reader' })).status,
      (await admin.put('/admin/containers/Audit%20Box/members/bob', { role: 'manager' })).status,
      (await admin.post('/admin/containers/Audit%20Box/rules', { class_name: 'wt.doc.WTDocument', width: 4 })).status,
      (await admin.patch('/admin/containers/Audit%20Box/rules/wt.doc.WTDocument', { prefix: 'AB-' })).status,
      (await admin.post('/admin/workspaces', { name: 'audit-ws', container: 'Audit Box', owner: 'bob' })).status,
      (await admin.post('/admin/content-roles', { name: 'AUDITROLE' })).status,
      (await admin.del('/admin/workspaces/audit-ws')).status,
      (await admin.del('/admin/containers/Audit%20Box/rules/wt.doc.WTDocument')).status,
      (await admin.del('/admin/containers/Audit%20Box/members/bob')).status,
      (await admin.patch('/admin/containers/Audit%20Box', { description: 'for audits' })).status,
    ]);
    expect(statuses).toEqual([201, 200, 201, 200, 201, 201, 204, 204, 204, 200]);
    const rule = { prefix: '', suffix: '', width: 4, next: 1 };
    expect(events.map((e) => [e.action, e.object_class, e.object_number, e.container, e.detail])).toEqual([
      ['admin.member.set', box.object_class, 'Audit Box', 'Audit Box', { user: 'bob', before: null, after: 'reader' }],
      [
        'admin.member.set',
        box.object_class,
        'Audit Box',
        'Audit Box',
        { user: 'bob', before: 'reader', after: 'manager' },
      ],
      [
        'admin.rule.create',
        box.object_class,
        'Audit Box',
        'Audit Box',
        { class_name: 'wt.doc.WTDocument', after: rule },
      ],
      [
        'admin.rule.update',
        box.object_class,
        'Audit Box',
        'Audit Box',
        { class_name: 'wt.doc.WTDocument', before: rule, after: { ...rule, prefix: 'AB-' } },
      ],
      [
        'admin.workspace.create',
        'wt.epm.workspaces.EPMWorkspace',
        'audit-ws',
        'Audit Box',
        { after: { container: 'Audit Box', owner: 'bob' } },
      ],
      ['admin.role.create', null, 'AUDITROLE', null, { name: 'AUDITROLE' }],
      [
        'admin.workspace.delete',
        'wt.epm.workspaces.EPMWorkspace',
        'audit-ws',
        'Audit Box',
        { before: { container: 'Audit Box', owner: 'bob' } },
      ],
      [
        'admin.rule.delete',
        box.object_class,
        'Audit Box',
        'Audit Box',
        { class_name: 'wt.doc.WTDocument', before: { ...rule, prefix: 'AB-' } },
      ],
      [
        'admin.member.remove',
        box.object_class,
        'Audit Box',
        'Audit Box',
        { user: 'bob', before: 'manager', after: null },
      ],
      [
        'admin.container.update',
        box.object_class,
        'Audit Box',
        'Audit Box',
        { before: { name: 'Audit Box', description: null }, after: { name: 'Audit Box', description: 'for audits' } },
      ],
    ]);

    const [refused, refusedEvents] = await recorded(db, async () => [
      (await admin.post('/admin/containers', { class: 'wt.projmgmt.admin.Project2', name: 'Audit Box' })).status,
      (await admin.del('/admin/containers/Audit%20Box/members/bob')).status,
      (await admin.del('/admin/workspaces/audit-ws')).status,
      (await admin.post('/admin/content-roles', { name: 'AUDITROLE' })).status,
      (await carol.post('/admin/users', { name: 'audit-x', password: 'secret-pw-1' })).status,
      (await admin.del('/admin/containers/Drive%20Unit')).status,
      (await admin.patch('/admin/users/bob', { email: 'not an address' })).status,
    ]);
    expect(refused).toEqual([409, 404, 404, 409, 403, 409, 400]);
    expect(refusedEvents).toEqual([]);

    // Deleted last: its event keeps the container's number, and its container is gone with it.
    const [deleted, deletedEvents] = await recorded(db, () => admin.del('/admin/containers/Audit%20Box'));
    expect(deleted.status).toBe(204);
    expect(deletedEvents).toEqual([
      { ...box, container: null, action: 'admin.container.delete', detail: { before: { description: 'for audits' } } },
    ]);
  });

  it('stores neither a user nor its event when the transaction fails after the insert', async () => {
    const undo = await failEventsMarked(db, 'doomed');
    try {
      const [res, events] = await recorded(db, () =>
        admin.post('/admin/users', { name: 'doomed-user', password: 'secret-pw-1' }),
      );
      expect(res.status).toBe(500);
      expect(events).toEqual([]);
      const { rows } = await db.query("SELECT id FROM users WHERE name = 'doomed-user'");
      expect(rows).toEqual([]);
    } finally {
      await undo();
    }
  });
});
