import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { counterOf, createContainer, type TestContainer } from './numbers-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const SOURCES = 'container-ref, container-name, workspace-name or workspace-ref';

/** Every refused request leaves the counter where it was: checked after each test. */
describe('POST /numbers/generate/<class_name>: refused parameters', () => {
  let pool: pg.Pool;
  let box: TestContainer;
  let base: string;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    box = await createContainer(pool, {
      name: 'numbers-parameters',
      members: { alice: 'author' },
      rules: [{ cls: DOC, prefix: 'PA', width: 6, next: 100 }],
      workspaces: { 'numbers-parameters-ws': 'alice' },
    });
    base = `/numbers/generate/${DOC}?container-name=${encodeURIComponent(box.name)}`;
  });

  afterEach(async () => {
    expect(await counterOf(pool, box.id, DOC)).toBe('100');
  });

  afterAll(async () => {
    await pool.end();
  });

  async function expect400(url: string, message: string | RegExp): Promise<void> {
    const res = await request(t.http)
      .post(url)
      .auth(...USERS.alice);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: typeof message === 'string' ? message : expect.stringMatching(message),
      requestId: res.headers['x-request-id'],
    });
  }

  describe('count', () => {
    it.each(['0', '-1', '1.5', 'abc', '1e3', '5abc', '0x10', '9007199254740993', '10001', '', '%20', '%2B1', '01'])(
      'refuses count=%s',
      async (raw) => {
        const shown = decodeURIComponent(raw);
        await expect400(`${base}&count=${raw}`, `count must be a whole number from 1 to 10000, got '${shown}'`);
      },
    );

    it('refuses a repeated count', async () => {
      await expect400(`${base}&count=1&count=2`, 'count must be given at most once');
    });

    it('refuses count written as a nested parameter', async () => {
      await expect400(`${base}&count[x]=1`, /count\[x\]/);
    });
  });

  describe('container source', () => {
    const ws = 'numbers-parameters-ws';

    it('needs one, and says which are accepted', async () => {
      await expect400(
        `/numbers/generate/${DOC}?count=1`,
        `say which container's numbering rules to use: give one of ${SOURCES}`,
      );
    });

    it.each([
      [['container-ref', 'container-name']],
      [['container-ref', 'workspace-name']],
      [['container-ref', 'workspace-ref']],
      [['container-name', 'workspace-name']],
      [['container-name', 'workspace-ref']],
      [['workspace-name', 'workspace-ref']],
      [['container-ref', 'container-name', 'workspace-name', 'workspace-ref']],
    ])('refuses %j together', async (given) => {
      const values: Record<string, string> = {
        'container-ref': box.oid,
        'container-name': box.name,
        'workspace-name': ws,
        'workspace-ref': 'OR:wt.epm.workspaces.EPMWorkspace:1',
      };
      const query = given.map((p) => `${p}=${encodeURIComponent(values[p])}`).join('&');
      await expect400(`/numbers/generate/${DOC}?${query}`, `give only one of ${SOURCES}, not ${given.join(' and ')}`);
    });

    it.each(['container-ref', 'container-name', 'workspace-name', 'workspace-ref'])(
      'refuses %s given twice',
      async (p) => {
        await expect400(`/numbers/generate/${DOC}?${p}=a&${p}=b`, `${p} must be given at most once`);
      },
    );

    it.each(['container-ref', 'container-name', 'workspace-name', 'workspace-ref'])(
      'refuses an empty %s',
      async (p) => {
        await expect400(`/numbers/generate/${DOC}?${p}=`, `${p} must not be empty`);
      },
    );

    it.each(['Drive Unit', 'OR:wt.doc.WTDocument:1', 'OR:wt.pdmlink.PDMLinkProduct:abc'])(
      'refuses container-ref=%s',
      async (ref) => {
        await expect400(
          `/numbers/generate/${DOC}?container-ref=${encodeURIComponent(ref)}`,
          `container-ref '${ref}' is not a container OID like OR:wt.pdmlink.PDMLinkProduct:1 ` +
            '(container classes: wt.pdmlink.PDMLinkProduct, wt.inf.library.WTLibrary, wt.projmgmt.admin.Project2)',
        );
      },
    );

    it.each(['alice-ws', 'OR:wt.pdmlink.PDMLinkProduct:1'])('refuses workspace-ref=%s', async (ref) => {
      await expect400(
        `/numbers/generate/${DOC}?workspace-ref=${encodeURIComponent(ref)}`,
        `workspace-ref '${ref}' is not a workspace OID like OR:wt.epm.workspaces.EPMWorkspace:1`,
      );
    });

    it('refuses an unknown parameter', async () => {
      await expect400(`${base}&container=x`, 'property container should not exist');
    });
  });

  describe('class name', () => {
    const numbered =
      'numbers are generated for wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart, the other versioned and ' +
      'plain classes of the catalog (wt.change2.WTChangeOrder2, wt.workflow.engine.WfProcess …) and their soft ' +
      'subtypes written <class>|<subtype>, e.g. wt.doc.WTDocument|com.acme.Spec';

    it.each([
      'wt.folder.Folder',
      'com.acme.Spec|wt.doc.WTDocument',
      'wt.doc.WTDocument|',
      'wt.doc.WTDocument|com acme',
      'WTDocument',
    ])('refuses %s', async (cls) => {
      await expect400(
        `/numbers/generate/${encodeURIComponent(cls)}?container-name=${encodeURIComponent(box.name)}`,
        `unknown class '${cls}': ${numbered}`,
      );
    });

    it('refuses a class the catalog knows that is not numbered, saying why', async () => {
      await expect400(
        `/numbers/generate/wt.doc.WTDocumentMaster?container-name=${encodeURIComponent(box.name)}`,
        "class 'wt.doc.WTDocumentMaster' cannot be numbered: wt.doc.WTDocumentMaster is the master of versioned " +
          `objects, numbered by their class; ${numbered}`,
      );
    });
  });

  it('checks parameters before looking anything up: unknown container and bad count is 400', async () => {
    await expect400(`/numbers/generate/${DOC}?container-name=nope&count=0`, /^count must be a whole number/);
  });
});
