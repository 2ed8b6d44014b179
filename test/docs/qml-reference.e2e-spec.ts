import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  buildReference,
  buildReportsPage,
  readReferenceInput,
  REFERENCE_FILE,
  REPORTS_FILE,
} from '../../scripts/qml-reference.js';
import { dialectCatalog } from '../../src/qml/reference/dialect-catalog.js';
import { MACROS, QML_ELEMENTS } from '../../src/qml/layouts/statement/statement-dialect.js';
import { COMPARISON_OPERATORS, listFunctions } from '../../src/qml/functions/functions.js';
import { unusedByExamples } from '../../src/qml/reference/reference.js';

const root = process.cwd();
const committed = () => readFileSync(join(root, REFERENCE_FILE), 'utf8');

/**
 * docs/qml-reference.md is generated (npm run docs:qml) from docs/qml/reference.src.md,
 * docs/examples and the compiler's lists; these tests fail when it is stale or incomplete.
 * qml-examples.e2e-spec.ts runs the examples against the demo data.
 */
describe('docs/qml-reference.md', () => {
  it('is what npm run docs:qml writes now', () => {
    expect(committed()).toBe(buildReference(root));
  });

  it('docs/reports.md lists every catalog class with its properties, as npm run docs:qml writes it', () => {
    const page = readFileSync(join(root, REPORTS_FILE), 'utf8');
    expect(page).toBe(buildReportsPage(root));
    for (const c of dialectCatalog().classes) expect(page).toContain(`| \`${c.name}\` |`);
  });

  it('has an example for every element, attribute value, function, macro and storage kind of the catalog', () => {
    expect(unusedByExamples(readReferenceInput(root))).toEqual([]);
  });

  it('names every class, property, reference, link class, function, operator, macro, element and attribute', () => {
    const text = committed();
    const catalog = dialectCatalog();
    const names = [
      ...catalog.classes.flatMap((c) => [
        c.name,
        ...c.properties.map((p) => p.path),
        ...c.derived.map((d) => d.path),
        ...c.references.map((r) => r.name),
      ]),
      ...catalog.links.map((l) => l.name),
      ...listFunctions().map((f) => f.name),
      ...COMPARISON_OPERATORS,
      ...MACROS,
      ...QML_ELEMENTS.flatMap((e) => [e.name, ...e.attributes.flatMap((a) => [a.name, ...(a.values ?? [])])]),
    ];
    const missing = names.filter((n) => !text.includes(`\`${n.replace(/\|/g, '\\|')}\``));
    expect(missing).toEqual([]);
  });
});

describe('QML files named in README.md and docs/', () => {
  it('exist: every .qml file, and every file a curl command sends with @', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const named = pages.flatMap((page) => {
      const text = readFileSync(join(root, page), 'utf8');
      const names = [...text.matchAll(/@([\w./-]+\.(?:qml|xml))\b|([\w./-]+\.qml)\b/g)].map((m) => m[1] ?? m[2]);
      return names.map((name) => ({ page, name }));
    });
    // Commands run from the repository's root; links are relative to their page.
    const absent = named.filter(
      ({ page, name }) => !existsSync(join(root, name)) && !existsSync(join(root, dirname(page), name)),
    );
    expect(absent).toEqual([]);
    expect(named.map((n) => n.name)).toContain('docs/examples/documents-by-number.qml');
  });
});
