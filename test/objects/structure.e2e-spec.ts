import type pg from 'pg';
import request from 'supertest';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';

/**
 * A structure of its own, stored beside the demo data and removed afterwards:
 *   ST-ROOT (Drive Unit)        uses ST-BOLT (line 10, 4 ea) and ST-SUB (line 20, 2 ea)
 *   ST-SUB  (Drive Unit) A.2    uses ST-BOLT (line 10, 8 ea), ST-SECRET (line 20), ST-ROOT (line 30: a cycle)
 *   ST-SUB               A.1    (not latest) uses ST-OLD
 *   ST-SECRET (Secret Project)  uses ST-HIDDEN (Drive Unit)
 *   ST-BOLT (Standard Parts), ST-OLD, ST-HIDDEN: no uses
 * ST-DUP is both a part and a document.
 */
describe('GET /objects/<ref>/structure and /where-used', () => {
  let t: TestApp;
  let db: pg.Pool;
  const iter: Record<string, number> = {};
  const link: Record<string, number> = {};

  async function object(number: string, container: string, cls = 'wt.part.WTPart', versions = 1): Promise<number> {
    const m = await db.query<{ id: number }>(
      `INSERT INTO masters (class, number, name, container_id)
       SELECT $1, $2, $3, id FROM containers WHERE name = $4 RETURNING id`,
      [cls, number, `${number} name`, container],
    );
    let id = 0;
    for (let i = 1; i <= versions; i++) {
      const r = await db.query<{ id: number }>(
        `INSERT INTO iterations (master_id, version, iteration, latest, state, created_by, modified_by)
         SELECT $1, 'A', $2, $3, 'INWORK', id, id FROM users WHERE name = 'alice' RETURNING id`,
        [m.rows[0].id, i, i === versions],
      );
      id = r.rows[0].id;
      iter[`${number}.${i}`] = id;
    }
    iter[number] = id;
    return m.rows[0].id;
  }

  async function uses(parent: string, child: string, line: number | null, quantity = 1): Promise<void> {
    const r = await db.query<{ id: number }>(
      `INSERT INTO usage_links (class, parent_id, child_id, quantity, unit, line_number)
       SELECT 'wt.part.WTPartUsageLink', $1, master_id, $3, 'ea', $4 FROM iterations WHERE id = $2 RETURNING id`,
      [iter[parent], iter[child], quantity, line],
    );
    link[`${parent}>${child}`] = r.rows[0].id;
  }

  beforeAll(async () => {
    db = testPool();
    await object('ST-ROOT', 'Drive Unit');
    await object('ST-SUB', 'Drive Unit', 'wt.part.WTPart', 2);
    await object('ST-SECRET', 'Secret Project');
    await object('ST-BOLT', 'Standard Parts');
    await object('ST-OLD', 'Drive Unit');
    await object('ST-HIDDEN', 'Drive Unit');
    await object('ST-DUP', 'Drive Unit');
    await object('ST-DUP', 'Drive Unit', 'wt.doc.WTDocument');
    await uses('ST-ROOT', 'ST-SUB', 20, 2);
    await uses('ST-ROOT', 'ST-BOLT', 10, 4);
    await uses('ST-SUB', 'ST-BOLT', 10, 8);
    await uses('ST-SUB', 'ST-SECRET', 20);
    await uses('ST-SUB', 'ST-ROOT', 30);
    await uses('ST-SUB.1', 'ST-OLD', 10);
    await uses('ST-SECRET', 'ST-HIDDEN', null);
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
    await db.query(`DELETE FROM masters WHERE number LIKE 'ST-%'`);
    await db.end();
  });

  const get = (path: string, who: readonly [string, string] = USERS.alice) =>
    request(t.http).get(path).auth(who[0], who[1]);

  /** Number, line number and marks of each node, nested: what a structure says, in order. */
  type Node = {
    number: string | null;
    link?: { lineNumber: number | null };
    children: Node[];
    restricted?: true;
    cycle?: true;
  };
  const shape = (n: Node): unknown => [
    n.number ?? 'restricted',
    n.link?.lineNumber ?? null,
    ...(n.cycle ? ['cycle'] : []),
    n.children.map(shape),
  ];

  it('answers one level by default, with the links and each child by its latest iteration', async () => {
    const res = await get('/objects/ST-ROOT/structure');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ levels: 1, nodes: 3, nodeLimit: 10000, truncated: false });
    expect(res.body.root).toEqual({
      level: 0,
      oid: `OR:wt.part.WTPart:${iter['ST-ROOT']}`,
      number: 'ST-ROOT',
      name: 'ST-ROOT name',
      class: 'wt.part.WTPart',
      subtype: null,
      version: 'A',
      iteration: 1,
      state: 'INWORK',
      children: [
        expect.objectContaining({
          level: 1,
          number: 'ST-BOLT',
          link: {
            oid: `OR:wt.part.WTPartUsageLink:${link['ST-ROOT>ST-BOLT']}`,
            quantity: 4,
            unit: 'ea',
            lineNumber: 10,
          },
          children: [],
        }),
        expect.objectContaining({
          level: 1,
          number: 'ST-SUB',
          oid: `OR:wt.part.WTPart:${iter['ST-SUB.2']}`,
          iteration: 2,
          link: expect.objectContaining({ quantity: 2, lineNumber: 20 }),
          children: [],
        }),
      ],
    });
  });

  it('follows every level with levels=max: restricted objects are shown without details, cycles are not followed', async () => {
    const res = await get('/objects/ST-ROOT/structure?levels=max');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ levels: 100, nodes: 6, truncated: false });
    expect(shape(res.body.root)).toEqual([
      'ST-ROOT',
      null,
      [
        ['ST-BOLT', 10, []],
        [
          'ST-SUB',
          20,
          [
            ['ST-BOLT', 10, []],
            ['restricted', 20, []],
            ['ST-ROOT', 30, 'cycle', []],
          ],
        ],
      ],
    ]);
    const secret = res.body.root.children[1].children[1];
    expect(secret).toEqual({
      level: 2,
      link: expect.objectContaining({ oid: `OR:wt.part.WTPartUsageLink:${link['ST-SUB>ST-SECRET']}` }),
      oid: null,
      number: null,
      name: null,
      class: null,
      subtype: null,
      version: null,
      iteration: null,
      state: null,
      restricted: true,
      children: [],
    });
  });

  it('shows what the caller may read: carol reads the secret object and what it uses', async () => {
    const res = await get(`/objects/OR:wt.part.WTPart:${iter['ST-SECRET']}/structure`, USERS.carol);
    expect(res.status).toBe(200);
    expect(shape(res.body.root)).toEqual(['ST-SECRET', null, [['restricted', null, []]]]);
    const admin = await get('/objects/ST-SECRET/structure', USERS.admin);
    expect(admin.status).toBe(200);
    expect(shape(admin.body.root)).toEqual(['ST-SECRET', null, [['ST-HIDDEN', null, []]]]);
  });

  it('reads the structure of the iteration an OID names', async () => {
    const res = await get(`/objects/OR:wt.part.WTPart:${iter['ST-SUB.1']}/structure`);
    expect(res.status).toBe(200);
    expect(res.body.root).toMatchObject({ iteration: 1, number: 'ST-SUB' });
    expect(shape(res.body.root)).toEqual(['ST-SUB', null, [['ST-OLD', 10, []]]]);
  });

  it('lists the objects using an object, level by level', async () => {
    const res = await get('/objects/ST-BOLT/where-used?levels=max');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ levels: 100, nodes: 7, truncated: false });
    expect(shape(res.body.root)).toEqual([
      'ST-BOLT',
      null,
      [
        ['ST-ROOT', 10, [['ST-SUB', 30, [['ST-ROOT', 20, 'cycle', []]]]]],
        ['ST-SUB', 10, [['ST-ROOT', 20, [['ST-SUB', 30, 'cycle', []]]]]],
      ],
    ]);
  });

  it('where-used shows users in unreadable containers as restricted, and the old iteration does not count', async () => {
    const res = await get('/objects/ST-HIDDEN/where-used?levels=2');
    expect(res.status).toBe(200);
    expect(shape(res.body.root)).toEqual(['ST-HIDDEN', null, [['restricted', null, []]]]);
    const old = await get('/objects/ST-OLD/where-used');
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ nodes: 1, root: { number: 'ST-OLD', children: [] } });
  });

  it('fills levels from the top up to OBJECTS_STRUCTURE_MAX_NODES and says so', async () => {
    const small = await createTestApp({ OBJECTS_STRUCTURE_MAX_NODES: '4' });
    try {
      const res = await request(small.http)
        .get('/objects/ST-ROOT/structure?levels=max')
        .auth(...USERS.alice);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ nodes: 4, nodeLimit: 4, truncated: true });
      expect(res.body.root.children.map((c: Node) => c.number)).toEqual(['ST-BOLT', 'ST-SUB']);
      expect(res.body.root.children[1].children).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  it.each([
    ['/objects/ST-ROOT/structure?levels=0', 'levels must be 1 to 100 or max, not "0"'],
    ['/objects/ST-ROOT/structure?levels=101', 'levels must be 1 to 100 or max, not "101"'],
    ['/objects/ST-ROOT/where-used?levels=all', 'levels must be 1 to 100 or max, not "all"'],
    ['/objects/ST-ROOT/structure?levels=1&levels=2', 'levels must be given at most once'],
    [
      '/objects/OR:wt.org.WTUser:1/structure',
      'business objects are those of wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart, not of wt.org.WTUser',
    ],
    ['/objects/OR:wt.part.WTPart:x/structure', '"OR:wt.part.WTPart:x" is not an OID (OR:<class>:<id>)'],
    [
      '/objects/ST-ROOT/structure?type=wt.Foo',
      'type must be one of wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart, not "wt.Foo"',
    ],
    [
      '/objects/ST-DUP/structure',
      'several objects carry the number "ST-DUP" (wt.doc.WTDocument, wt.part.WTPart): give type',
    ],
  ])('answers 400 to %s', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(JSON.stringify(res.body.message)).toContain(message.replace(/"/g, '\\"'));
  });

  it('picks the class a number names with type', async () => {
    const res = await get('/objects/ST-DUP/structure?type=wt.doc.WTDocument');
    expect(res.status).toBe(200);
    expect(res.body.root).toMatchObject({ class: 'wt.doc.WTDocument', number: 'ST-DUP', children: [] });
  });

  it('answers objects the caller cannot read like missing ones, and needs credentials', async () => {
    for (const path of ['/objects/ST-ROOT/structure', '/objects/NO-SUCH/where-used']) {
      const res = await get(path, USERS.carol);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, message: `no object "${path.split('/')[2]}"` });
    }
    const anonymous = await request(t.http).get('/objects/ST-ROOT/structure');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ statusCode: 401 });
  });
});
