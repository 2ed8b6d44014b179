import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { objectsFixture, type ObjectsFixture } from '../objects/objects-fixtures.js';

const NAME = `RCO${process.pid}`;
const DOC = 'wt.doc.WTDocument';

const col = (path: string, heading: string) => `<column alias="D" heading="${heading}">${path}</column>`;
const cond = (path: string, op: string, value: string) =>
  `<condition><operand>${col(path, path)}</operand><operator type="${op}"/><operand><constant>${value}</constant></operand></condition>`;

/** Iterations of one document: number, iteration, title and check-out state, by iteration. */
const iterationsQml = (number: string, ...conds: string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<qml><statement><query>
  <select>${col('master>number', 'Number')}${col('iterationInfo.identifier.iterationId', 'Iteration')}${col('title', 'Title')}${col('checkoutInfo.state', 'State')}</select>
  <from><table alias="D">wt.doc.WTDocument</table></from>
  <where><compositeCondition type="and">${cond('master>number', 'equal', number)}${conds.join('')}</compositeCondition></where>
  <orderBy><orderByItem><columnTarget heading="Iteration"/></orderByItem></orderBy>
</query></statement></qml>`;

/** Files of the test's own names, with the iteration holding them. */
const filesQml = `<?xml version="1.0" encoding="UTF-8"?>
<qml><statement><query>
  <select><column alias="F" heading="File">fileName</column>${col('iterationInfo.identifier.iterationId', 'Iteration')}</select>
  <from><table alias="D">wt.doc.WTDocument</table><table alias="F">wt.content.ApplicationData</table></from>
  <where><condition><operand><column alias="F">fileName</column></operand><operator type="like"/><operand><constant>${NAME}-%</constant></operand></condition></where>
  <linkJoin><join name="wt.content.HolderToContent"><aliasTarget alias="D"/><aliasTarget alias="F"/></join></linkJoin>
  <orderBy><orderByItem><columnTarget heading="File"/></orderByItem></orderBy>
</query></statement></qml>`;

/** The same files read from their table alone (no iteration table to filter). */
const filesAloneQml = (bypass: boolean) => `<?xml version="1.0" encoding="UTF-8"?>
<qml bypassAccessControl="${bypass}"><statement><query>
  <select><column alias="F" heading="File">fileName</column></select>
  <from><table alias="F">wt.content.ApplicationData</table></from>
  <where><condition><operand><column alias="F">fileName</column></operand><operator type="like"/><operand><constant>${NAME}-%</constant></operand></condition></where>
  <orderBy><orderByItem><columnTarget heading="File"/></orderByItem></orderBy>
</query></statement></qml>`;

/**
 * Reports while a document is checked out: alice holds a check-out of a document with two
 * checked-in iterations (A.1 "first", A.2 "second", which holds a file), her working copy A.3
 * "draft" has a file of its own. bob reads the container.
 */
describe('reports over checked-out objects', () => {
  let f: ObjectsFixture;
  let number: string;
  const run = async (user: keyof typeof USERS, qml: string) => {
    const res = await request(f.t.http)
      .post('/reports')
      .auth(USERS[user][0], USERS[user][1])
      .set('Content-Type', 'text/xml')
      .send(qml);
    return res;
  };

  beforeAll(async () => {
    f = await objectsFixture(NAME);
    const made = await f.create({ type: DOC, number: `${NAME}-1`, name: 'held', title: 'first' });
    number = made.number;
    const second = await f.as('alice').post(`/objects/${number}/iterations`, { title: 'second' });
    if (second.status !== 201) throw new Error(`iterate: ${second.status} ${JSON.stringify(second.body)}`);
    const file = await f.as('alice').post(`/files/${number}/${NAME}-kept.txt`, { data: 'a2VwdA==' });
    if (file.status !== 201) throw new Error(`upload: ${file.status} ${JSON.stringify(file.body)}`);
    const out = await f.as('alice').post(`/objects/${number}/checkout`);
    if (out.status !== 200) throw new Error(`checkout: ${out.status} ${JSON.stringify(out.body)}`);
    const draft = await f.as('alice').post(`/objects/${number}/iterations`, { title: 'draft' });
    if (draft.status !== 201 || draft.body.iteration !== 3) {
      throw new Error(`draft: ${draft.status} ${JSON.stringify(draft.body)}`);
    }
    const draftFile = await f.as('alice').post(`/files/${number}/${NAME}-draft.txt`, { data: 'ZHJhZnQ=' });
    if (draftFile.status !== 201) throw new Error(`upload: ${draftFile.status} ${JSON.stringify(draftFile.body)}`);
  });
  afterAll(() => f.close());

  it('lists exactly the checked-in iterations over every iteration, to bob and to alice who holds it', async () => {
    for (const user of ['bob', 'alice', 'admin'] as const) {
      const res = await run(user, iterationsQml(number));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 2,
        items: [
          [number, 1, 'first', 'c/i'],
          [number, 2, 'second', 'c/o'],
        ],
        _runtime: expect.any(Number),
      });
    }
  });

  it('gives the latest checked-in iteration as the latest, to everyone', async () => {
    for (const user of ['bob', 'alice'] as const) {
      const res = await run(user, iterationsQml(number, cond('iterationInfo.latest', 'equal', '1')));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: 1, items: [[number, 2, 'second', 'c/o']], _runtime: expect.any(Number) });
    }
  });

  it('gives the working copy to its holder where the template asks for it, and to nobody else', async () => {
    const wrk = iterationsQml(number, cond('checkoutInfo.state', 'equal', 'wrk'));
    const alice = await run('alice', wrk);
    expect(alice.status).toBe(200);
    expect(alice.body).toEqual({ count: 1, items: [[number, 3, 'draft', 'wrk']], _runtime: expect.any(Number) });
    for (const user of ['bob', 'admin'] as const) {
      const other = await run(user, wrk);
      expect(other.status).toBe(200);
      expect(other.body).toEqual({ count: 0, items: [], _runtime: expect.any(Number) });
    }
    // Excluding them, as templates written before did, gives the checked-in iterations.
    const without = await run('alice', iterationsQml(number, cond('checkoutInfo.state', 'notEqual', 'wrk')));
    expect(without.status).toBe(200);
    expect(without.body.items).toEqual([
      [number, 1, 'first', 'c/i'],
      [number, 2, 'second', 'c/o'],
    ]);
  });

  it('lists no file of the working copy, joined to its holder or read alone, and no copy of one it kept', async () => {
    for (const user of ['bob', 'alice'] as const) {
      const joined = await run(user, filesQml);
      expect(joined.status).toBe(200);
      expect(joined.body).toEqual({ count: 1, items: [[`${NAME}-kept.txt`, 2]], _runtime: expect.any(Number) });
      const alone = await run(user, filesAloneQml(false));
      expect(alone.status).toBe(200);
      expect(alone.body).toEqual({ count: 1, items: [[`${NAME}-kept.txt`]], _runtime: expect.any(Number) });
    }
    const admin = await run('admin', filesAloneQml(true));
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual({ count: 1, items: [[`${NAME}-kept.txt`]], _runtime: expect.any(Number) });
  });

  it('lists the checked-in working copy as an ordinary iteration once checked in', async () => {
    const d = await f.create({ type: DOC, number: `${NAME}-2`, name: 'later', title: 'first' });
    expect((await f.as('alice').post(`/objects/${d.number}/checkout`)).status).toBe(200);
    expect((await f.as('alice').post(`/objects/${d.number}/iterations`, { title: 'draft' })).status).toBe(201);
    const before = await run('bob', iterationsQml(d.number));
    expect(before.body.items).toEqual([[d.number, 1, 'first', 'c/o']]);
    const checkin = await f.as('alice').post(`/objects/${d.number}/checkin`, { message: 'done' });
    expect(checkin.status).toBe(200);
    const after = await run('bob', iterationsQml(d.number));
    expect(after.status).toBe(200);
    expect(after.body).toEqual({
      count: 2,
      items: [
        [d.number, 1, 'first', 'c/i'],
        [d.number, 2, 'draft', 'c/i'],
      ],
      _runtime: expect.any(Number),
    });
  });
});
