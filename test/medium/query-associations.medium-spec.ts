import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import pg from 'pg';
import type { AuthUser } from '../../src/auth/auth-user.js';
import { PermissionsRepository } from '../../src/auth/permissions.repository.js';
import { PermissionsService } from '../../src/auth/permissions.service.js';
import { ASSOCIATION_NAMES, type AssociationName } from '../../src/query/associations/association-names.js';
import {
  ASSOCIATION_MAX_PER_ITEM,
  AssociationsRepository,
} from '../../src/query/associations/associations.repository.js';
import { QueryAssociations } from '../../src/query/associations/query-associations.service.js';
import { useServices } from './medium-database.js';

const BASE = 'http://pdm.test';
const PART = 'wt.part.WTPart';
const DOC = 'wt.doc.WTDocument';
const DESCRIBE = 'wt.part.WTPartDescribeLink';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

type Item = { id: number; cls: string };

/**
 * Every statement any pg client runs while `work` runs (the pool under Prisma and every other
 * pool of the process go through pg.Client#query), with its text or prepared statement name.
 */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const spy = jest.spyOn(pg.Client.prototype as { query(...args: unknown[]): unknown }, 'query');
  try {
    await work();
    return spy.mock.calls.map(([q]) => {
      if (typeof q === 'string') return q;
      const config = q as { name?: string; text: string };
      return config.name ?? config.text;
    });
  } finally {
    spy.mockRestore();
  }
}

