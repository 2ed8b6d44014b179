import request from 'supertest';
import type pg from 'pg';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createQueryFixture, type QueryFixture } from './query-fixture.js';

/** Every operator and every error of the q language (docs/query.md), end to end. */
describe('the q language', () => {
  let pool: pg.Pool;
  let fx: QueryFixture;
  let eve: [string, string];
  let T: string;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    fx = await createQueryFixture(pool, ['eve', 'fay'], { Lang: { eve: 'author', fay: 'author' } });
    eve = fx.user('eve');
    T = fx.tag;
    await fx.addObjects('Lang', [
      {
        number: `${T}-D001`,
        name: 'Alpha spec',
        state: 'RELEASED',
        created: '2026-01-10T00:00:00Z',
        modified: '2026-02-01T00:00:00Z',
        attributes: { material: 'S235', weight: 2.5, approved: true },
        createdBy: 'eve',
        modifiedBy: 'fay',
      },
      {
        number: `${T}-D002`,
        name: 'Beta_plan 100%',
        version: 'B',
        iteration: 1,
        latest: false,
        created: '2026-03-01T00:00:00Z',
      },
      {
        number: `${T}-D002`,
        name: 'Beta_plan 100%',
        version: 'B',
        iteration: 2,
        latest: false,
        created: '2026-03-15T00:00:00Z',
      },
      {
        number: `${T}-D002`,
        version: 'B',
        iteration: 3,
        state: 'UNDERREVIEW',
        created: '2026-04-01T00:00:00Z',
        modified: '2026-04-02T00:00:00Z',
        attributes: { material: 'S355', weight: 10 },
      },
      {
        cls: 'wt.epm.EPMDocument',
        subtype: 'CADASSEMBLY',
        number: `${T}-E001`,
        name: 'asm*star',
        created: '2026-05-01T00:00:00Z',
        createdBy: 'fay',
      },
      {
        cls: 'wt.epm.EPMDocument',
        subtype: 'CADDRAWING',
        number: `${T}-E002`,
        name: 'drawing?',
        created: '2026-06-01T00:00:00Z',
        attributes: { material: '' },
      },
      {
        cls: 'wt.part.WTPart',
        number: `${T}-P001`,
        name: 'alpha part',
        state: 'OBSOLETE',
        created: '2026-07-01T00:00:00Z',
        attributes: { weight: '7' },
        createdBy: 'fay',
      },
      { cls: 'wt.part.WTPart', number: `${T}-P_01`, name: 'Percent%name', created: '2026-07-02T00:00:00Z' },
    ]);
  });

  afterAll(async () => {
    await fx.cleanup();
    await pool.end();
  });

  /** Runs q objects restricted to this file's container; returns number[.iteration] of the matches in order. */
  async function run(...qs: Record<string, unknown>[]): Promise<string[]> {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: qs.map((q) => JSON.stringify({ container: `${T} Lang`, ...q })), limit: 100 })
      .auth(...eve);
    expect(res.status).toBe(200);
    expect(res.body.session_id).toBe(0);
    expect(res.body.total).toBe(res.body.count);
    return (res.body.items as { number: string; iteration: number; latest: boolean }[]).map((i) =>
      i.latest ? i.number.slice(T.length + 1) : `${i.number.slice(T.length + 1)}.${i.iteration}`,
    );
  }

  const ALL = ['D001', 'D002', 'E001', 'E002', 'P001', 'P_01'];

  it.each<[string, Record<string, unknown>, string[]]>([
    ['no criterion: latest iterations', {}, ALL],
    ['exact string', { number: `§-D001` }, ['D001']],
    ['* wildcard', { number: '§-D*' }, ['D001', 'D002']],
    ['? wildcard', { number: '§-E00?' }, ['E001', 'E002']],
    ['_ is an ordinary character', { number: '§-P_0*' }, ['P_01']],
    ['% is an ordinary character', { name: 'Percent%name' }, ['P_01']],
    ['% in a wildcard pattern', { name: '*100%' }, ['D002']],
    ['\\* is a literal star', { name: 'asm\\*star' }, ['E001']],
    ['\\* beside a wildcard', { name: 'asm\\**' }, ['E001']],
    ['\\? is a literal question mark', { name: 'drawing\\?' }, ['E002']],
    ['strings are case-sensitive', { name: 'alpha*' }, ['P001']],
    ['array: any element', { number: ['§-D001', '§-E00?'] }, ['D001', 'E001', 'E002']],
    ['empty array: nothing', { number: [] }, []],
    ['null: absent or empty', { subtype: null }, ['D001', 'D002', 'P001', 'P_01']],
    ['eq', { state: { eq: 'RELEASED' } }, ['D001']],
    ['eq takes * literally', { name: { eq: 'asm*star' } }, ['E001']],
    ['eq null', { subtype: { eq: null } }, ['D001', 'D002', 'P001', 'P_01']],
    ['ne', { state: { ne: 'INWORK' } }, ['D001', 'D002', 'P001']],
    ['ne keeps absent values', { subtype: { ne: 'CADASSEMBLY' } }, ['D001', 'D002', 'E002', 'P001', 'P_01']],
    ['ne null', { subtype: { ne: null } }, ['E001', 'E002']],
    ['lt', { number: { lt: '§-E001' } }, ['D001', 'D002']],
    ['lte', { number: { lte: '§-E001' } }, ['D001', 'D002', 'E001']],
    ['gt', { number: { gt: '§-E002' } }, ['P001', 'P_01']],
    ['gte', { number: { gte: '§-E002' } }, ['E002', 'P001', 'P_01']],
    ['several operators: all hold', { number: { gte: '§-D002', lt: '§-P' } }, ['D002', 'E001', 'E002']],
    ['like', { name: { like: 'Alpha*' } }, ['D001']],
    ['ilike', { name: { ilike: 'ALPHA*' } }, ['D001', 'P001']],
    ['ilike escapes _', { name: { ilike: 'BETA_PLAN*' } }, ['D002']],
    ['in', { state: { in: ['RELEASED', 'OBSOLETE'] } }, ['D001', 'P001']],
    ['in takes * literally', { name: { in: ['asm*star', 'x*'] } }, ['E001']],
    ['between (inclusive)', { created: { between: ['2026-04-01', '2026-06-01T00:00:00Z'] } }, ['D002', 'E001', 'E002']],
    ['exists true', { subtype: { exists: true } }, ['E001', 'E002']],
    ['exists false', { subtype: { exists: false } }, ['D001', 'D002', 'P001', 'P_01']],
    ['type', { type: 'wt.epm.EPMDocument' }, ['E001', 'E002']],
    ['type matches subclasses', { type: 'wt.enterprise.RevisionControlled' }, ALL],
    ['type ne', { type: { ne: 'wt.part.WTPart' } }, ['D001', 'D002', 'E001', 'E002']],
    ['type in', { type: { in: ['wt.part.WTPart', 'wt.doc.WTDocument'] } }, ['D001', 'D002', 'P001', 'P_01']],
    ['type array', { type: ['wt.part.WTPart'] }, ['P001', 'P_01']],
    ['subtype', { subtype: 'CADDRAWING' }, ['E002']],
    ['version', { version: 'B' }, ['D002']],
    ['state', { state: 'OBSOLETE' }, ['P001']],
    ['iteration', { iteration: 3 }, ['D002']],
    ['iteration gte with all iterations', { iteration: { gte: 2 }, latest: false }, ['D002.2', 'D002']],
    ['iteration in', { iteration: { in: [1, 3] }, number: '§-D*', latest: false }, ['D001', 'D002.1', 'D002']],
    ['iteration between', { iteration: { between: [1, 2] }, number: '§-D002', latest: false }, ['D002.1', 'D002.2']],
    ['latest false: every iteration', { latest: false, number: '§-D002' }, ['D002.1', 'D002.2', 'D002']],
    ['latest true', { latest: true, number: '§-D002' }, ['D002']],
    ['container wildcard', { container: '§ L*' }, ALL],
    ['container of another name', { container: 'Drive Unit' }, []],
    ['createdBy', { createdBy: '§-fay' }, ['E001', 'P001']],
    ['createdBy wildcard', { createdBy: '*-fay' }, ['E001', 'P001']],
    ['modifiedBy', { modifiedBy: '§-fay' }, ['D001', 'E001', 'P001']],
    ['createdBy ne', { createdBy: { ne: '§-fay' } }, ['D001', 'D002', 'E002', 'P_01']],
    ['created exact', { created: '2026-05-01T02:00:00+02:00' }, ['E001']],
    ['created lt', { created: { lt: '2026-03-15' } }, ['D001']],
    ['modified gt', { modified: { gt: '2026-01-31T23:59:59Z' }, created: { lt: '2026-04-15' } }, ['D001', 'D002']],
    ['modified lte', { modified: { lte: '2026-02-01T00:00:00.000Z' } }, ['D001']],
    ['attribute string', { 'attributes.material': 'S235' }, ['D001']],
    ['attribute wildcard', { 'attributes.material': 'S*' }, ['D001', 'D002']],
    ['attribute number', { 'attributes.weight': 2.5 }, ['D001']],
    ['attribute number compares numerically', { 'attributes.weight': { gt: 5 } }, ['D002']],
    ['attribute string form of a value', { 'attributes.weight': '7' }, ['P001']],
    ['attribute boolean', { 'attributes.approved': true }, ['D001']],
    ['attribute between numbers', { 'attributes.weight': { between: [1, 10] } }, ['D001', 'D002']],
    ['attribute in of mixed values', { 'attributes.weight': { in: [10, '7'] } }, ['D002', 'P001']],
    ['attribute null: absent or empty', { 'attributes.material': null }, ['E001', 'E002', 'P001', 'P_01']],
    ['attribute exists', { 'attributes.material': { exists: true } }, ['D001', 'D002']],
    [
      'attribute ne keeps absent values',
      { 'attributes.material': { ne: 'S235' } },
      ['D002', 'E001', 'E002', 'P001', 'P_01'],
    ],
    ['attribute ilike', { 'attributes.material': { ilike: 's3*' } }, ['D002']],
    ['sort descending', { sort: '-created' }, ['P_01', 'P001', 'E002', 'E001', 'D002', 'D001']],
    ['sort by several keys', { sort: ['type', '-number'] }, ['D002', 'D001', 'E002', 'E001', 'P_01', 'P001']],
    ['sort by a user', { sort: ['createdBy', 'number'] }, ['D001', 'D002', 'E002', 'P_01', 'E001', 'P001']],
  ])('%s', async (_, q, expected) => {
    const withTag = JSON.parse(JSON.stringify(q).replaceAll('§', T)) as Record<string, unknown>;
    expect(await run(withTag)).toEqual(expected);
  });

  it('ORs q objects; a sort given in one of them applies to all', async () => {
    expect(await run({ number: `${T}-D001` }, { type: 'wt.part.WTPart' }, { state: 'RELEASED' })).toEqual([
      'D001',
      'P001',
      'P_01',
    ]);
    expect(await run({ number: `${T}-D001` }, { type: 'wt.part.WTPart', sort: '-number' })).toEqual([
      'P_01',
      'P001',
      'D001',
    ]);
  });

  it('echoes the normalized q objects', async () => {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({
        q: JSON.stringify({
          container: `${T} Lang`,
          created: { gte: '2026-01-01', lt: '2026-12-31T12:00:00+02:00' },
          sort: '-modified',
        }),
      })
      .auth(...eve);
    expect(res.status).toBe(200);
    expect(res.body.query).toEqual([
      {
        container: `${T} Lang`,
        created: { gte: '2026-01-01T00:00:00.000Z', lt: '2026-12-31T10:00:00.000Z' },
        sort: ['-modified'],
        latest: true,
      },
    ]);
  });

  const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`attributes.a${i}`, 'x']));

  it.each<[string, unknown[], string]>([
    ['not JSON', ['{number:'], 'q[0]: not JSON: "{number:"'],
    ['not an object', ['[1]'], 'q[0]: not a JSON object: [1]'],
    ['a JSON string', ['"x"'], 'q[0]: not a JSON object: "x"'],
    ['null', ['null'], 'q[0]: not a JSON object: null'],
    [
      'an unknown key',
      ['{"colour":"red"}'],
      'q[0].colour: unknown key (known: type, subtype, number, name, state, version, iteration, container, createdBy, modifiedBy, checkedOutBy, created, modified, latest, checkedOut, attributes.<name>, sort)',
    ],
    ['an inherited name as key', ['{"constructor":"x"}'], 'q[0].constructor: unknown key'],
    [
      'an empty attribute name',
      ['{"attributes.":"x"}'],
      'q[0].attributes.: an attribute name of 1 to 200 characters is needed',
    ],
    [
      'an unknown operator',
      ['{"number":{"regex":"x"}}'],
      'q[0].number.regex: unknown operator (one of eq, ne, lt, lte, gt, gte, like, ilike, in, between, exists)',
    ],
    ['an empty operator object', ['{"number":{}}'], 'q[0].number: an operator object needs at least one operator'],
    ['a string where a number is needed', ['{"iteration":"2"}'], 'q[0].iteration: "2" is not an integer'],
    ['a fraction where an integer is needed', ['{"iteration":{"gt":1.5}}'], 'q[0].iteration.gt: 1.5 is not an integer'],
    ['a number where a string is needed', ['{"number":5}'], 'q[0].number: 5 is not a string'],
    [
      'a date that does not parse',
      ['{}', '{"modified":{"gte":"2026-13-01"}}'],
      'q[1].modified.gte: "2026-13-01" is not an ISO-8601 timestamp',
    ],
    [
      'a day that does not exist',
      ['{"created":"2026-02-30"}'],
      'q[0].created: "2026-02-30" is not an ISO-8601 timestamp',
    ],
    [
      'an unknown type',
      ['{"type":"wt.Foo"}'],
      'q[0].type: unknown type "wt.Foo" (one of wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart, wt.part.WTProductInstance2, wt.change2.WTChangeIssue',
    ],
    ['an order operator on type', ['{"type":{"gt":"a"}}'], 'q[0].type.gt: type takes only eq, ne and in'],
    ['more than 20 criteria', [JSON.stringify(tooMany)], 'q[0]: more than 20 criteria (21)'],
    [
      'an array of more than 1000',
      [JSON.stringify({ number: Array(1001).fill('x') })],
      'q[0].number: more than 1000 array elements (1001)',
    ],
    [
      'in of more than 1000',
      [JSON.stringify({ number: { in: Array(1001).fill('x') } })],
      'q[0].number.in: more than 1000 array elements (1001)',
    ],
    ['in without an array', ['{"state":{"in":"RELEASED"}}'], 'q[0].state.in: "RELEASED" is not an array'],
    ['a nested array', ['{"state":[["A"]]}'], 'q[0].state[0]: ["A"] is not a plain value'],
    [
      'between without two values',
      ['{"created":{"between":["2026-01-01"]}}'],
      'q[0].created.between: ["2026-01-01"] is not an array [low, high]',
    ],
    ['between with null', ['{"iteration":{"between":[1,null]}}'], 'q[0].iteration.between[1]: null is not an integer'],
    ['like on a number', ['{"iteration":{"like":"1*"}}'], 'q[0].iteration.like: only string keys take like'],
    ['like without a string', ['{"name":{"like":5}}'], 'q[0].name.like: 5 is not a string'],
    ['exists without a boolean', ['{"name":{"exists":"yes"}}'], 'q[0].name.exists: "yes" is not a boolean'],
    ['latest without a boolean', ['{"latest":"yes"}'], 'q[0].latest: "yes" is not a boolean'],
    [
      'an order comparison with a boolean',
      ['{"attributes.x":{"lt":true}}'],
      'q[0].attributes.x.lt: true cannot be compared by order',
    ],
    [
      'an attribute object value',
      ['{"attributes.x":{"eq":{"a":1}}}'],
      'q[0].attributes.x.eq: {"a":1} is not a string, number or boolean',
    ],
    ['an unknown sort key', ['{"sort":"colour"}'], 'q[0].sort: unknown sort key "colour"'],
    ['a sort key twice', ['{"sort":["name","-name"]}'], 'q[0].sort: sort key "name" given twice'],
    [
      'different sorts in OR-ed q',
      ['{"sort":"name"}', '{"sort":"-name"}'],
      'the OR-ed q objects have different sort values (name and -name)',
    ],
    ['more than 20 q', Array(21).fill('{}'), 'at most 20 q parameters may be combined (got 21)'],
  ])('refuses %s with 400', async (_, q, message) => {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q })
      .auth(...eve);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.message).toContain(message);
  });

  it('refuses a bad q in a JSON body the same way', async () => {
    const res = await request(t.http)
      .post('/query/1.0/query')
      .auth(...eve)
      .send({ q: [{ number: 'x' }, { iteration: 'two' }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('q[1].iteration: "two" is not an integer');
    const notJson = await request(t.http)
      .post('/query/1.0/query')
      .auth(...eve)
      .set('content-type', 'application/json')
      .send('{"q":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBe('request body is not valid JSON');
  });

  it('binds values, so SQL in a value is only text', async () => {
    expect(await run({ name: "x' OR '1'='1" })).toEqual([]);
    expect(await run({ "attributes.x' OR 1=1 --": 'y' })).toEqual([]);
    const count = await pool.query('SELECT count(*)::int AS n FROM masters');
    expect(count.rows[0].n).toBeGreaterThan(0);
  });
});
