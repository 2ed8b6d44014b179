import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dialectCatalog } from '../src/qml/reference/dialect-catalog.js';
import { renderQmlReference, type ReferenceExample, type ReferenceInput } from '../src/qml/reference/reference.js';

/**
 * Writes docs/qml-reference.md from docs/qml/reference.src.md, the examples in docs/examples
 * (their QML files and examples.json: titles, runs and the rows the demo data gives) and the
 * compiler's lists. `npm run docs:qml`; with `--check` it only says whether the file is current.
 */
export const REFERENCE_FILE = 'docs/qml-reference.md';

type Manifest = Omit<ReferenceExample, 'qml'>[];

/** The generator's input, read from the repository at `root`. */
export function readReferenceInput(root: string): ReferenceInput {
  const dir = join(root, 'docs', 'examples');
  const manifest = JSON.parse(readFileSync(join(dir, 'examples.json'), 'utf8')) as Manifest;
  const files = readdirSync(dir).filter((f) => f.endsWith('.qml'));
  const listed = new Set(manifest.map((m) => `${m.name}.qml`));
  const unlisted = files.filter((f) => !listed.has(f));
  if (unlisted.length) throw new Error(`docs/examples/examples.json does not describe ${unlisted.join(', ')}`);
  return {
    source: readFileSync(join(root, 'docs', 'qml', 'reference.src.md'), 'utf8'),
    catalog: dialectCatalog(),
    examples: manifest.map((m) => ({ ...m, qml: readFileSync(join(dir, `${m.name}.qml`), 'utf8') })),
  };
}

export function buildReference(root: string): string {
  return renderQmlReference(readReferenceInput(root));
}

export const REPORTS_FILE = 'docs/reports.md';
const BLOCK = /(<!-- generated: catalog-classes -->\n)[\s\S]*?(<!-- end: catalog-classes -->)/;

/** docs/reports.md with its list of catalog classes and their properties made from the catalog. */
export function buildReportsPage(root: string): string {
  const page = readFileSync(join(root, REPORTS_FILE), 'utf8');
  if (!BLOCK.test(page)) throw new Error(`${REPORTS_FILE} has no catalog-classes block`);
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  const rows = dialectCatalog().classes.map((c) => {
    const props = [...c.properties, ...c.derived].map((p) => `\`${esc(p.path)}\``);
    return `| \`${c.name}\` | ${c.storage} | ${esc(c.about)} | ${[...new Set(props)].join(', ')} |`;
  });
  const table = [
    '| class | storage | what | properties and derived properties |',
    '| --- | --- | --- | --- |',
    ...rows,
  ];
  return page.replace(BLOCK, (_m, start: string, end: string) => `${start}${table.join('\n')}\n${end}`);
}

function main(): void {
  const root = process.cwd();
  const text = buildReference(root);
  const file = join(root, REFERENCE_FILE);
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // a missing file is simply not current
    }
    if (current !== text || readFileSync(join(root, REPORTS_FILE), 'utf8') !== buildReportsPage(root)) {
      console.error(`${REFERENCE_FILE} or ${REPORTS_FILE} is not current: run npm run docs:qml`);
      process.exitCode = 1;
    }
    return;
  }
  writeFileSync(file, text);
  writeFileSync(join(root, REPORTS_FILE), buildReportsPage(root));
  console.log(`wrote ${REFERENCE_FILE} and the catalog classes of ${REPORTS_FILE}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
