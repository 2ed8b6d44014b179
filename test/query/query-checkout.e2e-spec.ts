import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { objectsFixture, type ObjectBody, type ObjectsFixture } from '../objects/objects-fixtures.js';

const NAME = `QCO${process.pid}`;

/**
 * `q` while a part is checked out: alice holds part P (A.1 checked in, described by document D1),
 * and on her working copy she links document D2 too. Neither she nor bob finds the working copy
 * or its draft link.
 */
describe('q over a checked-out object', () => {
  let f: ObjectsFixture;
  let part: ObjectBody;
  let d1: ObjectBody;
  let working: ObjectBody;

  beforeAll(async () => {
    f = await objectsFixture(NAME);
    part = await f.create({ type: 'wt.part.WTPart', number: `${NAME}-P`, name: 'part' });
    d1 = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-D1`, name: 'doc 1' });
    const d2 = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-D2`, name: 'doc 2' });
    const kept = await f.as('alice').post('/objects/links', {
      class: 'wt.part.WTPartDescribeLink',
      a: part.number,
      b: d1.number,
    });
    if (kept.status !== 201) throw new Error(`link: ${kept.status} ${JSON.stringify(kept.body)}`);
    const out = await f.as('alice').post(`/objects/${part.number}/checkout`);
    if (out.status !== 200) throw new Error(`checkout: ${out.status} ${JSON.stringify(out.body)}`);
    working = out.body as ObjectBody;
    const draft = await f.as('alice').post('/objects/links', {
      class: 'wt.part.WTPartDescribeLink',
      a: working.oid,
      b: d2.number,
    });
    if (draft.status !== 201) throw new Error(`draft link: ${draft.status} ${JSON.stringify(draft.body)}`);
  });
  afterAll(() => f.close());

  const query = (user: 'alice' | 'bob', q: object) =>
    request(f.t.http)
      .get('/query/1.0/query')
      .query({ q: JSON.stringify({ number: part.number, ...q }), associations: 'describedBy' })
      .auth(USERS[user][0], USERS[user][1]);

  it('finds the checked-in iteration, described by the documents linked to checked-in iterations only', async () => {
    for (const user of ['alice', 'bob'] as const) {
      for (const latest of [true, false]) {
        const res = await query(user, { latest });
        expect(res.status).toBe(200);
        expect(res.body.total).toBe(1);
        expect(
          res.body.items.map((i: { number: string; iteration: number; describedBy: { number: string }[] }) => [
            i.number,
            i.iteration,
            i.describedBy.map((d) => d.number),
          ]),
        ).toEqual([[part.number, 1, [d1.number]]]);
      }
    }
  });
});
