import { objectsFixture, type ObjectsFixture } from '../objects/objects-fixtures.js';

const NAME = `OA${process.pid}`;

interface Pointer {
  oid: string;
  name: string;
  number: string;
  url: string;
}

const numbers = (body: { items: Pointer[] }) => body.items.map((i) => i.number);
const oids = (body: { items: Pointer[] }) => body.items.map((i) => i.oid);

/** api/1.0 lists on objects of the file's own containers: filters, paging, iterations, rights, bad parameters. */
describe('api/1.0 lists and items', () => {
  let f: ObjectsFixture;
  const P = (n: number) => `${NAME}-P${n}`;
  const D = (n: number) => `${NAME}-D${n}`;

  beforeAll(async () => {
    f = await objectsFixture(NAME);
    await f.create({ type: 'wt.part.WTPart', number: P(1), name: `${NAME} bolt 1` });
    await f.create({ type: 'wt.part.WTPart', number: P(2), name: `${NAME} bolt 2` });
    await f.create({ type: 'com.acme.SoftwarePart', number: P(3), name: `${NAME} firmware` });
    await f.create({ type: 'wt.part.WTPart', number: P(4), name: `${NAME} nut 10` }, 'carol');
    await f.create({ type: 'wt.doc.WTDocument', number: D(1), name: `${NAME} public doc` });
    await f.create(
      { type: 'wt.doc.WTDocument', number: D(2), name: `${NAME} secret doc`, container: f.secret.name },
      'carol',
    );
    for (const state of ['UNDERREVIEW', 'RELEASED']) {
      const res = await f.as('alice').post(`/objects/${P(2)}/state`, { state });
      if (res.status !== 200) throw new Error(`state ${state}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const b = await f.as('alice').post(`/objects/${P(2)}/revisions`, {});
    if (b.status !== 201) throw new Error(`revision: ${b.status} ${JSON.stringify(b.body)}`);
  });
  afterAll(() => f.close());

  it('filters by number and name wildcards, subclasses and soft types included, in number order', async () => {
    const all = await f.as('bob').get(`/api/1.0/parts?number=${NAME}-P*`);
    expect([all.status, all.body.count, numbers(all.body)]).toEqual([200, 4, [P(1), P(2), P(3), P(4)]]);
    const bolts = await f.as('bob').get(`/api/1.0/parts?name=${encodeURIComponent(`${NAME} bolt ?`)}`);
    expect([bolts.status, numbers(bolts.body)]).toEqual([200, [P(1), P(2)]]);
    const one = await f.as('bob').get(`/api/1.0/parts?name=${encodeURIComponent(`${NAME} bolt ?`)}&number=*2`);
    expect([one.status, numbers(one.body)]).toEqual([200, [P(2)]]);
    // `?` is one character: "nut 10" has two after "nut ".
    const nut = await f.as('bob').get(`/api/1.0/parts?name=${encodeURIComponent(`${NAME} nut ?`)}`);
    expect([nut.status, nut.body.items]).toEqual([200, []]);
    // Other resources do not list parts.
    const docs = await f.as('bob').get(`/api/1.0/documents?number=${NAME}-*`);
    expect([docs.status, numbers(docs.body)]).toEqual([200, [D(1)]]);
  });

  it('pages with limit and start', async () => {
    const q = `/api/1.0/parts?number=${NAME}-P*`;
    const first = await f.as('bob').get(`${q}&limit=2`);
    const second = await f.as('bob').get(`${q}&limit=2&start=2`);
    const past = await f.as('bob').get(`${q}&limit=2&start=4`);
    expect([first.status, numbers(first.body), second.status, numbers(second.body)]).toEqual([
      200,
      [P(1), P(2)],
      200,
      [P(3), P(4)],
    ]);
    expect([past.status, past.body.count, past.body.items]).toEqual([200, 0, []]);
  });

  it('filters by state, creator and modifier, and chooses iterations', async () => {
    const q = `/api/1.0/parts?number=${NAME}-P*`;
    const inwork = await f.as('bob').get(`${q}&state=INWORK`);
    // P2 is at B.1, in work again.
    expect([inwork.status, numbers(inwork.body)]).toEqual([200, [P(1), P(2), P(3), P(4)]]);
    const released = await f.as('bob').get(`${q}&state=RELEASED`);
    expect([released.status, released.body.items]).toEqual([200, []]);
    const byCarol = await f.as('bob').get(`${q}&creator=carol`);
    expect([byCarol.status, numbers(byCarol.body)]).toEqual([200, [P(4)]]);
    const modified = await f.as('bob').get(`${q}&modifier=carol`);
    expect([modified.status, numbers(modified.body)]).toEqual([200, [P(4)]]);
    const nobody = await f.as('bob').get(`${q}&creator=nobody-${NAME}`);
    expect([nobody.status, nobody.body.items]).toEqual([200, []]);

    // Every iteration: P2 has A.1 (in work, under review, released: one iteration) and B.1.
    const every = await f.as('bob').get(`/api/1.0/parts?number=${P(2)}&latest_iteration=no`);
    expect([every.status, every.body.count]).toEqual([200, 2]);
    const versions = await Promise.all(
      (every.body.items as Pointer[]).map(async (p) => (await f.as('bob').get(new URL(p.url).pathname)).body.item),
    );
    expect(versions.map((i) => [i.version, i.state, i.isLatestIteration])).toEqual([
      ['A.1', 'RELEASED', false],
      ['B.1', 'INWORK', true],
    ]);
    const latestReleased = await f.as('bob').get(`${q}&latest_released=yes`);
    expect([latestReleased.status, oids(latestReleased.body)]).toEqual([200, [every.body.items[0].oid]]);
    const releasedState = await f.as('bob').get(`${q}&latest_iteration=0&state=RELEASED`);
    expect([releasedState.status, oids(releasedState.body)]).toEqual([200, [every.body.items[0].oid]]);
  });

  it('shows objects of containers the caller may read only', async () => {
    const q = `/api/1.0/documents?number=${NAME}-D*`;
    const bob = await f.as('bob').get(q);
    const carol = await f.as('carol').get(q);
    const admin = await f.as('admin').get(q);
    expect([bob.status, numbers(bob.body)]).toEqual([200, [D(1)]]);
    expect([carol.status, numbers(carol.body)]).toEqual([200, [D(1), D(2)]]);
    expect([admin.status, numbers(admin.body)]).toEqual([200, [D(1), D(2)]]);
    const secret = (carol.body.items as Pointer[])[1];
    const hidden = await f.as('bob').get(`/api/1.0/documents/${secret.oid}`);
    expect([hidden.status, hidden.body.statusCode, hidden.body.message]).toEqual([
      404,
      404,
      `no object "${secret.oid}"`,
    ]);
    const byNumber = await f.as('bob').get(`/api/1.0/documents/${D(2)}`);
    expect([byNumber.status, byNumber.body.message]).toEqual([404, `no object "${D(2)}"`]);
    const read = await f.as('carol').get(`/api/1.0/documents/${secret.oid}`);
    expect([read.status, read.body.item.location, read.body.item.creator.name]).toEqual([
      200,
      `/${NAME} Secret`,
      'carol',
    ]);
  });

  it.each([
    ['limit=0', 'limit must be at least 1'],
    ['limit=1001', 'limit must be at most 1000'],
    ['limit=ten', 'limit must be a whole number'],
    ['limit=1.5', 'limit must be a whole number'],
    ['start=-1', 'start must be at least 0'],
    ['latest_iteration=maybe', 'latest_iteration must be yes, no, true, false, on, off, 1 or 0'],
    ['latest_released=2', 'latest_released must be yes, no, true, false, on, off, 1 or 0'],
    ['name=a&name=b', 'name must be given at most once'],
    ['type=wt.part.WTPart', 'property type should not exist'],
    [`number=${'x'.repeat(201)}`, 'number must be shorter than or equal to 200 characters'],
  ])('answers 400 for %s', async (params, message) => {
    const res = await f.as('bob').get(`/api/1.0/parts?${params}`);
    expect([res.status, res.body.error]).toEqual([400, 'Bad Request']);
    expect(res.body.message).toContain(message);
  });

  it.each([
    ['/api/1.0/parts/OR:wt.part.WTPart:x', 400, '"OR:wt.part.WTPart:x" is not an OID (OR:<class>:<id>)'],
    [
      '/api/1.0/parts/VR:wt.part.WTPart:',
      400,
      '"VR:wt.part.WTPart:" is not a version reference (VR:<class>:<branch id>)',
    ],
    [
      '/api/1.0/parts/OR:wt.doc.WTDocument:1',
      400,
      'parts are objects of wt.part.WTPart and the classes below it, not of wt.doc.WTDocument',
    ],
    [
      '/api/1.0/epmdocuments/OR:wt.org.WTUser:1',
      400,
      'epmdocuments are objects of wt.epm.EPMDocument and the classes below it, not of wt.org.WTUser',
    ],
    ['/api/1.0/parts/OR:wt.part.WTPart:2147483647', 404, 'no object "OR:wt.part.WTPart:2147483647"'],
    [`/api/1.0/documents/${NAME}-P1`, 404, `no object "${NAME}-P1"`],
    ['/api/1.0/users/limit=x', 404, 'no user "limit=x"'],
    ['/api/1.0/users?limit=0', 400, 'limit must be at least 1'],
  ])('answers %s with %i', async (path, status, message) => {
    const res = await f.as('bob').get(path);
    expect([res.status, res.body]).toEqual([
      status,
      {
        statusCode: status,
        error: status === 400 ? 'Bad Request' : 'Not Found',
        message,
        requestId: expect.any(String),
      },
    ]);
  });
});
