import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { useContainer } from './numbers-fixtures.js';

describe('GET /numbers/rules', () => {
  const t = useTestApp();
  const c = useContainer({
    name: 'numbers-rules',
    members: { bob: 'reader' },
    rules: [
      { cls: 'wt.part.WTPart', prefix: 'RP-', suffix: '/A', width: 7, next: 42 },
      { cls: 'wt.doc.WTDocument', width: 18, next: 2n ** 53n + 1n },
    ],
  });

  it("lists the container's rules for a reader", async () => {
    const res = await request(t.http)
      .get(`/numbers/rules?container-name=${encodeURIComponent(c.box.name)}`)
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 2,
      container: { oid: c.box.oid, name: c.box.name },
      items: [
        {
          class_name: 'wt.doc.WTDocument',
          prefix: '',
          suffix: '',
          width: 18,
          next: 9007199254740992,
          next_number: '009007199254740993',
        },
        { class_name: 'wt.part.WTPart', prefix: 'RP-', suffix: '/A', width: 7, next: 42, next_number: 'RP-0000042/A' },
      ],
      _runtime: expect.any(Number),
    });
  });

  it('shows the demo Secret Project rule (SP, -X, width 5) to carol by container-ref and by workspace', async () => {
    const { rows } = await c.pool.query<{ id: number }>("SELECT id FROM containers WHERE name = 'Secret Project'");
    const oid = `OR:wt.projmgmt.admin.Project2:${rows[0].id}`;
    const byRef = await request(t.http)
      .get(`/numbers/rules?container-ref=${oid}`)
      .auth(...USERS.carol);
    expect(byRef.status).toBe(200);
    expect(byRef.body.container).toEqual({ oid, name: 'Secret Project' });
    expect(byRef.body.items).toEqual([
      expect.objectContaining({ class_name: 'wt.doc.WTDocument', prefix: 'SP', suffix: '-X', width: 5 }),
    ]);
    const byWorkspace = await request(t.http)
      .get('/numbers/rules?workspace-name=carol-ws')
      .auth(...USERS.carol);
    expect(byWorkspace.status).toBe(200);
    expect(byWorkspace.body.items).toEqual(byRef.body.items);
  });

  it('resolves alice-ws to Drive Unit', async () => {
    const res = await request(t.http)
      .get('/numbers/rules?workspace-name=alice-ws')
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body.container.name).toBe('Drive Unit');
    expect(res.body.items.map((r: { class_name: string }) => r.class_name)).toEqual([
      'wt.doc.WTDocument',
      'wt.epm.EPMDocument',
      'wt.part.WTPart',
    ]);
  });

  it('answers 404 to a caller who cannot read the container', async () => {
    const res = await request(t.http)
      .get(`/numbers/rules?container-name=${encodeURIComponent(c.box.name)}`)
      .auth(...USERS.alice);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, message: `no container named '${c.box.name}'` });
  });

  it('needs exactly one container source', async () => {
    const none = await request(t.http)
      .get('/numbers/rules')
      .auth(...USERS.bob);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(
      "say which container's numbering rules to use: give one of container-ref, container-name, workspace-name or workspace-ref",
    );
    const two = await request(t.http)
      .get(`/numbers/rules?container-name=x&container-ref=${c.box.oid}`)
      .auth(...USERS.bob);
    expect(two.status).toBe(400);
    expect(two.body.message).toMatch(/not container-ref and container-name$/);
    const count = await request(t.http)
      .get(`/numbers/rules?container-name=x&count=1`)
      .auth(...USERS.bob);
    expect(count.status).toBe(400);
    expect(count.body.message).toBe('property count should not exist');
  });
});
