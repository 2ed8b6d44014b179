import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { addMasters, counterOf, generateUrl, useContainer } from './numbers-fixtures.js';

const ORDER = 'wt.change2.WTChangeOrder2';
const PROCESS = 'wt.workflow.engine.WfProcess';
const WORK_ITEM = 'wt.workflow.work.WorkItem';
const PART = 'wt.part.WTPart';
/** Declared by the demo dataset's `types`, which every test database is loaded with. */
const TEST_REPORT = 'com.acme.qa.TestReport';

const NUMBERED =
  'numbers are generated for wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart, the other versioned and ' +
  'plain classes of the catalog (wt.change2.WTChangeOrder2, wt.workflow.engine.WfProcess …) and their soft ' +
  'subtypes written <class>|<subtype>, e.g. wt.doc.WTDocument|com.acme.Spec';

/**
 * Every class POST /objects makes objects of is numbered by POST /numbers/generate too, from the
 * same rule: the catalog's versioned classes, plain classes (a dataset's as well) and soft types.
 */
describe('POST /numbers/generate/<class_name> for the classes of the catalog', () => {
  const t = useTestApp();
  const c = useContainer({
    name: 'numbers-classes',
    members: { alice: 'author' },
    rules: [
      { cls: ORDER, prefix: 'NCO-', width: 4, next: 1 },
      { cls: PROCESS, prefix: 'NWF-', width: 4, next: 1 },
      { cls: WORK_ITEM, prefix: 'NWI-', width: 4, next: 1 },
      { cls: PART, prefix: 'NPA-', width: 4, next: 1 },
      { cls: TEST_REPORT, prefix: 'NTR-', width: 4, next: 1 },
    ],
  });

  const generate = (cls: string, count = 1) =>
    request(t.http)
      .post(generateUrl(cls, { 'container-name': c.box.name, count }))
      .auth(...USERS.alice);

  /** Plain objects carrying numbers, as an import leaves them. */
  async function addPlainObjects(cls: string, numbers: string[]): Promise<void> {
    for (const number of numbers) {
      await c.pool.query('INSERT INTO objects (class, number, name, container_id) VALUES ($1, $2, $3, $4)', [
        cls,
        number,
        `imported ${number}`,
        c.box.id,
      ]);
    }
  }

  it('numbers a versioned class of the catalog, skipping numbers its masters carry', async () => {
    await addMasters(c.pool, c.box.id, ORDER, ['NCO-0002']);
    const res = await generate(ORDER, 2);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 2,
      class_name: ORDER,
      container: { oid: c.box.oid, name: c.box.name },
      items: ['NCO-0003', 'NCO-0004'],
      _runtime: expect.any(Number),
    });
    expect(await counterOf(c.pool, c.box.id, ORDER)).toBe('5');
  });

  it('numbers a plain class, skipping numbers its objects (not masters) carry', async () => {
    await addPlainObjects(PROCESS, ['NWF-0001', 'NWF-0002']);
    // A master of another class with the next number does not block it.
    await addMasters(c.pool, c.box.id, ORDER, ['NWF-0003']);
    const res = await generate(PROCESS);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 1, class_name: PROCESS, items: ['NWF-0003'] });
    expect(await counterOf(c.pool, c.box.id, PROCESS)).toBe('4');
  });

  it('numbers a plain class a dataset declared, skipping numbers its objects carry', async () => {
    await addPlainObjects(TEST_REPORT, ['NTR-0001']);
    const res = await generate(TEST_REPORT, 2);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 2, class_name: TEST_REPORT, items: ['NTR-0002', 'NTR-0003'] });
    expect(await counterOf(c.pool, c.box.id, TEST_REPORT)).toBe('4');

    // POST /objects with "number": "generate" takes the next number of the same rule.
    const created = await request(t.http)
      .post('/objects')
      .auth(...USERS.alice)
      .send({ type: TEST_REPORT, container: c.box.name, number: 'generate', name: 'bracket fatigue run' });
    expect([created.status, created.body.number, created.body.class]).toEqual([201, 'NTR-0004', TEST_REPORT]);
  });

  it.each([
    // soft types the demo dataset declares, named alone or after their class, use their class's rule
    ['com.acme.SoftwarePart', PART, 'NPA-'],
    [`WCTYPE|${PART}|com.acme.BootloaderPart`, PART, 'NPA-'],
    ['com.acme.UrgentChange', ORDER, 'NCO-'],
    [`${ORDER}|com.acme.UrgentChange`, ORDER, 'NCO-'],
    ['com.acme.ReviewTask', WORK_ITEM, 'NWI-'],
    // a soft subtype the catalog does not declare, as for documents and parts
    [`${PROCESS}|com.acme.Review`, PROCESS, 'NWF-'],
  ])('numbers the soft type %s with the rule of %s', async (cls, ruleClass, prefix) => {
    const before = Number(await counterOf(c.pool, c.box.id, ruleClass));
    const res = await generate(cls);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      count: 1,
      class_name: cls,
      items: [`${prefix}${String(before).padStart(4, '0')}`],
    });
    expect(Number(await counterOf(c.pool, c.box.id, ruleClass))).toBe(before + 1);
  });

  it('answers 404 naming the class whose rule the container lacks', async () => {
    const res = await generate('wt.change2.WTChangeRequest2|com.acme.Anything');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: `container '${c.box.name}' has no numbering rule for wt.change2.WTChangeRequest2`,
      requestId: res.headers['x-request-id'],
    });
  });

  it.each(['com.acme.qa.Unknown', 'wt.folder.Folder', 'com.acme.Nothing|wt.part.WTPart'])(
    'answers 400 for the class %s the catalog does not know',
    async (cls) => {
      const res = await generate(cls);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: `unknown class '${cls}': ${NUMBERED}`,
        requestId: res.headers['x-request-id'],
      });
    },
  );

  it.each([
    [`${ORDER}Master`, `${ORDER}Master is the master of versioned objects, numbered by their class`],
    ['wt.fc.Item', 'wt.fc.Item is abstract: objects are made of its subclasses'],
    // a link class the demo dataset declares
    ['com.acme.qa.TestCoverage', 'com.acme.qa.TestCoverage is not a class of objects (storage link)'],
  ])('answers 400 for %s, which the catalog knows but does not number, saying why', async (cls, why) => {
    const res = await generate(cls);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: `class '${cls}' cannot be numbered: ${why}; ${NUMBERED}`,
      requestId: res.headers['x-request-id'],
    });
  });
});
