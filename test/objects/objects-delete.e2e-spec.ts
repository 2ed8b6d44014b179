import { fingerprint } from '../security/security-helpers.js';
import { auditOf, objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `OD${process.pid}`;

describe('DELETE /objects/<ref>', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
  });
  afterAll(() => f.close());

  async function unchanged(work: () => Promise<void>): Promise<void> {
    const audit = 'SELECT count(*)::int AS n FROM audit_events';
    const before = { tables: await fingerprint(f.db), audit: (await f.db.query(audit)).rows[0].n };
    await work();
    expect({ tables: await fingerprint(f.db), audit: (await f.db.query(audit)).rows[0].n }).toEqual(before);
  }

  const idOf = (oid: string) => Number(oid.split(':').pop());
  const part = (number: string, user: 'alice' | 'carol' = 'alice', container?: string) =>
    f.create({ type: 'wt.part.WTPart', number, name: `part ${number}`, ...(container && { container }) }, user);
  const rows = async (masterId: number) => {
    const { rows } = await f.db.query<{ masters: number; iterations: number; files: number; links: number }>(
      `SELECT (SELECT count(*)::int FROM masters WHERE id = $1) AS masters,
              (SELECT count(*)::int FROM iterations WHERE master_id = $1) AS iterations,
              (SELECT count(*)::int FROM content_items ci JOIN iterations i ON i.id = ci.iteration_id WHERE i.master_id = $1) AS files,
              (SELECT count(*)::int FROM usage_links WHERE child_id = $1) AS links`,
      [masterId],
    );
    return rows[0];
  };

  it('deletes the object with every iteration, its file references and its own links, and records it', async () => {
    const doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-doc`, name: 'doc' });
    await f.as('alice').post(`/files/${NAME}-doc/a.txt`, { data: Buffer.from('a').toString('base64') });
    await f.as('alice').post(`/objects/${NAME}-doc/iterations`, {});
    expect(await rows(idOf(doc.masterOid))).toEqual({ masters: 1, iterations: 2, files: 2, links: 0 });
    // The OID of an older iteration names the object too.
    const res = await f.as('alice').delete(`/objects/${doc.oid}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      masterOid: doc.masterOid,
      number: `${NAME}-doc`,
      class: 'wt.doc.WTDocument',
      iterations: 2,
      files: 2,
      usedBy: 0,
      links: 0,
      references: 0,
    });
    expect(await rows(idOf(doc.masterOid))).toEqual({ masters: 0, iterations: 0, files: 0, links: 0 });
    expect((await f.as('alice').get(`/objects/${NAME}-doc`)).status).toBe(404);
    expect((await auditOf(f.db, doc.masterOid)).map((e) => [e.action, e.detail])).toEqual([
      ['objects.create', expect.anything()],
      ['files.upload', expect.anything()],
      ['objects.iterate', expect.anything()],
      [
        'objects.delete',
        { latest: 'A.2', state: 'INWORK', force: false, iterations: 2, files: 2, usedBy: 0, links: 0, references: 0 },
      ],
    ]);
  });

  it('refuses readers (403) and outsiders (404); managers and administrators delete', async () => {
    await part(`${NAME}-p1`);
    await part(`${NAME}-p2`);
    await part(`${NAME}-s`, 'carol', f.secret.name);
    await unchanged(async () => {
      const bob = await f.as('bob').delete(`/objects/${NAME}-p1`);
      expect(bob.status).toBe(403);
      expect(bob.body.message).toBe(
        `changing ${NAME}-p1 needs author or manager rights in container '${f.main.name}'; you may only read there`,
      );
      const alice = await f.as('alice').delete(`/objects/${NAME}-s`);
      expect(alice.status).toBe(404);
      expect(alice.body.message).toBe(`no object "${NAME}-s"`);
      const bad = await f.as('alice').delete(`/objects/${NAME}-p1?force=yes`);
      expect(bad.body).toMatchObject({ statusCode: 400, message: 'force must be true or false' });
    });
    expect((await f.as('carol').delete(`/objects/${NAME}-p1`)).status).toBe(200);
    expect((await f.as('admin').delete(`/objects/${NAME}-p2`)).status).toBe(200);
  });

  it('refuses an object other objects use unless force=true, which removes their links', async () => {
    const used = await part(`${NAME}-used`);
    const user1 = await part(`${NAME}-user1`);
    await part(`${NAME}-user2`);
    await f.as('alice').post(`/objects/${NAME}-user1/uses`, { member: `${NAME}-used`, lineNumber: 10 });
    await f.as('alice').post(`/objects/${NAME}-user1/iterations`, {});
    await f.as('alice').post(`/objects/${NAME}-user2/uses`, { member: `${NAME}-used` });
    await unchanged(async () => {
      const res = await f.as('alice').delete(`/objects/${NAME}-used`);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        `${NAME}-used is used by ${NAME}-user1 A.1, ${NAME}-user1 A.2, ${NAME}-user2 A.1: remove those usage links first, ` +
          'or delete with force=true, which removes them too',
      );
    });
    const forced = await f.as('alice').delete(`/objects/${NAME}-used?force=true`);
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ usedBy: 3, iterations: 1 });
    expect(await rows(idOf(used.masterOid))).toEqual({ masters: 0, iterations: 0, files: 0, links: 0 });
    const still = await f.as('bob').get(`/objects/${NAME}-user1/structure`);
    expect(still.body.root).toMatchObject({ number: `${NAME}-user1`, iteration: 2, children: [] });
    expect((await auditOf(f.db, user1.masterOid)).length).toBe(3);
    expect((await auditOf(f.db, used.masterOid)).pop()?.detail).toMatchObject({ force: true, usedBy: 3 });
  });

  it('with force, refuses links of objects the caller may not change, without naming them', async () => {
    await part(`${NAME}-lib`);
    await part(`${NAME}-hid`, 'carol', f.secret.name);
    expect((await f.as('carol').post(`/objects/${NAME}-hid/uses`, { member: `${NAME}-lib` })).status).toBe(201);
    await unchanged(async () => {
      const plain = await f.as('alice').delete(`/objects/${NAME}-lib`);
      expect(plain.status).toBe(409);
      expect(plain.body.message).toBe(
        `${NAME}-lib is used by 1 link in containers you cannot read: remove those usage links first, or delete with force=true, which removes them too`,
      );
      const forced = await f.as('alice').delete(`/objects/${NAME}-lib?force=true`);
      expect(forced.status).toBe(403);
      expect(forced.body.message).toBe(
        `force=true would remove usage links of objects using ${NAME}-lib in containers where you may not change objects (1 link); nothing was deleted`,
      );
    });
    expect((await f.as('carol').delete(`/objects/${NAME}-lib?force=true`)).body).toMatchObject({ usedBy: 1 });
  });

  const insertLink = async (cls: string, a: number, b: number, container = f.main.id) => {
    const { rows } = await f.db.query<{ id: number }>(
      'INSERT INTO links (class, role_a_id, role_b_id, container_id) VALUES ($1, $2, $3, $4) RETURNING id',
      [cls, a, b, container],
    );
    return rows[0].id;
  };

  it('refuses an object catalog links name unless force=true, which removes those naming it and no others', async () => {
    const doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-cat`, name: 'described' });
    await f.as('alice').post(`/objects/${NAME}-cat/iterations`, {});
    const other = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-keep`, name: 'kept' });
    const p = await part(`${NAME}-desc`);
    // One names its first iteration (A.1, no longer the latest), one its master.
    const described = await insertLink('wt.part.WTPartDescribeLink', idOf(p.oid), idOf(doc.oid));
    const referenced = await insertLink('wt.part.WTPartReferenceLink', idOf(p.oid), idOf(doc.masterOid));
    const kept = await insertLink('wt.part.WTPartDescribeLink', idOf(p.oid), idOf(other.oid));
    await unchanged(async () => {
      const res = await f.as('alice').delete(`/objects/${NAME}-cat`);
      expect([res.status, res.body.message]).toEqual([
        409,
        `${NAME}-cat is named by 2 catalog links (OR:wt.part.WTPartDescribeLink:${described}, ` +
          `OR:wt.part.WTPartReferenceLink:${referenced}): remove those links first, or delete with force=true, ` +
          'which removes them too',
      ]);
    });
    const res = await f.as('alice').delete(`/objects/${NAME}-cat?force=true`);
    expect([res.status, res.body]).toEqual([
      200,
      {
        masterOid: doc.masterOid,
        number: `${NAME}-cat`,
        class: 'wt.doc.WTDocument',
        iterations: 2,
        files: 0,
        usedBy: 0,
        links: 2,
        references: 0,
      },
    ]);
    const left = await f.db.query('SELECT id FROM links WHERE role_a_id = $1', [idOf(p.oid)]);
    expect(left.rows).toEqual([{ id: kept }]);
    expect((await auditOf(f.db, doc.masterOid)).pop()?.detail).toMatchObject({ force: true, links: 2 });
    await f.db.query('DELETE FROM links WHERE id = $1', [kept]);
  });

  it('names usage links and catalog links together, counts links it may not name, and refuses force on them', async () => {
    const task = await f.create({ type: 'wt.change2.WTChangeActivity2', number: `${NAME}-CA`, name: 'task' });
    const used = await part(`${NAME}-both`);
    await part(`${NAME}-both-user`);
    await f.as('alice').post(`/objects/${NAME}-both-user/uses`, { member: `${NAME}-both` });
    const order = await f.create(
      { type: 'wt.change2.WTChangeOrder2', number: `${NAME}-CN`, name: 'change', container: f.secret.name },
      'carol',
    );
    // Kept in the container of the change order (role A), which alice cannot read.
    const included = await f
      .as('carol')
      .post('/objects/links', { class: 'wt.change2.IncludedIn2', a: order.oid, b: task.oid });
    expect([included.status, included.body.container]).toEqual([201, { oid: f.secret.oid, name: f.secret.name }]);
    const affected = await f.as('alice').post('/objects/links', {
      class: 'wt.change2.AffectedActivityData',
      a: (await f.create({ type: 'wt.change2.WTChangeActivity2', number: `${NAME}-CA2`, name: 'task 2' })).oid,
      b: used.oid,
    });
    expect(affected.status).toBe(201);
    await unchanged(async () => {
      const both = await f.as('alice').delete(`/objects/${NAME}-both`);
      expect([both.status, both.body.message]).toEqual([
        409,
        `${NAME}-both is used by ${NAME}-both-user A.1 and is named by 1 catalog link (${affected.body.oid}): ` +
          'remove those links first, or delete with force=true, which removes them too',
      ]);
      const hidden = await f.as('alice').delete(`/objects/${task.oid}`);
      expect([hidden.status, hidden.body.message]).toEqual([
        409,
        `${NAME}-CA is named by 1 catalog link (1 in containers you cannot read): remove those links first, ` +
          'or delete with force=true, which removes them too',
      ]);
      const forced = await f.as('alice').delete(`/objects/${task.oid}?force=true`);
      expect([forced.status, forced.body.message]).toEqual([
        403,
        'force=true would remove 1 catalog link you may not change; nothing was deleted',
      ]);
    });
    const both = await f.as('alice').delete(`/objects/${NAME}-both?force=true`);
    expect([both.status, both.body.usedBy, both.body.links]).toEqual([200, 1, 1]);
    // carol may change the link's container: she deletes it with the change task.
    const byOwner = await f.as('carol').delete(`/objects/${task.oid}?force=true`);
    expect([byOwner.status, byOwner.body.links]).toEqual([200, 1]);
    expect((await f.db.query('SELECT id FROM links WHERE id = $1', [included.body.id])).rows).toEqual([]);
  });
});