describe('QueryAssociations: the associations of a page of the query service', () => {
  // The catalog is read once and then kept, so that its check never adds a statement to a count.
  const s = useServices(
    { providers: [QueryAssociations, AssociationsRepository, PermissionsService, PermissionsRepository] },
    { CATALOG_CHECK_INTERVAL_MS: '3600000' },
  );
  let loader: QueryAssociations;
  const users = new Map<string, AuthUser>();
  const readable = async (name: string) => s.get(PermissionsService).readableContainerIds(users.get(name)!);
  const load = async (user: string, names: readonly AssociationName[], items: Item[]) =>
    loader.load(names, items, await readable(user), BASE);

  const one = async (sql: string, values: unknown[]) => (await s.pool.query<{ id: number }>(sql, values)).rows[0].id;
  /** The latest iteration of an object, as a page item. */
  const latest = async (cls: string, number: string): Promise<Item> => ({
    cls,
    id: await one(
      `SELECT i.id FROM iterations i JOIN masters m ON m.id = i.master_id
       WHERE m.class = $1 AND m.number = $2 AND i.latest`,
      [cls, number],
    ),
  });
  const containerId = (name: string) => one('SELECT id FROM containers WHERE name = $1', [name]);
  const addFile = async (iterationId: number, role: string, fileName: string, mimeType: string, bytes: Buffer) => {
    const sha = createHash('sha256').update(bytes).digest('hex');
    await s.pool.query(`INSERT INTO content_blobs (sha256, size) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      sha,
      bytes.length,
    ]);
    await s.pool.query(`INSERT INTO blob_chunks (sha256, seq, data) VALUES ($1, 0, $2) ON CONFLICT DO NOTHING`, [
      sha,
      bytes,
    ]);
    return one(
      `INSERT INTO content_items (iteration_id, role, file_name, mime_type, size, sha256)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [iterationId, role, fileName, mimeType, bytes.length, sha],
    );
  };
  const addMaster = async (cls: string, number: string, container: number, attributes: object = {}) => {
    const admin = users.get('admin')!.id;
    const master = await one(
      `INSERT INTO masters (class, number, name, container_id) VALUES ($1, $2, $3, $4) RETURNING id`,
      [cls, number, `object ${number}`, container],
    );
    const id = await one(
      `INSERT INTO iterations (master_id, attributes, created_by, modified_by) VALUES ($1, $2, $3, $3) RETURNING id`,
      [master, JSON.stringify(attributes), admin],
    );
    return { id, cls };
  };
  const addUse = (parent: number, child: Item, line: number | null, quantity = 1) =>
    one(
      `INSERT INTO usage_links (class, parent_id, child_id, quantity, line_number)
       SELECT 'wt.part.WTPartUsageLink', $1, master_id, $3, $4 FROM iterations WHERE id = $2 RETURNING id`,
      [parent, child.id, quantity, line],
    );
  const addDescribe = (part: Item, doc: Item, container: number | null) =>
    one(`INSERT INTO links (class, role_a_id, role_b_id, container_id) VALUES ($1, $2, $3, $4) RETURNING id`, [
      DESCRIBE,
      part.id,
      doc.id,
      container,
    ]);

  let spec: Item; // 0000000001, Drive Unit, with a thumbnail added
  let drawing: Item; // 0000500004, Drive Unit, a DRAWING file
  let driveUnit: Item; // P-00000001, Drive Unit: uses P-00000002, STD-000001, STD-000002 and a secret part
  let housing: Item; // P-00000002
  let bolt: Item; // STD-000001, Standard Parts: used by the drive unit, described by documents of two containers
  let nut: Item; // STD-000002
  let secretPart: Item; // Secret Project (carol only)
  let secretDoc: Item; // SP00001-X, Secret Project
  let catalogue: Item; // 0000000901, Standard Parts
  let testPlan: Item; // 0000000002, Drive Unit
  let thumbnailId: number;
  const links: Record<string, number> = {};

  beforeAll(async () => {
    loader = s.get(QueryAssociations);
    const { rows } = await s.pool.query<AuthUser>(
      `SELECT id, name, admin, full_name AS "fullName", email FROM users WHERE name = ANY($1)`,
      [['admin', 'alice', 'bob', 'carol']],
    );
    for (const u of rows) users.set(u.name, u);
    spec = await latest(DOC, '0000000001');
    drawing = await latest('wt.epm.EPMDocument', '0000500004');
    driveUnit = await latest(PART, 'P-00000001');
    housing = await latest(PART, 'P-00000002');
    bolt = await latest(PART, 'STD-000001');
    nut = await latest(PART, 'STD-000002');
    secretDoc = await latest(DOC, 'SP00001-X');
    catalogue = await latest(DOC, '0000000901');
    testPlan = await latest(DOC, '0000000002');
    thumbnailId = await addFile(spec.id, 'THUMBNAIL', 'thumbnail.png', 'image/png', PNG);
    secretPart = await addMaster(PART, 'SP-PART-1', await containerId('Secret Project'));
    links.secretUse = await addUse(driveUnit.id, secretPart, 40);
    const drive = await containerId('Drive Unit');
    const std = await containerId('Standard Parts');
    links.specOfDrive = await addDescribe(driveUnit, spec, drive);
    links.secretOfDrive = await addDescribe(driveUnit, secretDoc, drive);
    links.catalogueOfBolt = await addDescribe(bolt, catalogue, std);
    links.planOfBolt = await addDescribe(bolt, testPlan, std);
  });

  it('lists every file of an item as the file service does, with a URL to its bytes', async () => {
    const got = await load('bob', ['files'], [spec]);
    const url = (name: string) => `${BASE}/files/OR:${DOC}:${spec.id}/${name}`;
    expect(got.get(spec.id)).toEqual({
      files: [
        expect.objectContaining({
          role: 'PRIMARY',
          filename: 'spec.txt',
          mimetype: 'text/plain',
          url: url('spec.txt'),
        }),
        expect.objectContaining({ role: 'SECONDARY', filename: 'notes.md', url: url('notes.md') }),
        {
          url: url('thumbnail.png'),
          role: 'THUMBNAIL',
          filename: 'thumbnail.png',
          mimetype: 'image/png',
          size: PNG.length,
          oid: `OR:wt.content.ApplicationData:${thumbnailId}`,
          sha256: createHash('sha256').update(PNG).digest('hex'),
        },
      ],
    });
  });

  it('gives representations (THUMBNAIL, DRAWING files) as role, name, url and mimeType', async () => {
    const got = await load('alice', ['representations'], [spec, drawing, housing]);
    expect(got.get(spec.id)).toEqual({
      representations: [
        {
          role: 'THUMBNAIL',
          name: 'thumbnail.png',
          url: `${BASE}/files/OR:${DOC}:${spec.id}/thumbnail.png`,
          mimeType: 'image/png',
        },
      ],
    });
    expect(got.get(drawing.id)).toEqual({
      representations: [
        {
          role: 'DRAWING',
          name: 'drive_unit.pdf',
          url: `${BASE}/files/OR:wt.epm.EPMDocument:${drawing.id}/drive_unit.pdf`,
          mimeType: 'application/pdf',
        },
      ],
    });
    expect(got.get(housing.id)).toEqual({ representations: [] });
  });

  it('gives the custom attributes of the iteration as name and value, by name', async () => {
    const got = await load('bob', ['ibas'], [housing, spec]);
    expect(got.get(housing.id)).toEqual({
      ibas: [
        { name: 'material', value: 'AlSi10Mg' },
        { name: 'weight', value: 1.25 },
      ],
    });
    expect(got.get(spec.id)).toEqual({ ibas: [] });
  });

  it('lists what an item uses (latest iterations, with the link) and leaves out what the caller may not read', async () => {
    const forBob = (await load('bob', ['uses'], [driveUnit])).get(driveUnit.id)!.uses!;
    expect(forBob.map((u) => (u as { number: string }).number)).toEqual(['P-00000002', 'STD-000001', 'STD-000002']);
    expect(forBob[1]).toEqual({
      oid: `OR:${PART}:${bolt.id}`,
      type: PART,
      subtype: null,
      number: 'STD-000001',
      name: 'M6 bolt',
      version: 'A',
      iteration: 1,
      state: 'RELEASED',
      latest: true,
      container: { oid: expect.stringMatching(/^OR:wt\.inf\.library\.WTLibrary:\d+$/), name: 'Standard Parts' },
      link: expect.stringMatching(/^OR:wt\.part\.WTPartUsageLink:\d+$/),
      quantity: 4,
      unit: 'ea',
      lineNumber: 20,
      referenceNumber: null,
    });
    const forAdmin = (await load('admin', ['uses'], [driveUnit])).get(driveUnit.id)!.uses!;
    expect(forAdmin.map((u) => (u as { number: string }).number)).toEqual([
      'P-00000002',
      'STD-000001',
      'STD-000002',
      'SP-PART-1',
    ]);
    expect(forAdmin[3]).toMatchObject({
      oid: `OR:${PART}:${secretPart.id}`,
      link: `OR:wt.part.WTPartUsageLink:${links.secretUse}`,
    });
  });

  it('lists the latest iterations using an item, only those the caller may read', async () => {
    const forBob = await load('bob', ['usedBy'], [bolt, nut, housing]);
    for (const item of [bolt, nut, housing]) {
      expect(forBob.get(item.id)!.usedBy).toEqual([
        expect.objectContaining({ oid: `OR:${PART}:${driveUnit.id}`, number: 'P-00000001', latest: true }),
      ]);
    }
    expect(forBob.get(bolt.id)!.usedBy![0]).toMatchObject({ quantity: 4, lineNumber: 20 });
    // carol reads Standard Parts but not Drive Unit, where the drive unit is.
    const forCarol = await load('carol', ['usedBy'], [bolt, nut]);
    expect(forCarol.get(bolt.id)).toEqual({ usedBy: [] });
    expect(forCarol.get(nut.id)).toEqual({ usedBy: [] });
    expect((await load('carol', ['usedBy'], [secretPart])).get(secretPart.id)).toEqual({
      usedBy: [],
    });
    expect((await load('admin', ['usedBy'], [secretPart])).get(secretPart.id)!.usedBy).toEqual([
      expect.objectContaining({ number: 'P-00000001' }),
    ]);
  });

  it('lists the documents describing an item (WTPartDescribeLink), only those the caller may read', async () => {
    const forBob = await load('bob', ['describedBy'], [driveUnit, bolt]);
    expect(forBob.get(driveUnit.id)).toEqual({
      describedBy: [
        {
          oid: `OR:${DOC}:${spec.id}`,
          type: DOC,
          subtype: null,
          number: '0000000001',
          name: 'Drive unit specification',
          version: 'A',
          iteration: 2,
          state: 'INWORK',
          latest: true,
          container: { oid: expect.stringMatching(/^OR:wt\.pdmlink\.PDMLinkProduct:\d+$/), name: 'Drive Unit' },
          link: `OR:${DESCRIBE}:${links.specOfDrive}`,
          quantity: null,
          unit: null,
          lineNumber: null,
          referenceNumber: null,
        },
      ],
    });
    expect(forBob.get(bolt.id)!.describedBy!.map((d) => (d as { number: string }).number)).toEqual([
      '0000000002',
      '0000000901',
    ]);
    // carol: the bolt's link to the test plan is hers to read (Standard Parts), the test plan is not.
    const forCarol = await load('carol', ['describedBy'], [bolt]);
    expect(forCarol.get(bolt.id)!.describedBy!.map((d) => (d as { number: string }).number)).toEqual(['0000000901']);
    const forAdmin = await load('admin', ['describedBy'], [driveUnit]);
    expect(forAdmin.get(driveUnit.id)!.describedBy!.map((d) => (d as { number: string }).number)).toEqual([
      '0000000001',
      'SP00001-X',
    ]);
  });

  it('gives nothing of an item the caller may not read, and every association asked for to every item', async () => {
    const got = await load('bob', ['files', 'uses', 'describedBy'], [secretDoc, catalogue]);
    expect(got.get(secretDoc.id)).toEqual({ files: [], uses: [], describedBy: [] });
    expect(got.get(catalogue.id)).toEqual({
      files: [expect.objectContaining({ filename: 'catalogue.csv' })],
      uses: [],
      describedBy: [],
    });
    expect(await loader.load([], [spec], null, BASE)).toEqual(new Map([[spec.id, {}]]));
    expect(await loader.load(['files'], [], null, BASE)).toEqual(new Map());
  });

  describe('a page of 100 items', () => {
    let items: Item[];

    beforeAll(async () => {
      // 100 parts in a container of their own, each with two files, an attribute, a usage link to
      // the next part, one from the part before it, and a describe link to a document.
      const container = await one(
        `INSERT INTO containers (class, name) VALUES ('wt.pdmlink.PDMLinkProduct', 'Association Page') RETURNING id`,
        [],
      );
      const doc = await addMaster(DOC, 'AP-DOC', container);
      items = [];
      for (let n = 1; n <= 100; n++)
        items.push(await addMaster(PART, `AP-${String(n).padStart(3, '0')}`, container, { n }));
      for (const [k, item] of items.entries()) {
        await addFile(item.id, 'PRIMARY', 'part.txt', 'text/plain', Buffer.from(`part ${k}\n`));
        await addFile(item.id, 'THUMBNAIL', 'thumbnail.png', 'image/png', PNG);
        await addUse(item.id, items[(k + 1) % items.length], 10);
        await addDescribe(item, doc, container);
      }
    });

    const loadAll = (page: Item[]) => loader.load(ASSOCIATION_NAMES, page, null, BASE);

    it('loads all six associations in one statement each, whatever the number of items', async () => {
      await loadAll(items.slice(0, 1)); // the catalog is read here once, then kept
      let loaded = new Map<number, Partial<Record<AssociationName, unknown[]>>>();
      const ten = await statementsOf(() => loadAll(items.slice(0, 10)));
      const hundred = await statementsOf(async () => {
        loaded = await loadAll(items);
      });
      expect(ten).toHaveLength(ASSOCIATION_NAMES.length);
      expect(hundred).toHaveLength(ASSOCIATION_NAMES.length);
      expect([...hundred].sort()).toEqual(
        [
          'query-assoc-attributes-all',
          'query-assoc-described-by-all',
          'query-assoc-files-all-all',
          'query-assoc-files-roles-all',
          'query-assoc-used-by-all',
          'query-assoc-uses-all',
        ].sort(),
      );
      // Every item got every association: the statements did the work of all 100.
      expect(loaded.size).toBe(100);
      for (const item of items) {
        expect(loaded.get(item.id)).toEqual({
          files: [expect.objectContaining({ role: 'PRIMARY' }), expect.objectContaining({ role: 'THUMBNAIL' })],
          ibas: [{ name: 'n', value: expect.any(Number) }],
          representations: [expect.objectContaining({ role: 'THUMBNAIL' })],
          uses: [expect.objectContaining({ number: expect.stringMatching(/^AP-/) })],
          usedBy: [expect.objectContaining({ number: expect.stringMatching(/^AP-/) })],
          describedBy: [expect.objectContaining({ number: 'AP-DOC' })],
        });
      }
    });

    it('would see a loader that went item by item: its count grows with the items', async () => {
      const itemByItem = await statementsOf(async () => {
        for (const item of items.slice(0, 10)) await loadAll([item]);
      });
      expect(itemByItem).toHaveLength(10 * ASSOCIATION_NAMES.length);
    });

    it(`lists at most ${ASSOCIATION_MAX_PER_ITEM} entries of an association per item, the first in its order`, async () => {
      const [first] = items;
      for (let k = 1; k < items.length; k++) await addUse(first.id, items[k], 1000 + k);
      await addUse(first.id, items[0], null);
      const uses = (await loadAll([first])).get(first.id)!.uses as { number: string; lineNumber: number | null }[];
      expect(uses).toHaveLength(ASSOCIATION_MAX_PER_ITEM);
      // By line number, none last: the link of line 10 first, the one without a line number cut.
      expect(uses[0]).toMatchObject({ number: 'AP-002', lineNumber: 10 });
      expect(uses.at(-1)).toMatchObject({ number: 'AP-100', lineNumber: 1099 });
    });
  });
});
