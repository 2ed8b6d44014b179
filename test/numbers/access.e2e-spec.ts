import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { counterOf, createContainer, generateUrl, type TestContainer } from './numbers-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const PART = 'wt.part.WTPart';

describe('POST /numbers/generate/<class_name>: containers, workspaces and rights', () => {
  let pool: pg.Pool;
  let box: TestContainer;
  let demoCounters: string[];
  const ws = 'numbers-access-ws';

  /** Counters of the demo rules the workspace tests touch. */
  async function demoCountersNow(): Promise<string[]> {
    const { rows } = await pool.query<{ next: string }>(
      `SELECT r.next::text AS next FROM numbering_rules r JOIN containers c ON c.id = r.container_id
       WHERE c.name IN ('Drive Unit', 'Secret Project') ORDER BY r.id`,
    );
    return rows.map((r) => r.next);
  }

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    box = await createContainer(pool, {
      name: 'numbers-access',
      cls: 'wt.inf.library.WTLibrary',
      members: { alice: 'author', bob: 'reader' },
      rules: [{ cls: DOC, prefix: 'AC', width: 6, next: 1 }],
      workspaces: { [ws]: 'alice' },
    });
    demoCounters = await demoCountersNow();
  });

  afterAll(async () => {
    await pool.end();
  });

  function generate(user: readonly [string, string], cls: string, params: Record<string, string | number>) {
    return request(t.http)
      .post(generateUrl(cls, params))
      .auth(...user);
  }

  async function expectError(res: request.Response, status: number, error: string, message: string) {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ statusCode: status, error, message, requestId: res.headers['x-request-id'] });
  }

  describe('rights', () => {
    it('lets authors, managers and admins generate', async () => {
      const a = await generate(USERS.alice, DOC, { 'container-name': box.name });
      expect(a.status).toBe(200);
      expect(a.body.items).toEqual(['AC000001']);
      await pool.query(
        "INSERT INTO memberships (container_id, user_id, role) SELECT $1, id, 'manager' FROM users WHERE name = 'carol'",
        [box.id],
      );
      try {
        const c = await generate(USERS.carol, DOC, { 'container-name': box.name });
        expect(c.status).toBe(200);
        expect(c.body.items).toEqual(['AC000002']);
      } finally {
        await pool.query(
          "DELETE FROM memberships WHERE container_id = $1 AND user_id = (SELECT id FROM users WHERE name = 'carol')",
          [box.id],
        );
      }
      const admin = await generate(USERS.admin, DOC, { 'container-ref': box.oid });
      expect(admin.status).toBe(200);
      expect(admin.body.items).toEqual(['AC000003']);
      expect(await counterOf(pool, box.id, DOC)).toBe('4');
    });

    it('answers a reader 403 and reserves nothing', async () => {
      const before = await counterOf(pool, box.id, DOC);
      const res = await generate(USERS.bob, DOC, { 'container-name': box.name, count: 5 });
      await expectError(
        res,
        403,
        'Forbidden',
        `generating numbers needs author or manager rights in container '${box.name}'`,
      );
      expect(await counterOf(pool, box.id, DOC)).toBe(before);
    });

    it('answers a non-member 404, exactly like a container that does not exist', async () => {
      const before = await counterOf(pool, box.id, DOC);
      const hidden = await generate(USERS.carol, DOC, { 'container-name': box.name });
      await expectError(hidden, 404, 'Not Found', `no container named '${box.name}'`);
      const missing = await generate(USERS.carol, DOC, { 'container-name': 'numbers-access-missing' });
      await expectError(missing, 404, 'Not Found', "no container named 'numbers-access-missing'");

      const byRef = await generate(USERS.carol, DOC, { 'container-ref': box.oid });
      await expectError(byRef, 404, 'Not Found', `no container ${box.oid}`);
      const byWorkspace = await generate(USERS.carol, DOC, { 'workspace-name': ws });
      await expectError(byWorkspace, 404, 'Not Found', `no workspace named '${ws}'`);
      expect(await counterOf(pool, box.id, DOC)).toBe(before);
    });

    it('needs credentials', async () => {
      const none = await request(t.http).post(generateUrl(DOC, { 'container-name': box.name }));
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
      const wrong = await generate(['alice', 'not-her-password'], DOC, { 'container-name': box.name });
      expect(wrong.status).toBe(401);
    });
  });

  describe('container-ref', () => {
    it('must carry the container class', async () => {
      const ok = await generate(USERS.alice, DOC, { 'container-ref': box.oid });
      expect(ok.status).toBe(200);
      expect(ok.body.container).toEqual({ oid: box.oid, name: box.name });

      const otherClass = `OR:wt.pdmlink.PDMLinkProduct:${box.id}`;
      const res = await generate(USERS.admin, DOC, { 'container-ref': otherClass });
      await expectError(res, 404, 'Not Found', `no container ${otherClass}`);
    });

    it('answers 404 for an unknown id', async () => {
      const res = await generate(USERS.admin, DOC, { 'container-ref': 'OR:wt.inf.library.WTLibrary:2147483647' });
      await expectError(res, 404, 'Not Found', 'no container OR:wt.inf.library.WTLibrary:2147483647');
    });
  });

  describe('workspaces', () => {
    it('uses the container of a workspace given by name or by OID', async () => {
      const byName = await generate(USERS.alice, DOC, { 'workspace-name': ws, count: 2 });
      expect(byName.status).toBe(200);
      expect(byName.body.container).toEqual({ oid: box.oid, name: box.name });
      const byRef = await generate(USERS.alice, DOC, { 'workspace-ref': box.workspaces[ws] });
      expect(byRef.status).toBe(200);
      expect(byRef.body.container).toEqual({ oid: box.oid, name: box.name });
      const [n1, n2] = byName.body.items as string[];
      expect(Number(n2.slice(2))).toBe(Number(n1.slice(2)) + 1);
      expect(Number(byRef.body.items[0].slice(2))).toBe(Number(n2.slice(2)) + 1);
    });

    it('answers 404 for an unknown workspace', async () => {
      const byName = await generate(USERS.admin, DOC, { 'workspace-name': 'numbers-no-such-ws' });
      await expectError(byName, 404, 'Not Found', "no workspace named 'numbers-no-such-ws'");
      const ref = 'OR:wt.epm.workspaces.EPMWorkspace:2147483647';
      const byRef = await generate(USERS.admin, DOC, { 'workspace-ref': ref });
      await expectError(byRef, 404, 'Not Found', `no workspace ${ref}`);
    });

    // The demo workspaces are resolved without advancing the demo counters: each request
    // stops at a check that follows the resolution.
    it('resolves alice-ws to Drive Unit (bob, a reader there, gets 403 naming it)', async () => {
      const res = await generate(USERS.bob, DOC, { 'workspace-name': 'alice-ws' });
      await expectError(
        res,
        403,
        'Forbidden',
        "generating numbers needs author or manager rights in container 'Drive Unit'",
      );
    });

    it('resolves carol-ws to Secret Project (which has no WTPart rule)', async () => {
      const res = await generate(USERS.carol, PART, { 'workspace-name': 'carol-ws' });
      await expectError(res, 404, 'Not Found', `container 'Secret Project' has no numbering rule for ${PART}`);
      const { rows } = await pool.query<{ id: number }>("SELECT id FROM workspaces WHERE name = 'carol-ws'");
      const byRef = await generate(USERS.carol, PART, {
        'workspace-ref': `OR:wt.epm.workspaces.EPMWorkspace:${rows[0].id}`,
      });
      await expectError(byRef, 404, 'Not Found', `container 'Secret Project' has no numbering rule for ${PART}`);
    });

    it('hides carol-ws from alice, who cannot read Secret Project', async () => {
      const res = await generate(USERS.alice, DOC, { 'workspace-name': 'carol-ws' });
      await expectError(res, 404, 'Not Found', "no workspace named 'carol-ws'");
    });

    it('left the demo counters alone', async () => {
      expect(await demoCountersNow()).toEqual(demoCounters);
    });
  });
});
