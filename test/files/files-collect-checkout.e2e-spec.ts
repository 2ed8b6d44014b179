import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { objectsFixture, type ObjectBody, type ObjectsFixture } from '../objects/objects-fixtures.js';
import { binaryParser } from './files-fixtures.js';
import { unzip } from './zip-fixtures.js';

const NAME = `FCO${process.pid}`;
const DESCRIBE = 'wt.part.WTPartDescribeLink';

/**
 * A collection of a checked-out part's documents: alice holds part P (A.1 described by D1); on
 * her working copy A.2 she links D2. The checked-in part leads to D1 alone, for her too; her
 * working copy, by its OID, to both.
 */
describe('POST /files/collect over a checked-out part', () => {
  let f: ObjectsFixture;
  let part: ObjectBody;
  let working: ObjectBody;
  let d1: ObjectBody;
  let d2: ObjectBody;

  beforeAll(async () => {
    f = await objectsFixture(NAME);
    part = await f.create({ type: 'wt.part.WTPart', number: `${NAME}-P`, name: 'part' });
    d1 = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-D1`, name: 'doc 1' });
    d2 = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-D2`, name: 'doc 2' });
    const kept = await f.as('alice').post('/objects/links', { class: DESCRIBE, a: part.number, b: d1.number });
    if (kept.status !== 201) throw new Error(`link: ${kept.status} ${JSON.stringify(kept.body)}`);
    const out = await f.as('alice').post(`/objects/${part.number}/checkout`);
    if (out.status !== 200) throw new Error(`checkout: ${out.status} ${JSON.stringify(out.body)}`);
    working = out.body as ObjectBody;
    const draft = await f.as('alice').post('/objects/links', { class: DESCRIBE, a: working.oid, b: d2.number });
    if (draft.status !== 201) throw new Error(`draft link: ${draft.status} ${JSON.stringify(draft.body)}`);
  });
  afterAll(() => f.close());

  /** The objects of a collection's manifest: number, version.iteration, via. */
  const collected = async (user: 'alice' | 'bob', root: string) => {
    const res = await request(f.t.http)
      .post('/files/collect')
      .auth(USERS[user][0], USERS[user][1])
      .send({ root, follow: ['documents'] })
      .buffer(true)
      .parse(binaryParser);
    expect(res.status).toBe(200);
    const manifest = JSON.parse((await unzip(res.body as Buffer)).get('manifest.json')!.toString()) as {
      objects: { number: string; version: string; via: string | null }[];
    };
    return manifest.objects.map((o) => [o.number, o.version, o.via]);
  };

  it('follows no link of the working copy from the checked-in part, for anyone', async () => {
    for (const user of ['alice', 'bob'] as const) {
      expect(await collected(user, part.number)).toEqual([
        [part.number, 'A.1', null],
        [d1.number, 'A.1', 'documents'],
      ]);
    }
  });

  it("follows the working copy's own links from it, for its holder", async () => {
    expect(await collected('alice', working.oid)).toEqual([
      [part.number, 'A.2', null],
      [d1.number, 'A.1', 'documents'],
      [d2.number, 'A.1', 'documents'],
    ]);
  });
});
