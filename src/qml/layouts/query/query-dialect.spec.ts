import { QML_ELEMENTS } from '../statement/statement-dialect.js';
import { QML_QUERY_ELEMENTS } from './query-dialect.js';
import { ElementLog, exampleDocuments, firstElement, unlistedChild } from '../dialect.fixtures.js';
import { compileQueryLayout } from './query-layout.js';
import { doc, NAME } from './query-layout.fixtures.js';
import { parseQml } from '../../parse/parse.js';

const listed = new Map(QML_QUERY_ELEMENTS.map((e) => [e.name, e]));
const shared = new Set(QML_ELEMENTS.map((e) => e.name));

/** The example templates of the qml/query layout, and a list test, none of which uses. */
const documents = [
  ...exampleDocuments('query'),
  parseQml(
    doc(
      NAME,
      '<where><condition><inCondition><operand><column alias="D">name</column></operand><inOperator type="in"/>' +
        '<inOperand><delimitedList><constant>A</constant></delimitedList></inOperand></inCondition></condition></where>',
    ),
  ),
];
const log = new ElementLog();
for (const root of documents) compileQueryLayout(log.watch(root), {});

/**
 * The reference lists the qml/query layout from QML_QUERY_ELEMENTS (and the elements it shares
 * with the statement layout from QML_ELEMENTS). These tests fail when the front end
 * (query-layout.ts) accepts an element or reads an attribute neither list has, or the list
 * names one it does not read: they watch it compile the documents above.
 */
describe('QML_QUERY_ELEMENTS (the qml/query layout as data)', () => {
  it('names every element the front end accepts that the statement layout lacks', () => {
    const accepted = [...log.children.keys()];
    expect(accepted.filter((n) => !listed.has(n) && !shared.has(n))).toEqual([]);
    const own = [...listed.keys()].filter((n) => !shared.has(n));
    // script is listed to be refused: the front end never runs one.
    expect(own.filter((n) => !accepted.includes(n))).toEqual(['script']);
    const withScript = parseQml(
      doc('<reportAttribute reportAttributeId="S"><script className="a.B"/></reportAttribute>'),
    );
    expect(() => compileQueryLayout(withScript, {})).toThrow('scripts (Java callbacks such as a.B) never run here');
    // An element no list names is refused inside each element of this layout's own.
    for (const name of own.filter((n) => n !== 'script')) {
      const copy = structuredClone(documents.find((r) => firstElement(r, name))!);
      const el = firstElement(copy, name)!;
      el.children.push(unlistedChild(el));
      expect(refusal(() => compileQueryLayout(copy, {}))).toContain(`unexpected element "unlisted" in ${name}`);
    }
  });

  it('lists every attribute the front end reads', () => {
    const names = new Set(
      [...QML_QUERY_ELEMENTS, ...QML_ELEMENTS].flatMap((e) => [
        ...e.attributes.map((a) => a.name),
        ...(e.ignored ?? []),
      ]),
    );
    const read = new Set([...log.reads.values()].flatMap((r) => [...r]));
    expect([...read].filter((a) => !names.has(a))).toEqual([]);
    for (const e of QML_QUERY_ELEMENTS.filter((x) => !shared.has(x.name) || x.name === 'reportAttribute')) {
      const unread = e.attributes.map((a) => a.name).filter((a) => a !== 'alias' && !log.reads.get(e.name)?.has(a));
      expect({ element: e.name, unread }).toEqual({ element: e.name, unread: [] });
    }
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

/** The message of the compile's refusal; empty when it accepts. */
function refusal(compile: () => unknown): string {
  try {
    compile();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
