import request from 'supertest';
import type pg from 'pg';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createQueryFixture, type QueryFixture } from './query-fixture.js';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The calls clients of the original gateway make to its query service (docs/query.md, "Clients
 * of the original gateway"), in their shapes: the mobile client's JSON body, an ExtJS store's
 * open, page fetches and close, and the query in the URL with single quotes. Each checks what
 * those clients read.
 */
describe("clients of the original gateway's query service", () => {
  const t = useTestApp({ PUBLIC_URL: 'https://pdm.example.com' });
  let pool: pg.Pool;
  let fx: QueryFixture;
  let gus: [string, string];
  let tag: string;
  /** The 30 CAD documents, in number order. */
  let cad: { number: string; name: string; state: string }[];

  beforeAll(async () => {
    pool = testPool();
    fx = await createQueryFixture(pool, ['gus'], { CAD: { gus: 'reader' } });
    gus = fx.user('gus');
    tag = fx.tag;
    cad = Array.from({ length: 30 }, (_, i) => ({
      number: `${tag}-E${pad(i + 1)}`,
      name: `${tag}-01${pad(i + 1)}.prt`,
      state: i % 2 ? 'RELEASED' : 'INWORK',
    }));
    await fx.addObjects(
      'CAD',
      cad.map((c) => ({ ...c, cls: 'wt.epm.EPMDocument', subtype: 'CADCOMPONENT' })),
    );
    await fx.addObjects('CAD', [
      {
        cls: 'wt.part.WTPart',
        number: `${tag}-P1`,
        name: 'Bracket',
        latest: false,
        attributes: { material: 'AlSi10Mg' },
      },
      { cls: 'wt.part.WTPart', number: `${tag}-P1`, name: 'Bracket', iteration: 2, attributes: { material: 'S235' } },
    ]);
  });
  afterAll(async () => {
    await fx.cleanup();
    await pool.end();
  });

  const container = () => `${tag} CAD`;
  const names = (body: { items: { name?: string; number?: string }[] }) => body.items.map((i) => i.number);

  describe('the mobile client', () => {
    it('opens with qq, fields, associations, limit, start and pos in a JSON body, and reads its fields', async () => {
      const res = await request(t.http)
        .post('/query/1.0/query')
        .auth(...gus)
        .set('Content-Type', 'application/json')
        .send({
          qq: [{ name: `${tag}-01*.prt` }],
          fields: ['name', 'number', 'CADName', 'state', 'location', 'containerName'],
          associations: ['representations'],
          limit: 100,
          start: 0,
          pos: 0,
        });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        session: 0,
        session_id: 0,
        total: 30,
        total_count: 30,
        count: 30,
        query: [{ name: `${tag}-01*.prt`, latest: true }],
        _runtime: expect.any(Number),
      });
      expect(res.body.items).toHaveLength(30);
      const first = res.body.items[0];
      expect(first).toEqual({
        oid: expect.stringMatching(/^OR:wt\.epm\.EPMDocument:\d+$/),
        name: cad[0].name,
        number: cad[0].number,
        CADName: cad[0].name,
        state: 'INWORK',
        location: `/${container()}`,
        containerName: container(),
        representations: [],
      });
      // The keys in the order asked, then the associations.
      expect(Object.keys(first)).toEqual([
        'oid',
        'name',
        'number',
        'CADName',
        'state',
        'location',
        'containerName',
        'representations',
      ]);
      expect(res.body.items.map((i: { state: string }) => i.state)).toEqual(cad.map((c) => c.state));
    });
  });

  describe('an ExtJS store', () => {
    it('opens with ?limit=25 and the query as the body, pages with page, start, limit and _dc, and closes', async () => {
      const open = await request(t.http)
        .post('/query/1.0/query?limit=25')
        .auth(...gus)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ qq: [{ name: `${tag}-01*.prt`, config_spec: 'latest' }] }));
      expect(open.status).toBe(200);
      expect(open.body).toMatchObject({ success: true, total_count: 30, total: 30, count: 25, page: 0, start: 0 });
      const session = open.body.session as number;
      expect(session).toBeGreaterThan(0);
      expect(open.body.session_id).toBe(session);
      expect(names(open.body)).toEqual(cad.slice(0, 25).map((c) => c.number));
      // Without fields, the item is this service's.
      expect(open.body.items[0]).toMatchObject({ number: cad[0].number, type: 'wt.epm.EPMDocument', state: 'INWORK' });

      // ExtJS page 2 of 25: page zero-based, start its offset.
      const second = await request(t.http)
        .get(`/query/1.0/query/${session}?_dc=1764245000000&page=1&start=25&limit=25`)
        .auth(...gus);
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        success: true,
        session,
        session_id: session,
        total_count: 30,
        page: 1,
        start: 25,
        limit: 25,
        count: 5,
      });
      expect(names(second.body)).toEqual(cad.slice(25).map((c) => c.number));

      // Remote sorting and filtering parameters are ignored, not refused.
      const sorted = await request(t.http)
        .get(`/query/1.0/query/${session}`)
        .query({
          _dc: '1764245000001',
          page: 0,
          start: 0,
          limit: 25,
          sort: '[{"property":"name","direction":"DESC"}]',
          dir: 'DESC',
          filter: '[{"property":"name","value":"x"}]',
          group: 'state',
        })
        .auth(...gus);
      expect(sorted.status).toBe(200);
      expect(names(sorted.body)).toEqual(cad.slice(0, 25).map((c) => c.number));
      // Another unknown parameter is still refused.
      const unknown = await request(t.http)
        .get(`/query/1.0/query/${session}?colour=red`)
        .auth(...gus);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ statusCode: 400, message: expect.stringContaining('colour') });

      const close = await request(t.http)
        .delete(`/query/1.0/query/${session}`)
        .auth(...gus);
      expect(close.status).toBe(200);
      expect(close.body).toEqual({ success: true, session_id: session, session });
      const gone = await request(t.http)
        .get(`/query/1.0/query/${session}?page=0&start=0&limit=25`)
        .auth(...gus);
      expect(gone.status).toBe(410);
    });

    it('reads page and start as ExtJS sends them, and keeps start + page × limit for any other pair', async () => {
      const open = await request(t.http)
        .post('/query/1.0/query?limit=10')
        .auth(...gus)
        .send({ qq: [{ name: `${tag}-01*.prt` }] });
      const session = open.body.session as number;
      const slice = (from: number, to: number) => cad.slice(from, to).map((c) => c.number);
      const page = async (query: string) => {
        const res = await request(t.http)
          .get(`/query/1.0/query/${session}?${query}`)
          .auth(...gus);
        expect(res.status).toBe(200);
        return names(res.body);
      };
      expect(await page('page=1&start=10&limit=10')).toEqual(slice(10, 20));
      expect(await page('page=2&start=20&limit=10')).toEqual(slice(20, 30));
      expect(await page('page=1&limit=10')).toEqual(slice(10, 20));
      expect(await page('start=10&limit=10')).toEqual(slice(10, 20));
      expect(await page('page=1&start=5&limit=10')).toEqual(slice(15, 25));
      expect(await page('page=0&start=5&limit=10')).toEqual(slice(5, 15));
      // On open too: the ExtJS pair is its second page.
      const opened = await request(t.http)
        .get('/query/1.0/query')
        .query({ q: `{'name':'${tag}-01*.prt'}`, page: 1, start: 10, limit: 10 })
        .auth(...gus);
      expect(names(opened.body)).toEqual(slice(10, 20));
      for (const id of [session, opened.body.session]) {
        await request(t.http)
          .delete(`/query/1.0/query/${id}`)
          .auth(...gus);
      }
    });

    it('keeps the fields and associations of the open for the page fetches, which name neither', async () => {
      const open = await request(t.http)
        .post('/query/1.0/query?limit=25')
        .auth(...gus)
        .send({
          qq: [{ name: `${tag}-01*.prt` }],
          fields: ['number', 'CADName', 'state', 'location', 'containerName'],
          associations: ['representations', 'files'],
        });
      expect(open.status).toBe(200);
      const session = open.body.session as number;
      expect(session).toBeGreaterThan(0);
      const page = await request(t.http)
        .get(`/query/1.0/query/${session}?_dc=1&page=1&start=25&limit=25`)
        .auth(...gus);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ success: true, session, total_count: 30, count: 5 });
      expect(page.body.items[4]).toEqual({
        oid: expect.stringMatching(/^OR:wt\.epm\.EPMDocument:\d+$/),
        number: cad[29].number,
        CADName: cad[29].name,
        state: cad[29].state,
        location: `/${container()}`,
        containerName: container(),
        representations: [],
        files: [],
      });
      // close=1 answers the same shape.
      const last = await request(t.http)
        .get(`/query/1.0/query/${session}?page=0&limit=1&close=1`)
        .auth(...gus);
      expect(last.status).toBe(200);
      expect(Object.keys(last.body.items[0])).toEqual([
        'oid',
        'number',
        'CADName',
        'state',
        'location',
        'containerName',
        'representations',
        'files',
      ]);
    });
  });

  describe('the query in the URL', () => {
    it('takes single-quoted q, repeated, with assoc and field repeated', async () => {
      const url =
        `/query/1.0/query?q={'name':'${tag}-0101.prt'}&q={'number':'${tag}-P1','config_spec':'latest'}` +
        '&assoc=files&assoc=ibas&field=number&field=CADName&field=attributes.material';
      const res = await request(t.http)
        .get(url)
        .auth(...gus);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        session: 0,
        count: 2,
        total_count: 2,
        query: [
          { name: `${tag}-0101.prt`, latest: true },
          { number: `${tag}-P1`, latest: true },
        ],
      });
      expect(res.body.items).toEqual([
        {
          oid: expect.stringMatching(/^OR:wt\.epm\.EPMDocument:\d+$/),
          number: cad[0].number,
          CADName: cad[0].name,
          'attributes.material': null,
          files: [],
          ibas: [],
        },
        {
          oid: expect.stringMatching(/^OR:wt\.part\.WTPart:\d+$/),
          number: `${tag}-P1`,
          // A part has no CAD name.
          CADName: null,
          'attributes.material': 'S235',
          files: [],
          // The latest iteration's custom attributes.
          ibas: [{ name: 'material', value: 'S235' }],
        },
      ]);
    });

    it('takes the original keys in any case, and latest_iteration', async () => {
      const res = await request(t.http)
        .get('/query/1.0/query')
        .query({ q: `{'NUMBER':'${tag}-P1','Latest_Iteration':'no'}`, field: 'versionDisplayIdentifier' })
        .auth(...gus);
      expect(res.status).toBe(200);
      expect(res.body.query).toEqual([{ number: `${tag}-P1`, latest: false }]);
      expect(res.body.items.map((i: Record<string, unknown>) => i.versionDisplayIdentifier)).toEqual(['A', 'A']);
    });

    it.each<[string, Record<string, string | string[]>, string]>([
      [
        'q that is neither JSON nor single-quoted JSON',
        { q: "{'name':'x'" },
        `q[0]: not JSON: "{'name':'x'": "," or "}" expected at position 11`,
      ],
      [
        'a config spec other than latest',
        { q: "{'name':'x','config_spec':'baseline|B1'}" },
        'q[0].config_spec: config spec "baseline|B1" is not supported (supported: latest)',
      ],
      [
        'unknown fields',
        { q: "{'name':'x'}", field: ['number', 'colour', 'size'] },
        'unknown fields "colour", "size": a field is a property',
      ],
      [
        'an unknown association',
        { q: "{'name':'x'}", assoc: ['files', 'vault_info'] },
        'unknown association "vault_info" (known: files, ibas, representations, uses, usedBy, describedBy)',
      ],
    ])('refuses %s with 400 naming it', async (_what, query, message) => {
      const res = await request(t.http)
        .get('/query/1.0/query')
        .query(query)
        .auth(...gus);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.body.message).toContain(message);
    });
  });
});
