import { objectsFixture, whileTableHeld, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `UR${process.pid}`;

/**
 * A usage link being added and a deletion of the object it uses, forced to interleave: the test
 * holds audit_events in SHARE mode, so the request sent first makes its whole change and then
 * waits to record its event, still uncommitted; the second is sent once it waits, and the test
 * lets go once both wait. One wins cleanly, and no link ever names a deleted object.
 */
describe('a usage link added while the object it uses is deleted', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
    // One listening server: requests running at the same time must not each start and stop their own.
    await f.t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => f.close());

  const part = (number: string) => f.create({ type: 'wt.part.WTPart', number, name: number });
  const add = (parent: string, member: string) => () => f.as('alice').post(`/objects/${parent}/uses`, { member });
  const remove = (number: string) => () => f.as('carol').delete(`/objects/${number}`);

  /** Links whose member is no longer stored: none, whatever the order. */
  const dangling = async () =>
    (
      await f.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM usage_links ul WHERE NOT EXISTS (SELECT 1 FROM masters m WHERE m.id = ul.child_id)',
      )
    ).rows[0].n;

  /**
   * The add holds the member's row (FOR KEY SHARE, the foreign key's check) until it commits;
   * the deletion locks the row FOR UPDATE, so it waits, then counts the committed link and is
   * refused. Were the deletion to lock FOR NO KEY UPDATE, as other changes of an object do, it
   * would not wait, count no link, and delete the member with the new link (201, then 200).
   */
  it('adds the link, then refuses the deletion of the member with 409', async () => {
    const [parent, member] = [`${NAME}-A1`, `${NAME}-M1`];
    await part(parent);
    const made = await part(member);
    const [added, deleted] = await whileTableHeld(f.db, 'audit_events', add(parent, member), remove(member));
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ member: { oid: made.oid, number: member } });
    expect({ status: deleted.status, body: deleted.body as unknown }).toEqual({
      status: 409,
      body: {
        statusCode: 409,
        error: 'Conflict',
        message:
          `${member} is used by ${parent} A.1: remove those usage links first, or delete with force=true, ` +
          'which removes them too',
        requestId: expect.any(String),
      },
    });
    const structure = await f.as('bob').get(`/objects/${parent}/structure`);
    expect(structure.status).toBe(200);
    expect(structure.body.root.children).toEqual([expect.objectContaining({ number: member })]);
    expect((await f.as('bob').get(`/objects/${member}`)).status).toBe(200);
    expect(await dangling()).toBe(0);
  });

  /**
   * The deletion holds the member's row (FOR UPDATE, deleted) until it commits; the add reads the
   * member as it was, then its insert waits for the row in the foreign key's check, which fails
   * once the deletion commits: 409, nothing added. Without the foreign key the add would store a
   * link to the deleted member.
   */
  it('deletes the member, then refuses the link to it with 409', async () => {
    const [parent, member] = [`${NAME}-A2`, `${NAME}-M2`];
    await part(parent);
    await part(member);
    const [deleted, added] = await whileTableHeld(f.db, 'audit_events', remove(member), add(parent, member));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ number: member, usedBy: 0 });
    expect({ status: added.status, body: added.body as unknown }).toEqual({
      status: 409,
      body: {
        statusCode: 409,
        error: 'Conflict',
        message: 'the change refers to an object that no longer exists, or removes one that others refer to',
        requestId: expect.any(String),
      },
    });
    const structure = await f.as('bob').get(`/objects/${parent}/structure`);
    expect(structure.status).toBe(200);
    expect(structure.body.root.children).toEqual([]);
    expect((await f.as('bob').get(`/objects/${member}`)).status).toBe(404);
    expect(await dangling()).toBe(0);
  });
});
