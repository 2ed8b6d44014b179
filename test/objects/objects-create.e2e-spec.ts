import { counterOf, setCounter } from '../numbers/numbers-fixtures.js';
import { fingerprint } from '../security/security-helpers.js';
import { auditOf, objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `OC${process.pid}`;

describe('POST /objects and GET /objects/<ref>', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
  });
  afterAll(() => f.close());

  /** Runs `work` and checks it changed no table, audit events included. */
  async function unchanged(work: () => Promise<void>): Promise<void> {
    const audit = 'SELECT count(*)::int AS n FROM audit_events';
    const before = { tables: await fingerprint(f.db), audit: (await f.db.query(audit)).rows[0].n };
    await work();
    expect({ tables: await fingerprint(f.db), audit: (await f.db.query(audit)).rows[0].n }).toEqual(before);
  }

  it('creates a document with a generated number: version A.1, INWORK, and records the event', async () => {
    const res = await f.as('alice').post('/objects', {
      type: 'wt.doc.WTDocument',
      container: f.main.name,
      number: 'generate',
      name: 'Gearbox specification',
      title: 'Gearbox specification, issue 1',
      description: 'what the gearbox must do',
      attributes: { language: 'en', pages: 12, draft: true, dropped: null },
      note: 'first issue',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      oid: expect.stringMatching(/^OR:wt\.doc\.WTDocument:\d+$/),
      masterOid: expect.stringMatching(/^OR:wt\.doc\.WTDocumentMaster:\d+$/),
      // Version A's reference: the id of its first iteration, this one.
      versionReference: `VR:wt.doc.WTDocument:${String(res.body.oid).split(':').pop()}`,
      number: `${NAME}-D0001`,
      name: 'Gearbox specification',
      type: 'wt.doc.WTDocument',
      class: 'wt.doc.WTDocument',
      softType: null,
      subtype: null,
      version: 'A',
      iteration: 1,
      latest: true,
      workingCopy: false,
      isCheckedOut: false,
      checkedOutBy: null,
      state: 'INWORK',
      title: 'Gearbox specification, issue 1',
      description: 'what the gearbox must do',
      note: 'first issue',
      container: { oid: f.main.oid, name: f.main.name },
      attributes: { language: 'en', pages: 12, draft: true },
      createdBy: 'alice',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      modifiedBy: 'alice',
      modifiedAt: res.body.createdAt,
    });
    expect(await counterOf(f.db, f.main.id, 'wt.doc.WTDocument')).toBe('2');
    expect(await auditOf(f.db, res.body.masterOid)).toEqual([
      {
        action: 'objects.create',
        user_name: 'alice',
        object_number: `${NAME}-D0001`,
        container_id: f.main.id,
        detail: { type: 'wt.doc.WTDocument', version: 'A.1', state: 'INWORK', generated: true },
      },
    ]);
    const read = await f.as('bob').get(`/objects/${NAME}-D0001`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('creates CAD documents with their subtype, and parts of soft types with typed attributes', async () => {
    const cad = await f.create({
      type: 'wt.epm.EPMDocument',
      subtype: 'CADASSEMBLY',
      number: `${NAME}-asm`,
      name: 'gear.asm',
    });
    expect(cad).toMatchObject({
      class: 'wt.epm.EPMDocument',
      subtype: 'CADASSEMBLY',
      softType: null,
      number: `${NAME}-asm`,
    });
    const soft = await f.create({
      type: 'com.acme.SoftwarePart',
      number: 'generate',
      name: 'Gearbox firmware',
      attributes: { firmwareVersion: '1.0.0', memoryKb: 256, view: 1 },
    });
    expect(soft).toMatchObject({
      type: 'com.acme.SoftwarePart',
      class: 'wt.part.WTPart',
      softType: 'com.acme.SoftwarePart',
      number: `${NAME}-P0001`,
      attributes: { firmwareVersion: '1.0.0', memoryKb: 256, view: 1 },
    });
    // A soft type below another inherits its attributes' types; the type identifier form is taken too.
    const boot = await f.create(
      {
        type: 'WCTYPE|wt.part.WTPart|com.acme.BootloaderPart',
        number: `${NAME}-boot`,
        name: 'boot',
        attributes: { signed: true, memoryKb: 8 },
      },
      'carol',
    );
    expect(boot).toMatchObject({
      type: 'com.acme.BootloaderPart',
      createdBy: 'carol',
      attributes: { signed: true, memoryKb: 8 },
    });
    // A number is unique per class: a part may carry a document's number.
    const part = await f.create({ type: 'wt.part.WTPart', number: `${NAME}-asm`, name: 'same number, other class' });
    expect(part.number).toBe(`${NAME}-asm`);
  });

  it('lets authors, managers and administrators create; readers get 403, others 404, and nothing is stored', async () => {
    const admin = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-adm`, name: 'by admin' }, 'admin');
    expect(admin.createdBy).toBe('admin');
    const inSecret = await f.as('carol').post('/objects', {
      type: 'wt.doc.WTDocument',
      container: f.secret.name,
      number: `${NAME}-sec`,
      name: 'secret',
    });
    expect(inSecret.status).toBe(201);
    await unchanged(async () => {
      const reader = await f
        .as('bob')
        .post('/objects', { type: 'wt.doc.WTDocument', container: f.main.name, number: `${NAME}-r`, name: 'x' });
      expect(reader.status).toBe(403);
      expect(reader.body.message).toBe(
        `creating objects needs author or manager rights in container '${f.main.name}'; you may only read there`,
      );
      const outsider = await f.as('alice').post('/objects', {
        type: 'wt.doc.WTDocument',
        container: f.secret.name,
        number: 'generate',
        name: 'x',
      });
      expect(outsider.status).toBe(404);
      expect(outsider.body.message).toBe(`container: no container named '${f.secret.name}'`);
      expect((await f.as('alice').get(`/objects/${NAME}-sec`)).status).toBe(404);
    });
    expect((await f.as('carol').get(`/objects/${NAME}-sec`)).body).toMatchObject({ name: 'secret' });
  });

  const good = { type: 'wt.doc.WTDocument', number: `${NAME}-bad`, name: 'fine' };
  const cases: [Record<string, unknown>, string][] = [
    [{ ...good, type: undefined }, 'type must be a string'],
    [
      { ...good, type: 'wt.change2.VersionableChangeItem' },
      'type: "wt.change2.VersionableChangeItem" is neither a concrete class of the catalog that objects are made of ' +
        '(a versioned class such as wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart, wt.part.WTProductInstance2 …, ' +
        'or a plain one such as wt.workflow.engine.WfProcess; see GET /reports/api/1.0/catalog) nor a soft type of one ' +
        '(com.acme.BootloaderPart, com.acme.SoftwarePart, com.acme.UrgentChange)',
    ],
    [
      { ...good, type: 'WCTYPE|wt.doc.WTDocument|com.acme.SoftwarePart' },
      'type: soft type com.acme.SoftwarePart is a type of wt.part.WTPart, not of wt.doc.WTDocument',
    ],
    [
      { ...good, type: 'wt.epm.EPMDocument' },
      'subtype is required for wt.epm.EPMDocument (CADASSEMBLY, CADCOMPONENT, CADDRAWING)',
    ],
    [
      { ...good, type: 'wt.epm.EPMDocument', subtype: 'DRAWING' },
      'subtype must be one of CADASSEMBLY, CADCOMPONENT, CADDRAWING',
    ],
    [{ ...good, subtype: 'CADASSEMBLY' }, 'subtype is only for wt.epm.EPMDocument'],
    [{ ...good, type: 'wt.part.WTPart', title: 'T' }, 'title is only for wt.doc.WTDocument'],
    [
      { ...good, number: 'OR:wt.doc.WTDocument:1' },
      'number must be 1 to 200 printable characters without leading or trailing space, not starting with OR:',
    ],
    [
      { ...good, number: ' x' },
      'number must be 1 to 200 printable characters without leading or trailing space, not starting with OR:',
    ],
    [{ ...good, name: '' }, 'name must be 1 to 1000 printable characters without leading or trailing space'],
    [{ ...good, name: 'a\u0000b' }, 'name must be 1 to 1000 printable characters without leading or trailing space'],
    [{ ...good, container: 7 }, 'container must be a string'],
    [{ ...good, attributes: [1] }, 'attributes must be an object of name → value'],
    [
      { ...good, attributes: { 'no space': 1 } },
      'attributes: "no space" is not an attribute name (a letter or _, then up to 99 letters, digits, _ . -)',
    ],
    [
      { ...good, attributes: { deep: { x: 1 } } },
      'attributes.deep must be a string of at most 4000 characters, a number, true, false or null',
    ],
    [
      { ...good, type: 'com.acme.SoftwarePart', attributes: { memoryKb: 'lots' } },
      'attributes.memoryKb must be an integer (a long of com.acme.SoftwarePart)',
    ],
    [
      { ...good, type: 'wt.part.WTPart', attributes: { view: 'Design' } },
      'attributes.view must be an integer (a long of wt.part.WTPart)',
    ],
    [{ ...good, owner: 'me' }, 'property owner should not exist'],
    [{ ...good, description: 'a\u0000b' }, 'description must not contain NUL characters'],
    [{ ...good, attributes: { code: 'a\u0000b' } }, 'attributes.code must not contain NUL characters'],
    [{ ...good, note: 'n'.repeat(4001) }, 'note must be at most 4000 characters'],
  ];
  it.each(cases.map(([body, message]) => ({ body, message })))(
    'answers 400 "$message", storing nothing',
    async ({ body, message }) => {
      await unchanged(async () => {
        const res = await f.as('alice').post('/objects', { container: f.main.name, ...body });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message });
      });
    },
  );

  it('answers 409 to a number the class has, and to a rule without numbers left; nothing is stored', async () => {
    await f.create({ type: 'wt.part.WTPart', number: `${NAME}-dup`, name: 'first' });
    await setCounter(f.db, f.main.id, 'wt.epm.EPMDocument', 9999);
    await f.create({ type: 'wt.epm.EPMDocument', subtype: 'CADCOMPONENT', number: 'generate', name: 'the last one' });
    await unchanged(async () => {
      const dup = await f
        .as('alice')
        .post('/objects', { type: 'wt.part.WTPart', container: f.main.name, number: `${NAME}-dup`, name: 'again' });
      expect(dup.status).toBe(409);
      expect(dup.body.message).toBe(
        `number: a wt.part.WTPart with number ${NAME}-dup exists already; nothing was created`,
      );
      const full = await f.as('alice').post('/objects', {
        type: 'wt.epm.EPMDocument',
        subtype: 'CADCOMPONENT',
        container: f.main.name,
        number: 'generate',
        name: 'one too many',
      });
      expect(full.status).toBe(409);
      expect(full.body.message).toBe(
        `number: the wt.epm.EPMDocument rule of container '${f.main.name}' has no free number left up to ${NAME}-C9999 (width 4); nothing was created`,
      );
      const noRule = await f.as('carol').post('/objects', { ...good, container: f.secret.name, number: 'generate' });
      expect(noRule.status).toBe(400);
      expect(noRule.body.message).toBe(
        `number: container '${f.secret.name}' has no numbering rule for wt.doc.WTDocument; give a number instead of generate`,
      );
    });
  });

  it('reads an object by number or OID, a version or one iteration of it', async () => {
    const doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-read`, name: 'to read' });
    const second = await f.as('alice').post(`/objects/${NAME}-read/iterations`, { note: 'second' });
    expect(second.status).toBe(201);
    const latest = await f.as('bob').get(`/objects/${NAME}-read`);
    expect(latest.body).toMatchObject({
      oid: second.body.oid,
      version: 'A',
      iteration: 2,
      latest: true,
      note: 'second',
    });
    const first = await f.as('bob').get(`/objects/${doc.oid}`);
    expect(first.body).toMatchObject({ oid: doc.oid, iteration: 1, latest: false, note: null });
    expect((await f.as('bob').get(`/objects/${NAME}-read?version=A.1`)).body.oid).toBe(doc.oid);
    expect((await f.as('bob').get(`/objects/${doc.oid}?version=A`)).body.oid).toBe(second.body.oid);
    const missing = await f.as('bob').get(`/objects/${NAME}-read?version=B`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(`${NAME}-read has no version B`);
    const bad = await f.as('bob').get(`/objects/${NAME}-read?version=A.0`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('version must be a version letter (A) or version.iteration (A.2), not "A.0"');
    const list = await f.as('bob').get(`/objects/${NAME}-read/iterations`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ number: `${NAME}-read`, class: 'wt.doc.WTDocument', count: 2 });
    expect(list.body.items.map((i: { version: string; iteration: number }) => `${i.version}.${i.iteration}`)).toEqual([
      'A.1',
      'A.2',
    ]);
  });

  it('answers objects the caller may not read like missing ones', async () => {
    await f.create(
      { type: 'wt.doc.WTDocument', container: f.secret.name, number: `${NAME}-hidden`, name: 'hidden' },
      'carol',
    );
    for (const path of [`/objects/${NAME}-hidden`, `/objects/${NAME}-hidden/iterations`, `/objects/${NAME}-none`]) {
      const res = await f.as('bob').get(path);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`no object "${path.split('/')[2]}"`);
    }
    expect((await f.as('admin').get(`/objects/${NAME}-hidden`)).status).toBe(200);
  });
});
