import { readFileSync } from 'node:fs';
import { QML_ELEMENTS } from './qml-dialect.js';
import { QML_QUERY_ELEMENTS } from './qml-dialect-new.js';

const source = readFileSync(new URL('./qml-layout-new.ts', import.meta.url), 'utf8');
const listed = new Map(QML_QUERY_ELEMENTS.map((e) => [e.name, e]));
const shared = new Set(QML_ELEMENTS.map((e) => e.name));

/**
 * The reference lists the qml/query layout from QML_QUERY_ELEMENTS (and the elements it shares
 * with the statement layout from QML_ELEMENTS). These tests fail when qml-layout-new.ts accepts
 * an element or reads an attribute neither list has, or the list names one it does not read.
 */
describe('QML_QUERY_ELEMENTS (the qml/query layout as data)', () => {
  it('names every element the front end accepts that the statement layout lacks', () => {
    const accepted = new Set<string>();
    for (const m of source.matchAll(/\bonly\(\w+, \[([^\]]*)\]\)/g)) {
      for (const n of m[1].matchAll(/'(\w+)'/g)) accepted.add(n[1]);
    }
    for (const m of source.matchAll(/\b(?:one|optional)\([\w.]+, '(\w+)'\)/g)) accepted.add(m[1]);
    for (const m of source.matchAll(/^\s+(\w+Condition): \[/gm)) accepted.add(m[1]);
    const unlisted = [...accepted].filter((n) => !listed.has(n) && !shared.has(n));
    expect(unlisted).toEqual([]);
    const own = [...listed.keys()].filter((n) => !shared.has(n) && n !== 'script');
    expect(own.filter((n) => !accepted.has(n) && !source.includes(`case '${n}'`))).toEqual([]);
  });

  it('lists every attribute the front end reads', () => {
    const read = new Set<string>();
    for (const m of source.matchAll(/(?<!this)\.attrs\.(\w+)|\b(?:bool|value)\([\w.]+, '(\w+)'/g))
      read.add(m[1] ?? m[2]);
    const names = new Set(
      [...QML_QUERY_ELEMENTS, ...QML_ELEMENTS].flatMap((e) => [
        ...e.attributes.map((a) => a.name),
        ...(e.ignored ?? []),
      ]),
    );
    expect([...read].filter((a) => !names.has(a))).toEqual([]);
    const own = QML_QUERY_ELEMENTS.filter((e) => !shared.has(e.name) || e.name === 'reportAttribute').flatMap((e) =>
      e.attributes.map((a) => a.name),
    );
    expect(own.filter((a) => !read.has(a) && a !== 'alias')).toEqual([]);
  });

  it('lists each element’s children with the element as their parent', () => {
    for (const e of QML_QUERY_ELEMENTS) {
      for (const c of e.children) {
        const spec = listed.get(c) ?? QML_ELEMENTS.find((x) => x.name === c);
        expect({ child: c, known: spec !== undefined }).toEqual({ child: c, known: true });
        if (listed.has(c))
          expect({ child: c, parent: listed.get(c)!.parents.includes(e.name) }).toEqual({ child: c, parent: true });
      }
    }
  });
});
