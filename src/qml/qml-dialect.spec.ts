import { readFileSync } from 'node:fs';
import { QML_ELEMENTS } from './qml-dialect.js';
import { parseQml } from './qml-parse.js';
import { validateQml } from './qml-validate.js';

const source = readFileSync(new URL('./qml-validate.ts', import.meta.url), 'utf8');
const listed = new Map(QML_ELEMENTS.map((e) => [e.name, e]));

const doc = (query: string, top = '') =>
  `<qml${top}><statement><query><select><column alias="D">name</column></select>` +
  `<from><table alias="D">wt.doc.WTDocument</table></from>${query}</query></statement></qml>`;
const compile = (qml: string) => () => validateQml(parseQml(qml));
const where = (op: string, operand2 = '') =>
  doc(`<where><condition><operand><column alias="D">name</column></operand>${op}${operand2}</condition></where>`);

/**
 * The reference (docs/qml-reference.md) lists what QML_ELEMENTS says. These tests fail when the
 * validator accepts an element or reads an attribute the list lacks, or the other way round.
 */
describe('QML_ELEMENTS (the dialect as data)', () => {
  it('names every element the validator accepts, and no other', () => {
    const accepted = new Set<string>(['qml']);
    for (const m of source.matchAll(/\bonly\(\w+, \[([^\]]*)\]\)/g)) {
      for (const n of m[1].matchAll(/'(\w+)'/g)) accepted.add(n[1]);
    }
    for (const m of source.matchAll(/\b(?:one|optional)\(\w+, '(\w+)'\)/g)) accepted.add(m[1]);
    expect([...accepted].sort()).toEqual([...listed.keys()].sort());
  });

  it('lists every attribute the validator reads, and no other', () => {
    const read = new Set<string>(['alias']); // this.alias(el) reads `alias` by default
    for (const m of source.matchAll(/\.attrs\.(\w+)|\b(?:requiredAttr|bool)\(\w+, '(\w+)'\)/g)) read.add(m[1] ?? m[2]);
    const names = new Set(QML_ELEMENTS.flatMap((e) => e.attributes.map((a) => a.name)));
    expect([...read].sort()).toEqual([...names].sort());
  });

  it('lists each element’s children as the validator accepts them', () => {
    for (const m of source.matchAll(/\bonly\((\w+), \[([^\]]*)\]\)/g)) {
      const children = [...m[2].matchAll(/'(\w+)'/g)].map((n) => n[1]);
      if (children.length === 0) continue;
      const owners = QML_ELEMENTS.filter((e) => children.every((c) => e.children.includes(c)));
      expect({ children, found: owners.length > 0 }).toEqual({ children, found: true });
    }
    for (const e of QML_ELEMENTS) {
      for (const c of e.children)
        expect({ child: c, parents: listed.get(c)?.parents.includes(e.name) }).toEqual({ child: c, parents: true });
    }
  });

  it('accepts every listed type value and refuses another', () => {
    const cases: [string, (v: string) => string][] = [
      ['operator', (v) => where(`<operator type="${v}"/>`, '<operand><constant>x</constant></operand>')],
      ['nullOperator', (v) => where(`<nullOperator type="${v}"/>`)],
      [
        'inOperator',
        (v) =>
          where(
            `<inOperator type="${v}"/>`,
            '<inOperand><delimitedList><constant>x</constant></delimitedList></inOperand>',
          ),
      ],
      [
        'compositeCondition',
        (v) =>
          doc(
            `<where><compositeCondition type="${v}"><condition><operand><column alias="D">name</column></operand><nullOperator type="isNull"/></condition></compositeCondition></where>`,
          ),
      ],
      [
        'orderByItem',
        (v) => doc(`<orderBy><orderByItem type="${v}"><columnTarget heading="name"/></orderByItem></orderBy>`),
      ],
    ];
    for (const [el, build] of cases) {
      const values = listed.get(el)!.attributes.find((a) => a.name === 'type')!.values!;
      for (const v of values) expect(compile(build(v))).not.toThrow();
      expect(compile(build('approximately'))).toThrow(/unknown type "approximately"/);
    }
  });

  it('lists the literal type values the validator compares with', () => {
    const values = new Set(QML_ELEMENTS.flatMap((e) => e.attributes.flatMap((a) => a.values ?? [])));
    const compared = [...source.matchAll(/\btype [!=]== '(\w+)'/g)].map((m) => m[1]);
    expect(compared.filter((v) => !values.has(v))).toEqual([]);
    expect(compared.length).toBeGreaterThan(5);
  });
});
