import request from 'supertest';
import { createTestApp, USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

type User = keyof typeof USERS;

interface Pointer {
  oid: string;
  name: string;
  number?: string;
  url: string;
}

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;
const ENVELOPE = { statusCode: expect.any(Number), error: expect.any(String), requestId: expect.any(String) };

/**
 * api/1.0 as the original gateway's clients call it, on the demo data: the React Native example
 * (`gateway.query("epmdocuments", {name: "*.asm"})`, reading `items`, `oid`, `name`) and the
 * Python client (`query` reading `items`, an item's `item.isLatestIteration`, `item.isCheckedOut`,
 * `item.version`, `item.state`, `oid`; `query_one` sorting on the OID's number).
 */
describe('api/1.0 as the original clients call it', () => {
  const t = useTestApp();
  const as = (user: User, path: string) => {
    const [name, password] = USERS[user];
    // A fixed Host: supertest listens on a new port for every request, and urls are made of the Host.
    return request(t.http).get(path).set('Host', 'pdm.test').auth(name, password);
  };
  /** A URL an answer gave, fetched as a client does (the same host). */
  const follow = (user: User, url: string) => as(user, new URL(url).pathname);

  it('lists CAD assemblies by name (React Native) and leads to each item by its url', async () => {
    const res = await as('alice', '/api/1.0/epmdocuments?name=*.asm');
    expect([res.status, res.body.count, Object.keys(res.body)]).toEqual([
      200,
      res.body.items.length,
      ['count', 'items', '_runtime'],
    ]);
    expect(typeof res.body._runtime).toBe('number');
    const items = res.body.items as Pointer[];
    expect(items.every((i) => i.name.endsWith('.asm'))).toBe(true);
    const asm = items.find((i) => i.number === '0000500001')!;
    expect(asm).toEqual({
      oid: expect.stringMatching(/^OR:wt\.epm\.EPMDocument:\d+$/),
      name: 'drive_unit.asm',
      number: '0000500001',
      url: `http://pdm.test/api/1.0/epmdocuments/${asm.oid}`,
    });
    expect(asm.url.endsWith(`/api/1.0/epmdocuments/${asm.oid}`)).toBe(true);

    const item = await follow('alice', asm.url);
    expect(item.status).toBe(200);
    const user = (name: string) => ({
      oid: expect.stringMatching(/^OR:wt\.org\.WTUser:\d+$/),
      url: expect.stringMatching(/\/api\/1\.0\/users\/OR:wt\.org\.WTUser:\d+$/),
      details: expect.stringMatching(/\/api\/1\.0\/users\/OR:wt\.org\.WTUser:\d+$/),
      name,
    });
    expect(item.body).toEqual({
      oid: asm.oid,
      url: asm.url,
      details: asm.url.replace(`/api/1.0/epmdocuments/`, '/objects/'),
      name: 'drive_unit.asm',
      number: '0000500001',
      cadname: 'drive_unit.asm',
      version: 'A.1',
      modified: expect.stringMatching(TIME),
      path: '/Drive Unit/drive_unit.asm',
      item: {
        oid: asm.oid,
        name: 'drive_unit.asm',
        number: '0000500001',
        cadname: 'drive_unit.asm',
        doctype: 'CADASSEMBLY',
        type: 'wt.epm.EPMDocument',
        state: 'INWORK',
        version: 'A.1',
        location: '/Drive Unit',
        path: '/Drive Unit/drive_unit.asm',
        created: expect.stringMatching(TIME),
        modified: item.body.modified,
        creator: user('alice'),
        modifier: user('alice'),
        isCheckedOut: false,
        isLatestIteration: true,
      },
      _runtime: expect.any(Number),
    });
    // details is the object in the objects service, which answers it.
    const details = await follow('alice', item.body.details);
    expect([details.status, details.body.oid, details.body.number]).toEqual([200, asm.oid, '0000500001']);
    // The creator's url is the user's item.
    const creator = await follow('bob', item.body.item.creator.url);
    expect([creator.status, creator.body.name, creator.body.fullName]).toEqual([200, 'alice', 'Alice Author']);
  });

  it('answers the Python client: latest iteration by default, every iteration on latest_iteration=no', async () => {
    const latest = await as('bob', '/api/1.0/documents?number=0000000001&latest_iteration=True');
    expect([latest.status, latest.body.count]).toEqual([200, 1]);
    const [a2] = latest.body.items as Pointer[];
    expect(a2).toMatchObject({ name: 'Drive unit specification', number: '0000000001' });
    expect((await as('bob', '/api/1.0/documents?number=0000000001')).body.items).toEqual([a2]);

    const all = await as('bob', '/api/1.0/documents?number=0000000001&latest_iteration=no');
    expect([all.status, all.body.count]).toEqual([200, 2]);
    // query_one picks the newest by the OID's number: the latest iteration.
    const newest = [...(all.body.items as Pointer[])].sort(
      (x, y) => Number(y.oid.split(':')[2]) - Number(x.oid.split(':')[2]),
    );
    expect(newest[0]).toEqual(a2);

    const read = async (p: Pointer) => {
      const res = await follow('bob', p.url);
      expect(res.status).toBe(200);
      const { item } = res.body;
      return [
        res.body.oid,
        item.name,
        item.number,
        item.version,
        item.state,
        item.isLatestIteration,
        item.isCheckedOut,
      ];
    };
    expect(await read(a2)).toEqual([a2.oid, 'Drive unit specification', '0000000001', 'A.2', 'INWORK', true, false]);
    expect(await read(newest[1])).toEqual([
      newest[1].oid,
      'Drive unit specification',
      '0000000001',
      'A.1',
      'RELEASED',
      false,
      false,
    ]);
    // latest_released: the newest iteration in a released state.
    const released = await as('bob', '/api/1.0/documents?number=0000000001&latest_released=yes');
    expect([released.status, released.body.items]).toEqual([200, [newest[1]]]);
  });

  it('names an item by OID, URL-encoded OID, version reference or number', async () => {
    const [a2] = (await as('bob', '/api/1.0/documents?number=0000000001')).body.items as Pointer[];
    const byNumber = await as('bob', '/api/1.0/documents/0000000001');
    expect([byNumber.status, byNumber.body.oid, byNumber.body.version]).toEqual([200, a2.oid, 'A.2']);
    const encoded = await as('bob', `/api/1.0/documents/${encodeURIComponent(a2.oid)}`);
    expect([encoded.status, encoded.body.oid]).toEqual([200, a2.oid]);
    const objects = await as('bob', `/objects/0000000001`);
    const byVersion = await as('bob', `/api/1.0/documents/${objects.body.versionReference}`);
    expect([byVersion.status, byVersion.body.oid]).toEqual([200, a2.oid]);
  });

  it('lists parts with their soft types and subclasses', async () => {
    const res = await as('alice', '/api/1.0/parts?number=P-0000000?');
    expect(res.status).toBe(200);
    expect((res.body.items as Pointer[]).map((i) => i.number)).toEqual(
      expect.arrayContaining(['P-00000001', 'P-00000002', 'P-00000003', 'P-00000004', 'P-00000005']),
    );
    const firmware = (res.body.items as Pointer[]).find((i) => i.number === 'P-00000003')!;
    const item = await follow('alice', firmware.url);
    expect([item.status, item.body.item.type, item.body.item.state]).toEqual([
      200,
      'com.acme.SoftwarePart',
      'UNDERREVIEW',
    ]);
    expect(item.body).not.toHaveProperty('cadname');
  });

  it('shows only objects of containers the caller may read, and answers 404 for the others', async () => {
    // carol is not a member of Drive Unit; bob is not one of Secret Project.
    const carol = await as('carol', '/api/1.0/epmdocuments?name=*.asm');
    expect(carol.status).toBe(200);
    expect((carol.body.items as Pointer[]).map((i) => i.number)).not.toContain('0000500001');
    const asm = ((await as('alice', '/api/1.0/epmdocuments?number=0000500001')).body.items as Pointer[])[0];
    const hidden = await follow('carol', asm.url);
    expect([hidden.status, hidden.body]).toEqual([
      404,
      { ...ENVELOPE, statusCode: 404, error: 'Not Found', message: `no object "${asm.oid}"` },
    ]);
    expect((await as('carol', '/api/1.0/epmdocuments/0000500001')).status).toBe(404);

    const bob = await as('bob', '/api/1.0/documents?number=SP*');
    expect([bob.status, bob.body.count, bob.body.items]).toEqual([200, 0, []]);
    const secret = await as('carol', '/api/1.0/documents?number=SP*');
    expect([secret.status, (secret.body.items as Pointer[]).map((i) => i.number)]).toEqual([200, ['SP00001-X']]);
    const secretOid = (secret.body.items as Pointer[])[0].oid;
    expect((await as('bob', `/api/1.0/documents/${secretOid}`)).status).toBe(404);
    expect((await as('carol', `/api/1.0/documents/${secretOid}`)).status).toBe(200);
    // Administrators read everything.
    expect((await as('admin', `/api/1.0/documents/${secretOid}`)).status).toBe(200);
    // Without credentials: 401.
    expect((await request(t.http).get('/api/1.0/documents')).status).toBe(401);
  });

  it('lists users by name to every signed-in user, and shows a user without other data', async () => {
    const res = await as('bob', '/api/1.0/users');
    expect(res.status).toBe(200);
    const users = res.body.items as Pointer[];
    expect(users.map((u) => u.name)).toEqual(expect.arrayContaining(['admin', 'alice', 'bob', 'carol']));
    const alice = users.find((u) => u.name === 'alice')!;
    expect(alice).toEqual({
      oid: expect.stringMatching(/^OR:wt\.org\.WTUser:\d+$/),
      name: 'alice',
      url: expect.stringMatching(/\/api\/1\.0\/users\/OR:wt\.org\.WTUser:\d+$/),
    });
    const filtered = await as('carol', '/api/1.0/users?name=a*');
    expect(filtered.status).toBe(200);
    const names = (filtered.body.items as Pointer[]).map((u) => u.name);
    expect(names).toEqual(expect.arrayContaining(['admin', 'alice']));
    expect(names.every((n) => n.startsWith('a'))).toBe(true);
    const page = await as('bob', '/api/1.0/users?name=a*&limit=1&start=1');
    expect([page.status, page.body.count, page.body.items]).toEqual([200, 1, [filtered.body.items[1]]]);

    const item = await follow('carol', alice.url);
    expect([item.status, item.body]).toEqual([
      200,
      {
        oid: alice.oid,
        url: alice.url,
        details: alice.url,
        name: 'alice',
        fullName: 'Alice Author',
        _runtime: expect.any(Number),
      },
    ]);
    const byName = await as('carol', '/api/1.0/users/alice');
    expect([byName.status, byName.body.oid]).toEqual([200, alice.oid]);
    const missing = await as('carol', '/api/1.0/users/nobody-here');
    expect([missing.status, missing.body.message]).toEqual([404, 'no user "nobody-here"']);
    const wrong = await as('carol', '/api/1.0/users/OR:wt.doc.WTDocument:1');
    expect([wrong.status, wrong.body.message]).toEqual([
      400,
      'users are objects of wt.org.WTUser, not of wt.doc.WTDocument',
    ]);
    const bad = await as('carol', '/api/1.0/users/OR:wt.org.WTUser:x');
    expect([bad.status, bad.body.message]).toEqual([400, '"OR:wt.org.WTUser:x" is not an OID (OR:<class>:<id>)']);
  });

  it('makes every url of PUBLIC_URL and BASE_PATH', async () => {
    const other = await createTestApp({ PUBLIC_URL: 'https://pdm.example.com', BASE_PATH: '/pdm' });
    try {
      const list = await request(other.http)
        .get('/pdm/api/1.0/documents?number=0000000001')
        .auth(...USERS.bob);
      expect(list.status).toBe(200);
      const [doc] = list.body.items as Pointer[];
      expect(doc.url).toBe(`https://pdm.example.com/pdm/api/1.0/documents/${doc.oid}`);
      const item = await request(other.http)
        .get(`/pdm/api/1.0/documents/${doc.oid}`)
        .auth(...USERS.bob);
      expect([item.status, item.body.url, item.body.details]).toEqual([
        200,
        doc.url,
        `https://pdm.example.com/pdm/objects/${doc.oid}`,
      ]);
      expect(item.body.item.creator.url).toMatch(
        /^https:\/\/pdm\.example\.com\/pdm\/api\/1\.0\/users\/OR:wt\.org\.WTUser:\d+$/,
      );
    } finally {
      await other.close();
    }
  });
});
