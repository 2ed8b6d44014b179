import type pg from 'pg';
import yauzl from 'yauzl';
import { validateDataset } from '../../src/import/dataset.js';
import { importDataset } from '../../src/import/importer.js';
import { createPrismaService } from '../../src/prisma/client.js';
import { testDatabaseUrl } from '../helpers/test-database.js';

type FileSpec = { role: string; filename: string; text: string };

/**
 * Two containers of the test file's own: "<prefix> Zip" (alice author, bob reader) with an
 * assembly, its structure two levels deep, a document describing it, a drawing built from it, a
 * change order whose activity affects a sub-assembly, and objects whose numbers and file names
 * would escape a folder or collide; "<prefix> Hidden" (no member) with a part the assembly uses.
 */
export async function importZipFixture(prefix: string): Promise<void> {
  const container = `${prefix} Zip`;
  const hidden = `${prefix} Hidden`;
  const part = (number: string, files: FileSpec[], uses: string[] = [], where = container) => ({
    class: 'wt.part.WTPart',
    number,
    name: `part ${number}`,
    container: where,
    files,
    uses: uses.map((u) => ({ number: u })),
  });
  const data = validateDataset({
    format: 'pdm-dataset/1',
    containers: [
      { name: container, class: 'wt.pdmlink.PDMLinkProduct', members: { alice: 'author', bob: 'reader' } },
      { name: hidden, class: 'wt.pdmlink.PDMLinkProduct', members: {} },
    ],
    objects: [
      part(
        `${prefix}-ASM`,
        [
          { role: 'PRIMARY', filename: 'asm.txt', text: 'assembly\n' },
          { role: 'SECONDARY', filename: 'notes.txt', text: 'assembly notes\n' },
        ],
        [`${prefix}-SUB`, `${prefix}-HID`],
      ),
      part(`${prefix}-SUB`, [{ role: 'PRIMARY', filename: 'sub.txt', text: 'sub-assembly\n' }], [`${prefix}-LEAF`]),
      part(`${prefix}-LEAF`, [{ role: 'PRIMARY', filename: 'leaf.txt', text: 'leaf part\n' }]),
      part(`${prefix}-HID`, [{ role: 'PRIMARY', filename: 'secret.txt', text: 'secret\n' }], [], hidden),
      {
        class: 'wt.doc.WTDocument',
        number: `${prefix}-DOC`,
        name: 'assembly specification',
        container,
        files: [{ role: 'PRIMARY', filename: 'spec.txt', text: 'specification\n' }],
      },
      {
        class: 'wt.epm.EPMDocument',
        subtype: 'CADDRAWING',
        number: `${prefix}-DRW`,
        name: 'assembly drawing',
        container,
        files: [{ role: 'PRIMARY', filename: 'asm.drw', text: 'drawing\n' }],
      },
      { class: 'wt.doc.WTDocument', number: `${prefix}-BIG`, name: 'large files', container, files: [] },
      { class: 'wt.change2.WTChangeOrder2', number: `${prefix}-CN`, name: 'change', container },
      { class: 'wt.change2.WTChangeActivity2', number: `${prefix}-CA`, name: 'activity', container },
      // Names that would escape their folder or collide once extracted.
      part(`${prefix}-NAMES`, [], [`../../${prefix}-up`, `/${prefix}-abs`, `${prefix}-dup`]),
      part(`../../${prefix}-up`, [{ role: 'PRIMARY', filename: '..txt', text: 'up\n' }]),
      part(`/${prefix}-abs`, [{ role: 'PRIMARY', filename: 'abs.txt', text: 'abs\n' }]),
      part(`${prefix}-dup`, [
        { role: 'PRIMARY', filename: 'Same.txt', text: 'upper\n' },
        { role: 'SECONDARY', filename: 'same.txt', text: 'lower\n' },
        { role: 'SECONDARY', filename: 'manifest.json', text: '{}\n' },
      ]),
    ],
    links: [
      { class: 'wt.part.WTPartDescribeLink', a: `${prefix}-ASM`, b: `${prefix}-DOC`, container },
      { class: 'wt.epm.build.EPMBuildRule', a: `${prefix}-DRW`, b: `${prefix}-ASM`, container },
      { class: 'wt.change2.IncludedIn2', a: `${prefix}-CN`, b: `${prefix}-CA`, container },
      {
        class: 'wt.change2.AffectedActivityData',
        a: `${prefix}-CA`,
        b: { class: 'wt.part.WTPart', number: `${prefix}-SUB` },
        container,
      },
    ],
  });
  const { prisma, close } = createPrismaService(testDatabaseUrl(), 1);
  try {
    await importDataset(prisma, data);
  } finally {
    await close();
  }
}

/** Removes what importZipFixture made (links go with their ends' masters' iterations). */
export async function removeZipFixture(db: pg.Pool, prefix: string): Promise<void> {
  const names = [`${prefix} Zip`, `${prefix} Hidden`];
  await db.query('DELETE FROM links WHERE container_id IN (SELECT id FROM containers WHERE name = ANY($1))', [names]);
  await db.query('DELETE FROM masters WHERE container_id IN (SELECT id FROM containers WHERE name = ANY($1))', [names]);
  await db.query('DELETE FROM containers WHERE name = ANY($1)', [names]);
}

/** The entries of a ZIP archive: name → bytes, in archive order. */
export function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (e, zip) => {
      if (e || !zip) return reject(e ?? new Error('no zip'));
      const entries = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const parts: Buffer[] = [];
          stream.on('data', (c: Buffer) => parts.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
