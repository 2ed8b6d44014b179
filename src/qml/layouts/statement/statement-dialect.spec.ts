import { QML_ELEMENTS } from './statement-dialect.js';
import { ElementLog, exampleDocuments, firstElement, unlistedChild } from '../dialect.fixtures.js';
import { parseQml } from '../../parse/parse.js';
import { validateQml } from '../../validate/validate.js';

const listed = new Map(QML_ELEMENTS.map((e) => [e.name, e]));

const doc = (query: string, top = '') =>
  `<qml${top}><statement><query><select><column alias="D">name</column></select>` +
  `<from><table alias="D">wt.doc.WTDocument</table></from>${query}</query></statement></qml>`;
const compile = (qml: string) => () => validateQml(parseQml(qml));
const refusal = (qml: string): string => {
  try {
    validateQml(parseQml(qml));
  } catch (e) {
    return (e as Error).message;
  }
  return '';
};
const where = (op: string, operand2 = '') =>
  doc(`<where><condition><operand><column alias="D">name</column></operand>${op}${operand2}</condition></where>`);

/** The example templates of the statement layout, as the validator accepted them. */
const examples = exampleDocuments('statement');
const log = new ElementLog();
for (const root of examples) validateQml(log.watch(root));

/**
 * The reference (docs/qml-reference.md) lists what QML_ELEMENTS says. These tests fail when the
 * validator accepts an element or reads an attribute the list lacks, or the other way round:
 * they watch it validate the example templates (docs/examples), which use every element.
 */
describe('QML_ELEMENTS (the dialect as data)', () => {
  it('names every element the validator accepts, and no other', () => {
    expect([...log.children.keys()].sort()).toEqual([...listed.keys()].sort());
    // Any element a list does not name is refused, wherever it is put (an aliasTarget holds none).
    const ignoring: string[] = [];
    for (const name of listed.keys()) {
      const copy = structuredClone(examples.find((r) => firstElement(r, name))!);
      const el = firstElement(copy, name)!;
      el.children.push(unlistedChild(el));
      try {
        validateQml(copy);
        ignoring.push(name);
      } catch (e) {
        expect((e as Error).message).toContain(`unexpected element "unlisted" in ${name}`);
      }
    }
    expect(ignoring).toEqual([]);
  });

  it('lists every attribute the validator reads, and no other', () => {
    for (const e of QML_ELEMENTS) {
      const read = [...(log.reads.get(e.name) ?? [])].sort();
      expect({ element: e.name, read }).toEqual({ element: e.name, read: e.attributes.map((a) => a.name).sort() });
    }
  });

  it('lists each element’s children as the validator accepts them', () => {
    for (const [name, children] of log.children) {
      const unlisted = [...children].filter((c) => !listed.get(name)!.children.includes(c));
      expect({ name, unlisted }).toEqual({ name, unlisted: [] });
    }
    for (const e of QML_ELEMENTS) {
      for (const c of e.children)
        expect({ child: c, parents: listed.get(c)?.parents.includes(e.name) }).toEqual({ child: c, parents: true });
    }
  });

  it('accepts every listed type value and refuses another, naming the listed ones', () => {
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
      // Where the refusal names the values the validator takes, they are the listed ones
      // (operator's are the comparison operators the list is built from).
      const named = /unknown type "approximately" \(([^)]*)\)/.exec(refusal(build('approximately')))?.[1];
      expect({ el, named: named ?? values.join(', ') }).toEqual({ el, named: values.join(', ') });
    }
  });
});
