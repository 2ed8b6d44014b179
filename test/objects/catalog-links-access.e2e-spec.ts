import { lastEventId, eventsSince } from '../audit/audit-fixtures.js';
import { objectsFixture, type ObjectsFixture, type User } from './objects-fixtures.js';

const NAME = `CX${process.pid}`;

/**
 * Who may remove a catalog link: those with write rights in the container that keeps it. A
 * reader there is refused (403); anyone else is told there is no such link (404), as for an
 * object they cannot read. Either way the link stays, and nothing is recorded.
 */
describe('DELETE /objects/links/<id> by those who may not remove the link', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
  });
  afterAll(() => f.close());

  /** A part described by a document, both in `container`, linked by `user`: the link's body. */
  async function describedBy(tag: string, user: User, container: string) {
    const made = [];
    for (const body of [
      { type: 'wt.part.WTPart', number: `${NAME}-${tag}-P`, name: 'part' },
      { type: 'wt.doc.WTDocument', number: `${NAME}-${tag}-D`, name: 'doc' },
    ]) {
      made.push(await f.create({ ...body, container }, user));
    }
    const link = await f.as(user).post('/objects/links', {
      class: 'wt.part.WTPartDescribeLink',
      a: made[0].number,
      b: made[1].number,
    });
    expect(link.status).toBe(201);
    return { part: made[0], link: link.body as { id: number; oid: string } };
  }

  /** The link as its owner lists it among the part's links, and as stored. */
  async function stillThere(owner: User, partNumber: string, link: { id: number; oid: string }): Promise<void> {
    const listed = await f.as(owner).get(`/objects/${partNumber}/links`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((l: { oid: string }) => l.oid)).toEqual([link.oid]);
    const { rows } = await f.db.query('SELECT id FROM links WHERE id = $1', [link.id]);
    expect(rows).toEqual([{ id: link.id }]);
  }

  it('refuses a reader of the container keeping the link with 403, by id and by OID', async () => {
    const { part, link } = await describedBy('R', 'alice', f.main.name);
    const since = await lastEventId(f.db);
    for (const ref of [String(link.id), link.oid]) {
      const res = await f.as('bob').delete(`/objects/links/${ref}`);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 403,
        body: {
          statusCode: 403,
          error: 'Forbidden',
          message: `removing it needs author or manager rights in container '${f.main.name}'; you may only read there`,
          requestId: expect.any(String),
        },
      });
    }
    await stillThere('alice', part.number, link);
    expect(await eventsSince(f.db, since)).toEqual([]);
  });

  it('answers 404 to users of no role in its container, as for a link that does not exist', async () => {
    const { part, link } = await describedBy('S', 'carol', f.secret.name);
    const since = await lastEventId(f.db);
    // alice and bob are members of the main container, not of the secret one.
    for (const user of ['alice', 'bob'] as const) {
      for (const ref of [String(link.id), link.oid]) {
        const res = await f.as(user).delete(`/objects/links/${ref}`);
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 404,
          body: { statusCode: 404, error: 'Not Found', message: `no link "${ref}"`, requestId: expect.any(String) },
        });
      }
    }
    // The same answer as for an id no link has.
    const none = await f.as('alice').delete(`/objects/links/2147483647`);
    expect([none.status, none.body.message]).toEqual([404, 'no link "2147483647"']);
    await stillThere('carol', part.number, link);
    expect(await eventsSince(f.db, since)).toEqual([]);
  });
});
