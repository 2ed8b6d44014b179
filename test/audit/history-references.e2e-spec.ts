import { objectsFixture, type ObjectsFixture } from '../objects/objects-fixtures.js';

const NAME = `HR${process.pid}`;
const RESTRICTED = { restricted: true };

interface Event {
  action: string;
  detail: Record<string, unknown> | null;
}

/**
 * An event of an object's history that names another object (a usage link's member) names it only
 * to those who may read that object, as `structure` does: bob reads the parent's container but not
 * the member's, carol both, the administrator everything.
 */
describe('history: objects named in events are shown only to those who may read them', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
  });
  afterAll(() => f.close());

  const history = async (user: 'bob' | 'carol' | 'admin', ref: string): Promise<Event[]> => {
    const res = await f.as(user).get(`/objects/${ref}/history`);
    expect(res.status).toBe(200);
    return (res.body.items as Event[]).map((e) => ({ action: e.action, detail: e.detail }));
  };

  it('redacts the member of usage-link events in a container the caller cannot read', async () => {
    await f.create({ type: 'wt.part.WTPart', number: `${NAME}-top`, name: 'top' });
    await f.create({ type: 'wt.part.WTPart', number: `${NAME}-open`, name: 'open member' });
    const hidden = await f.as('carol').post('/objects', {
      container: f.secret.name,
      type: 'wt.part.WTPart',
      number: `${NAME}-hidden`,
      name: 'hidden member',
    });
    expect(hidden.status).toBe(201);
    const toHidden = await f
      .as('carol')
      .post(`/objects/${NAME}-top/uses`, { member: `${NAME}-hidden`, lineNumber: 10 });
    expect(toHidden.status).toBe(201);
    const toOpen = await f.as('carol').post(`/objects/${NAME}-top/uses`, { member: `${NAME}-open`, lineNumber: 20 });
    expect(toOpen.status).toBe(201);
    expect((await f.as('carol').patch(`/objects/${NAME}-top/uses/${toHidden.body.id}`, { quantity: 3 })).status).toBe(
      200,
    );
    expect((await f.as('carol').delete(`/objects/${NAME}-top/uses/${toHidden.body.id}`)).status).toBe(200);

    // What structure shows bob of the same link (before it was removed, as the history shows it).
    const link = toHidden.body.id as number;
    const seen = (member: unknown) => [
      { action: 'objects.uses.remove', detail: expect.objectContaining({ link, member }) },
      { action: 'objects.uses.update', detail: expect.objectContaining({ link, member }) },
      { action: 'objects.uses.add', detail: expect.objectContaining({ link: toOpen.body.id, member: `${NAME}-open` }) },
      { action: 'objects.uses.add', detail: expect.objectContaining({ link, member, quantity: 1, lineNumber: 10 }) },
      { action: 'objects.create', detail: expect.any(Object) },
    ];
    const bob = await history('bob', `${NAME}-top`);
    expect(bob).toEqual(seen(RESTRICTED));
    expect(JSON.stringify(bob)).not.toContain(`${NAME}-hidden`);
    for (const user of ['carol', 'admin'] as const)
      expect(await history(user, `${NAME}-top`)).toEqual(seen(`${NAME}-hidden`));
  });

  it('matches what structure shows of the member: restricted for bob, named for carol', async () => {
    await f.create({ type: 'wt.part.WTPart', number: `${NAME}-asm`, name: 'assembly' });
    await f.as('carol').post('/objects', {
      container: f.secret.name,
      type: 'wt.part.WTPart',
      number: `${NAME}-sub`,
      name: 'secret sub',
    });
    expect((await f.as('carol').post(`/objects/${NAME}-asm/uses`, { member: `${NAME}-sub` })).status).toBe(201);
    const structure = await f.as('bob').get(`/objects/${NAME}-asm/structure`);
    expect(structure.body.root.children).toEqual([expect.objectContaining({ restricted: true, number: null })]);
    const [added] = await history('bob', `${NAME}-asm`);
    expect(added).toEqual({ action: 'objects.uses.add', detail: expect.objectContaining({ member: RESTRICTED }) });
    const [forCarol] = await history('carol', `${NAME}-asm`);
    expect(forCarol.detail!.member).toBe(`${NAME}-sub`);
  });

  it('redacts the member of a CAD link change (numbers.link) the same way', async () => {
    await f.create({ type: 'wt.epm.EPMDocument', subtype: 'CADASSEMBLY', number: `${NAME}-cad`, name: 'a.asm' });
    const prt = await f.as('carol').post('/objects', {
      container: f.secret.name,
      type: 'wt.epm.EPMDocument',
      subtype: 'CADCOMPONENT',
      number: `${NAME}-cadprt`,
      name: 'secret.prt',
    });
    expect(prt.status).toBe(201);
    const use = await f.as('carol').post(`/objects/${NAME}-cad/uses`, { member: prt.body.oid });
    expect(use.status).toBe(201);
    const numbered = await f.as('carol').post(`/numbers/attributes/${NAME}-cad/${use.body.id}`, { lineNumber: 5 });
    expect(numbered.status).toBe(200);
    const [bobSees] = await history('bob', `${NAME}-cad`);
    expect(bobSees).toEqual({
      action: 'numbers.link',
      detail: expect.objectContaining({
        link: use.body.id,
        member: RESTRICTED,
        lineNumber: { before: null, after: 5 },
      }),
    });
    const [carolSees] = await history('carol', `${NAME}-cad`);
    expect(carolSees.detail!.member).toBe(`${NAME}-cadprt`);
  });

  it('redacts a member that no longer exists for everyone but administrators (its container is unknown)', async () => {
    await f.create({ type: 'wt.part.WTPart', number: `${NAME}-keep`, name: 'keeps its history' });
    await f.create({ type: 'wt.part.WTPart', number: `${NAME}-gone`, name: 'deleted later' });
    expect((await f.as('alice').post(`/objects/${NAME}-keep/uses`, { member: `${NAME}-gone` })).status).toBe(201);
    expect((await f.as('carol').delete(`/objects/${NAME}-gone?force=true`)).status).toBe(200);
    const uses = (events: Event[]) => events.find((e) => e.action === 'objects.uses.add')!.detail!.member;
    expect(uses(await history('bob', `${NAME}-keep`))).toEqual(RESTRICTED);
    expect(uses(await history('carol', `${NAME}-keep`))).toEqual(RESTRICTED);
    expect(uses(await history('admin', `${NAME}-keep`))).toBe(`${NAME}-gone`);
  });
});
