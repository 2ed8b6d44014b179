import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { condition, useModelData } from './model-fixtures.js';

const PART = 'wt.part.WTPart';
const STAMPS = ['thePersistInfo.createStamp', 'thePersistInfo.modifyStamp', 'thePersistInfo.updateStamp'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** [number, createStamp, modifyStamp, updateStamp] */
type MasterRow = [string, string, string, string];
/** [using number, using iteration, link id, createStamp, modifyStamp, updateStamp] */
type LinkRow = [string, string, number, string, string, string];

/**
 * thePersistInfo.createStamp, modifyStamp and updateStamp of part masters and usage links, read
 * through POST /reports: made by the import (now, or from the iterations' times a dataset gives),
 * moved by a new name of the master and by a change of the link, and by nothing else.
 */
describe('the stamps of masters and usage links in templates', () => {
  const f = useModelData('MST', (n) => ({
    objects: [
      n.object(PART, 'BOLT', 'Bolt'),
      n.object(PART, 'ASM', 'Assembly', { uses: [{ number: n.n('BOLT'), quantity: 2, lineNumber: 10 }] }),
      n.object(PART, 'OLD', 'Old assembly', {
        iteration: 1,
        createdAt: '2026-03-02T10:00:00Z',
        modifiedAt: '2026-03-03T11:00:00Z',
        uses: [{ number: n.n('BOLT'), quantity: 1, lineNumber: 10 }],
      }),
      n.object(PART, 'OLD', 'Old assembly', {
        iteration: 2,
        createdAt: '2026-03-05T08:00:00Z',
        modifiedAt: '2026-03-06T09:30:00Z',
        uses: [{ number: n.n('BOLT'), quantity: 4, lineNumber: 10 }],
      }),
    ],
  }));
  const n = f.names.n;

  const masters = async (): Promise<Record<string, MasterRow>> => {
    const rows = (await f.rows(`<qml><statement><query>
      <select><column alias="M">number</column>${STAMPS.map((s) => `<column alias="M">${s}</column>`).join('')}</select>
      <from><table alias="M">wt.part.WTPartMaster</table></from>
      <where>${condition('M', 'number', 'like', `${n('')}*`)}</where>
    </query></statement></qml>`)) as MasterRow[];
    return Object.fromEntries(rows.map((r) => [r[0].slice(n('').length), r]));
  };

  const links = async (): Promise<LinkRow[]> => {
    const rows = (await f.rows(`<qml><statement><query>
      <select><column alias="P">master&gt;number</column><column alias="P">iterationInfo.identifier.iterationId</column>
        <column alias="L">thePersistInfo.theObjectIdentifier.id</column>${STAMPS.map((s) => `<column alias="L">${s}</column>`).join('')}</select>
      <from><table alias="P">${PART}</table><table alias="L">wt.part.WTPartUsageLink</table></from>
      <where>${condition('P', 'master&gt;number', 'like', `${n('')}*`)}</where>
      <referenceJoin><join name="roleAObjectRef"><aliasTarget alias="L"/><aliasTarget alias="P"/></join></referenceJoin>
    </query></statement></qml>`)) as LinkRow[];
    return rows
      .map((r) => [r[0].slice(n('').length), String(r[1]), r[2], r[3], r[4], r[5]] as LinkRow)
      .sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`));
  };

  /** ISO timestamps made in the last ten minutes, created no later than modified, updateStamp the modifyStamp. */
  function expectRecent([created, modified, updated]: string[]): void {
    for (const t of [created, modified]) {
      expect(t).toMatch(ISO);
      expect(Date.now() - Date.parse(t)).toBeLessThan(10 * 60_000);
      expect(Date.parse(t) - Date.now()).toBeLessThan(60_000);
    }
    expect(Date.parse(created)).toBeLessThanOrEqual(Date.parse(modified));
    expect(updated).toBe(modified);
  }

  it('stamps masters and links the import makes with its time, or with the times the dataset gives', async () => {
    const m = await masters();
    expect(Object.keys(m).sort()).toEqual(['ASM', 'BOLT', 'OLD']);
    expectRecent(m.ASM.slice(1));
    expectRecent(m.BOLT.slice(1));
    // The first iteration's creation and the last one's modification.
    expect(m.OLD.slice(1).map((t) => new Date(t).toISOString())).toEqual([
      '2026-03-02T10:00:00.000Z',
      '2026-03-06T09:30:00.000Z',
      '2026-03-06T09:30:00.000Z',
    ]);

    const l = await links();
    expect(l.map((r) => r.slice(0, 2))).toEqual([
      ['ASM', '1'],
      ['OLD', '1'],
      ['OLD', '2'],
    ]);
    expectRecent(l[0].slice(3) as string[]);
    // Made with the iteration that holds it.
    expect(l[1].slice(3).map((t) => new Date(t as string).toISOString())).toEqual(
      Array(3).fill('2026-03-02T10:00:00.000Z'),
    );
    expect(l[2].slice(3).map((t) => new Date(t as string).toISOString())).toEqual(
      Array(3).fill('2026-03-05T08:00:00.000Z'),
    );
  });

  it('moves the modifyStamp of a master, not its createStamp, when it is renamed, and leaves the others', async () => {
    const before = await masters();
    const res = await request(f.t.http)
      .post(`/objects/${n('BOLT')}/iterations`)
      .auth(...USERS.alice)
      .send({ name: 'Hex bolt' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ number: n('BOLT'), name: 'Hex bolt', iteration: 2 });
    const after = await masters();
    expect(after.BOLT[1]).toBe(before.BOLT[1]);
    expect(Date.parse(after.BOLT[2])).toBeGreaterThan(Date.parse(before.BOLT[2]));
    expect(after.BOLT[3]).toBe(after.BOLT[2]);
    expectRecent(after.BOLT.slice(1));
    expect([after.ASM, after.OLD]).toEqual([before.ASM, before.OLD]);
  });

  it('leaves the modifyStamp of a master alone when a new iteration keeps its name', async () => {
    const before = await masters();
    const res = await request(f.t.http)
      .post(`/objects/${n('OLD')}/iterations`)
      .auth(...USERS.alice)
      .send({ description: 'third' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ number: n('OLD'), name: 'Old assembly', iteration: 3 });
    expect((await masters()).OLD).toEqual(before.OLD);
    // The new iteration's copy of the link is a new link, made now.
    const l = await links();
    expect(l.map((r) => r.slice(0, 2))).toEqual([
      ['ASM', '1'],
      ['OLD', '1'],
      ['OLD', '2'],
      ['OLD', '3'],
    ]);
    expectRecent(l[3].slice(3) as string[]);
  });

  it('moves the modifyStamp of a usage link, not its createStamp, when it is changed', async () => {
    const [before] = await links();
    const res = await request(f.t.http)
      .patch(`/objects/${n('ASM')}/uses/${before[2]}`)
      .auth(...USERS.alice)
      .send({ quantity: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: before[2], quantity: 3 });
    const [after] = await links();
    expect(after[3]).toBe(before[3]);
    expect(Date.parse(after[4])).toBeGreaterThan(Date.parse(before[4]));
    expect(after[5]).toBe(after[4]);
    expectRecent(after.slice(3) as string[]);
  });
});
