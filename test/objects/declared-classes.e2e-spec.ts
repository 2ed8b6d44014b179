import { importText } from '../../src/import/import-file.js';
import { testDatabaseUrl } from '../helpers/test-database.js';
import { auditOf, objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `DC${process.pid}`;
/** Types of this file's own: removed again at its end. */
const PKG = `com.dc${process.pid}`;
const INSPECTION = `${PKG}.Inspection`;
const FIRST_ARTICLE = `${PKG}.FirstArticle`;
const INSPECTED = `${PKG}.InspectedPart`;

/**
 * A versioned class a dataset declares (storage iteration, with its master), a soft type of it
 * and a link class naming it: /objects creates and changes its objects through every versioned
 * route as it does the standard catalog's change objects.
 */
describe('/objects for versioned classes a dataset declares', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    // Every use checks catalog_types: the types imported below are seen by the next request.
    f = await objectsFixture(NAME, { CATALOG_CHECK_INTERVAL_MS: '0' });
    const dataset = {
      format: 'pdm-dataset/1',
      types: {
        classes: [
          {
            name: INSPECTION,
            parent: 'wt.vc.Iterated',
            master: `${INSPECTION}Master`,
            displayName: 'Inspection',
            properties: {
              result: { type: 'string', json: 'result' },
              defects: { type: 'long', json: 'defects' },
            },
          },
          { name: `${INSPECTION}Master`, parent: 'wt.vc.Mastered' },
          { name: INSPECTED, parent: 'wt.fc.ObjectToObjectLink', roles: { a: INSPECTION, b: 'wt.part.WTPart' } },
        ],
        softTypes: [{ name: FIRST_ARTICLE, parent: INSPECTION, attributes: { sample: { type: 'long' } } }],
      },
      objects: [
        {
          class: INSPECTION,
          number: `${NAME}-IMP`,
          name: 'imported inspection',
          container: f.main.name,
          properties: { result: 'PASSED' },
        },
      ],
    };
    await importText(JSON.stringify(dataset), 'declared-classes', testDatabaseUrl());
  });
  afterAll(async () => {
    await f.db.query('DELETE FROM catalog_types WHERE name LIKE $1', [`${PKG}.%`]);
    await f.close();
  });

  const idOf = (oid: string) => Number(oid.split(':').pop());

  it('creates them with a given or generated number and attributes typed by the catalog', async () => {
    const rule = await f.as('admin').post(`/admin/containers/${encodeURIComponent(f.main.name)}/rules`, {
      class_name: INSPECTION,
      prefix: `${NAME}-IN`,
      width: 3,
    });
    expect([rule.status, rule.body.class_name]).toEqual([201, INSPECTION]);
    const made = await f.as('alice').post('/objects', {
      type: INSPECTION,
      container: f.main.name,
      number: 'generate',
      name: 'housing inspection',
      attributes: { result: 'FAILED', defects: 2 },
      note: 'first look',
    });
    expect(made.status).toBe(201);
    const id = idOf(made.body.oid);
    expect(made.body).toEqual({
      oid: `OR:${INSPECTION}:${id}`,
      masterOid: expect.stringMatching(new RegExp(`^OR:${INSPECTION.replace(/\./g, '\\.')}Master:\\d+$`)),
      versionReference: `VR:${INSPECTION}:${id}`,
      number: `${NAME}-IN001`,
      name: 'housing inspection',
      type: INSPECTION,
      class: INSPECTION,
      softType: null,
      subtype: null,
      version: 'A',
      iteration: 1,
      latest: true,
      workingCopy: false,
      isCheckedOut: false,
      checkedOutBy: null,
      state: 'INWORK',
      title: null,
      description: null,
      note: 'first look',
      container: { oid: f.main.oid, name: f.main.name },
      attributes: { result: 'FAILED', defects: 2 },
      createdBy: 'alice',
      createdAt: expect.stringMatching(/^\d{4}-/),
      modifiedBy: 'alice',
      modifiedAt: made.body.createdAt,
    });
    const given = await f.create({ type: INSPECTION, number: `${NAME}-given`, name: 'given number' });
    expect([given.number, given.state]).toEqual([`${NAME}-given`, 'INWORK']);
    const twice = await f.as('alice').post('/objects', {
      type: INSPECTION,
      container: f.main.name,
      number: `${NAME}-given`,
      name: 'again',
    });
    expect([twice.status, twice.body.message]).toEqual([
      409,
      `number: a ${INSPECTION} with number ${NAME}-given exists already; nothing was created`,
    ]);
    for (const [attributes, message] of [
      [{ defects: 'many' }, `attributes.defects must be an integer (a long of ${INSPECTION})`],
      [{ defects: 1.5 }, `attributes.defects must be an integer (a long of ${INSPECTION})`],
    ] as const) {
      const res = await f.as('alice').post('/objects', {
        type: INSPECTION,
        container: f.main.name,
        number: `${NAME}-bad`,
        name: 'bad',
        attributes,
      });
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
    const plainOnly = await f.as('alice').post('/objects', {
      type: INSPECTION,
      container: f.main.name,
      number: `${NAME}-bad`,
      name: 'bad',
      props: { result: 'x' },
    });
    expect([plainOnly.status, plainOnly.body.message]).toEqual([
      400,
      `props is only for plain objects; ${INSPECTION} objects start in the lifecycle's first state and keep attributes`,
    ]);
    expect(
      (await f.db.query('SELECT count(*)::int AS n FROM masters WHERE number = $1', [`${NAME}-bad`])).rows,
    ).toEqual([{ n: 0 }]);
    expect(await auditOf(f.db, made.body.masterOid)).toEqual([
      {
        action: 'objects.create',
        user_name: 'alice',
        object_number: `${NAME}-IN001`,
        container_id: f.main.id,
        detail: { type: INSPECTION, version: 'A.1', state: 'INWORK', generated: true },
      },
    ]);
  });

  it('creates soft types of them, in either form, with the soft type attributes typed', async () => {
    const soft = await f.create({
      type: FIRST_ARTICLE,
      number: `${NAME}-FA1`,
      name: 'first article',
      attributes: { sample: 5, result: 'PASSED' },
    });
    expect(soft).toMatchObject({ type: FIRST_ARTICLE, class: INSPECTION, softType: FIRST_ARTICLE });
    const written = await f.create({
      type: `WCTYPE|${INSPECTION}|${FIRST_ARTICLE}`,
      number: `${NAME}-FA2`,
      name: 'second article',
    });
    expect(written).toMatchObject({ type: FIRST_ARTICLE, class: INSPECTION });
    const bad = await f.as('alice').post('/objects', {
      type: FIRST_ARTICLE,
      container: f.main.name,
      number: `${NAME}-FA3`,
      name: 'x',
      attributes: { sample: 'five' },
    });
    expect([bad.status, bad.body.message]).toEqual([
      400,
      `attributes.sample must be an integer (a long of ${FIRST_ARTICLE})`,
    ]);
    const wrongBase = await f.as('alice').post('/objects', {
      type: `WCTYPE|wt.part.WTPart|${FIRST_ARTICLE}`,
      container: f.main.name,
      number: `${NAME}-FA3`,
      name: 'x',
    });
    expect([wrongBase.status, wrongBase.body.message]).toEqual([
      400,
      `type: soft type ${FIRST_ARTICLE} is a type of ${INSPECTION}, not of wt.part.WTPart`,
    ]);
  });

  it('reads, iterates, revises and promotes them, and keeps their history', async () => {
    const obj = await f.create({
      type: INSPECTION,
      number: `${NAME}-life`,
      name: 'lifecycle',
      attributes: { result: 'OPEN', defects: 0 },
    });
    const vrA = `VR:${INSPECTION}:${idOf(obj.oid)}`;
    for (const ref of [obj.number, obj.oid, vrA, `${obj.number}?type=${INSPECTION}`]) {
      const res = await f.as('bob').get(`/objects/${ref}`);
      expect([ref, res.status, res.body.oid]).toEqual([ref, 200, obj.oid]);
    }
    const it2 = await f.as('alice').post(`/objects/${obj.number}/iterations`, {
      name: 'lifecycle, measured',
      attributes: { defects: 3, result: null },
    });
    expect(it2.status).toBe(201);
    expect(it2.body).toMatchObject({ version: 'A', iteration: 2, name: 'lifecycle, measured', versionReference: vrA });
    expect(it2.body.attributes).toEqual({ defects: 3 });
    const badAttr = await f.as('alice').post(`/objects/${obj.number}/iterations`, { attributes: { defects: true } });
    expect([badAttr.status, badAttr.body.message]).toEqual([
      400,
      `attributes.defects must be an integer (a long of ${INSPECTION})`,
    ]);
    const old = await f.as('alice').post(`/objects/${obj.oid}/iterations`, {});
    expect(old.status).toBe(409);
    const reader = await f.as('bob').post(`/objects/${obj.number}/iterations`, {});
    expect(reader.status).toBe(403);

    const review = await f.as('alice').post(`/objects/${vrA}/state`, { state: 'UNDERREVIEW' });
    expect([review.status, review.body.state]).toEqual([200, 'UNDERREVIEW']);
    const jump = await f.as('alice').post(`/objects/${obj.number}/state`, { state: 'OBSOLETE' });
    expect([jump.status, jump.body.message]).toEqual([
      409,
      `${NAME}-life A.2: cannot go from UNDERREVIEW to OBSOLETE: from UNDERREVIEW the lifecycle allows RELEASED, INWORK`,
    ]);
    expect((await f.as('alice').post(`/objects/${obj.number}/state`, { state: 'RELEASED' })).status).toBe(200);
    const released = await f.as('alice').post(`/objects/${obj.number}/iterations`, {});
    expect(released.status).toBe(409);
    const b1 = await f.as('alice').post(`/objects/${obj.number}/revisions`, { note: 'second round' });
    expect(b1.status).toBe(201);
    expect(b1.body).toMatchObject({
      version: 'B',
      iteration: 1,
      state: 'INWORK',
      attributes: { defects: 3 },
      versionReference: `VR:${INSPECTION}:${idOf(b1.body.oid)}`,
    });
    const all = await f.as('bob').get(`/objects/${obj.number}/iterations`);
    expect([
      all.status,
      all.body.class,
      all.body.items.map((i: { version: string; iteration: number }) => `${i.version}.${i.iteration}`),
    ]).toEqual([200, INSPECTION, ['A.1', 'A.2', 'B.1']]);
    const versionA = await f.as('bob').get(`/objects/${obj.number}?version=A`);
    expect([versionA.status, versionA.body.oid]).toEqual([200, it2.body.oid]);

    const history = await f.as('bob').get(`/objects/${obj.masterOid}/history`);
    expect(history.status).toBe(200);
    expect(history.body.object).toEqual({
      oid: obj.masterOid,
      class: INSPECTION,
      number: `${NAME}-life`,
      name: 'lifecycle, measured',
      container: f.main.name,
    });
    expect(history.body.items.map((e: { action: string }) => e.action)).toEqual([
      'objects.revise',
      'objects.state',
      'objects.state',
      'objects.iterate',
      'objects.create',
    ]);
    const byOid = await f.as('bob').get(`/objects/${b1.body.oid}/history?limit=1`);
    expect([byOid.status, byOid.body.total, byOid.body.items[0].action]).toEqual([200, 5, 'objects.revise']);
  });

  it('changes the objects the dataset imported', async () => {
    const imported = await f.as('bob').get(`/objects/${NAME}-IMP`);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ class: INSPECTION, attributes: { result: 'PASSED' }, iteration: 1 });
    const next = await f.as('alice').post(`/objects/${NAME}-IMP/iterations`, { attributes: { defects: 1 } });
    expect([next.status, next.body.iteration, next.body.attributes]).toEqual([
      201,
      2,
      { result: 'PASSED', defects: 1 },
    ]);
  });

  it('links them by a declared link class, and deletes them: refused while linked, unless force=true', async () => {
    const obj = await f.create({ type: INSPECTION, number: `${NAME}-del`, name: 'to delete' });
    const part = await f.create({ type: 'wt.part.WTPart', number: `${NAME}-P`, name: 'inspected part' });
    const link = await f.as('alice').post('/objects/links', { class: INSPECTED, a: obj.number, b: part.number });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ class: INSPECTED, a: { oid: obj.oid }, b: { oid: part.oid } });
    const listed = await f.as('bob').get(`/objects/${obj.oid}/links`);
    expect([listed.status, listed.body.total, listed.body.items[0]?.oid]).toEqual([200, 1, link.body.oid]);
    const refused = await f.as('alice').delete(`/objects/${obj.number}?type=${INSPECTION}`);
    expect([refused.status, refused.body.message]).toEqual([
      409,
      `${NAME}-del is named by 1 catalog link (${link.body.oid}): remove those links first, or delete with ` +
        'force=true, which removes them too',
    ]);
    const byReader = await f.as('bob').delete(`/objects/${obj.number}?force=true`);
    expect(byReader.status).toBe(403);
    const gone = await f.as('alice').delete(`/objects/${obj.number}?force=true`);
    expect([gone.status, gone.body]).toEqual([
      200,
      {
        masterOid: obj.masterOid,
        number: `${NAME}-del`,
        class: INSPECTION,
        iterations: 1,
        files: 0,
        usedBy: 0,
        links: 1,
        references: 0,
      },
    ]);
    expect((await f.as('bob').get(`/objects/${obj.oid}`)).status).toBe(404);
    expect((await f.as('bob').get(`/objects/${part.number}/links`)).body.total).toBe(0);
    expect((await auditOf(f.db, obj.masterOid)).map((e) => e.action)).toEqual(['objects.create', 'objects.delete']);
  });

  it('numbers them through the number service from the rule /objects uses, soft types too', async () => {
    const url = (cls: string) =>
      `/numbers/generate/${encodeURIComponent(cls)}?container-name=${encodeURIComponent(f.main.name)}&count=2`;
    const byClass = await f.as('alice').post(url(INSPECTION));
    expect(byClass.status).toBe(200);
    expect(byClass.body).toMatchObject({ count: 2, class_name: INSPECTION, container: { name: f.main.name } });
    const bySoftType = await f.as('alice').post(url(FIRST_ARTICLE));
    expect(bySoftType.status).toBe(200);
    expect(bySoftType.body).toMatchObject({ count: 2, class_name: FIRST_ARTICLE });
    const numbers = [...byClass.body.items, ...bySoftType.body.items] as string[];
    const counters = numbers.map((n) => Number(n.slice(`${NAME}-IN`.length)));
    expect(numbers.every((n) => /^DC\d+-IN\d{3}$/.test(n))).toBe(true);
    expect(counters[1] - counters[0]).toBe(1);
    expect(counters[2]).toBeGreaterThan(counters[1]);
    expect(counters[3] - counters[2]).toBe(1);
    // None of them is a number an object of the class carries.
    const carried = await f.db.query('SELECT 1 FROM masters WHERE number = ANY($1)', [numbers]);
    expect(carried.rowCount).toBe(0);
    const made = await f.as('alice').post('/objects', {
      type: INSPECTION,
      container: f.main.name,
      number: 'generate',
      name: 'after the number service',
    });
    expect(made.status).toBe(201);
    expect(Number(made.body.number.slice(`${NAME}-IN`.length))).toBe(counters[3] + 1);
  });
});
