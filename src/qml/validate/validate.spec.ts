import { rejection } from '../qml-rejection.fixtures.js';
import { parseQml } from '../parse/parse.js';
import { validateQml } from './validate.js';

const validate = (xml: string) => validateQml(parseQml(xml));

/** A document around a query body. */
const q = (body: string, params = '', root = '<qml>') =>
  `${root}${params}<statement><query>${body}</query></statement></qml>`;
const FROM = '<from><table alias="D">wt.doc.WTDocument</table></from>';
const SEL = '<select><column alias="D" heading="N">number</column></select>';

const reason = (xml: string) => rejection(() => validate(xml));

describe('validateQml', () => {
  it('resolves columns, objects, functions and constants in select order', () => {
    const t = validate(
      q(`<select distinct="true"><object alias="D" heading="Obj" propertyName=""/><column alias="D" heading="N" propertyName="ignored">master&gt;number</column>
        <function name="upper" heading="U"><column alias="D">name</column></function><constant heading="K" type="java.lang.Long">5</constant>
        <object alias="D" heading="Ctx"><property name="container"><property name="name"/></property></object></select>${FROM}`),
    );
    expect(t.distinct).toBe(true);
    expect(t.group).toBe(false);
    expect(t.select.map((s) => [s.heading, s.expr.k, s.objectClass])).toEqual([
      ['Obj', 'prop', 'wt.doc.WTDocument'],
      ['N', 'prop', null],
      ['U', 'fn', null],
      ['K', 'const', null],
      ['Ctx', 'prop', null],
    ]);
    expect(t.select[1].expr).toMatchObject({ prop: { at: { column: 'number', aux: 'master' }, type: 'string' } });
    expect(t.select[4].expr).toMatchObject({ prop: { at: { column: 'name', aux: 'container' } } });
    expect(t.select[2].expr).toMatchObject({ fn: { name: 'UPPER' }, type: 'string' });
  });

  it('reads parameters with defaults and macros', () => {
    const t = validate(
      q(
        `${SEL}${FROM}`,
        '<parameter name="n" type="java.lang.String"><parameterDefault isMacro="false">*</parameterDefault></parameter><parameter name="u" type="x"><parameterDefault isMacro="true">CURRENT_USER</parameterDefault></parameter><parameter name="p"/>',
      ),
    );
    expect(t.parameters.map((p) => [p.name, p.declaredType, p.hint, p.default])).toEqual([
      ['n', 'java.lang.String', 'string', { text: '*', isMacro: false }],
      ['u', 'x', null, { text: 'CURRENT_USER', isMacro: true }],
      ['p', '', null, null],
    ]);
  });

  it('reads every condition form, nested freely', () => {
    const t = validate(
      q(`${SEL}${FROM}<where><compositeCondition type="or">
        <condition><operand><column alias="D">name</column></operand><operator type="like"/><operand><constant>a*</constant></operand></condition>
        <compositeCondition type="and">
          <condition><operand><column alias="D">title</column></operand><nullOperator type="isNull"/></condition>
          <condition><operand><column alias="D">state.state</column></operand><inOperator type="notIn"/><inOperand><delimitedList delimiter="|"><constant>A|B</constant></delimitedList></inOperand></condition>
        </compositeCondition></compositeCondition></where>`),
    );
    expect(t.where).toMatchObject({
      k: 'or',
      parts: [
        { k: 'cmp', op: 'like' },
        {
          k: 'and',
          parts: [
            { k: 'null', not: false },
            { k: 'in', not: true, items: [{ delimiter: '|' }] },
          ],
        },
      ],
    });
  });

  it.each(['equal', 'notEqual', 'lessThan', 'lessThanOrEqual', 'greaterThan', 'greaterThanOrEqual', 'like', 'notLike'])(
    'accepts the operator %s',
    (op) => {
      const t = validate(
        q(
          `${SEL}${FROM}<where><condition><operand><column alias="D">name</column></operand><operator type="${op}"/><operand><constant>x</constant></operand></condition></where>`,
        ),
      );
      expect(t.where).toMatchObject({ k: 'cmp', op });
    },
  );

  it.each(['UPPER', 'LOWER', 'LENGTH', 'COUNT', 'MIN', 'MAX'])('accepts the one-argument function %s', (fn) => {
    const t = validate(
      q(`<select><function name="${fn}" heading="F"><column alias="D">name</column></function></select>${FROM}`),
    );
    expect(t.select[0].expr).toMatchObject({ k: 'fn', fn: { name: fn } });
  });

  it('types functions', () => {
    const t = validate(
      q(`<select group="true"><column alias="D" heading="S">state.state</column>
        <function name="SUM" heading="A"><column alias="D">iterationInfo.identifier.iterationId</column></function>
        <function name="AVG" heading="B"><column alias="D">iterationInfo.identifier.iterationId</column></function>
        <function name="ADD" heading="C"><column alias="D">thePersistInfo.createStamp</column><constant>1</constant></function>
        <function name="SUBTRACT" heading="E"><constant>1</constant><constant>2</constant></function>
        <function name="SYSDATE" heading="F"/><function name="CONCAT" heading="G"><constant>a</constant><constant>b</constant></function>
        <function name="SUBSTRING" heading="H"><column alias="D">name</column><constant>1</constant><constant>2</constant></function>
        <function name="COUNT" heading="I"/></select>${FROM}`),
    );
    expect(t.select.map((s) => (s.expr.k === 'fn' ? s.expr.type : 'col'))).toEqual([
      'col',
      'long',
      'double',
      'timestamp',
      'double',
      'timestamp',
      'string',
      'string',
      'long',
    ]);
  });

  it('reads tables, outer joins, reference and link joins and order by', () => {
    const t = validate(
      q(`<select><column alias="P" heading="N">number</column><column alias="L" heading="Q">quantity.amount</column></select>
        <from><table alias="P">wt.part.WTPart</table><table alias="L">wt.part.WTPartUsageLink</table><table alias="M" outerJoinAlias="L">wt.part.WTPartMaster</table><table alias="F">wt.content.ApplicationData</table></from>
        <orderBy><orderByItem type="desc"><columnTarget heading="Q"/></orderByItem><orderByItem><columnTarget heading="N"/></orderByItem></orderBy>
        <referenceJoin><join name="roleAObjectRef"><aliasTarget alias="L"/><aliasTarget alias="P"/></join></referenceJoin>
        <linkJoin><join name="wt.content.HolderToContent"><aliasTarget alias="P"/><aliasTarget alias="F"/></join><join name="wt.part.WTPartUsageLink"><aliasTarget alias="P"/><aliasTarget alias="M"/></join></linkJoin>`),
    );
    expect(t.tables.map((x) => [x.alias, x.cls.storage, x.outerJoinTo])).toEqual([
      ['P', 'iteration', null],
      ['L', 'usageLink', null],
      ['M', 'master', 1],
      ['F', 'content', null],
    ]);
    expect(t.orderBy).toMatchObject([
      { item: 1, desc: true },
      { item: 0, desc: false },
    ]);
    expect(t.joins.map((j) => [j.k, j.k === 'reference' ? [j.from, j.to] : [j.a, j.b]])).toEqual([
      ['reference', [1, 0]],
      ['link', [0, 3]],
      ['link', [0, 2]],
    ]);
  });

  it('accepts custom attributes of iterations and types them by the hint', () => {
    const t = validate(
      q(
        `<select><column alias="D" heading="W" type="java.lang.Double">WCTYPE|wt.doc.WTDocument|com.acme.Spec~IBA|weight</column><column alias="D" heading="L">WCTYPE|wt.doc.WTDocument~MBA|language</column></select>${FROM}`,
      ),
    );
    expect(t.select.map((s) => s.expr)).toMatchObject([
      { prop: { json: { key: 'weight' }, type: 'double' } },
      { prop: { json: { key: 'language' }, type: 'string' } },
    ]);
  });

  const P = '/qml/statement/query';
  it.each([
    [
      q(`${SEL}${FROM}`, '', '<qml bypassAccessControl="yes">'),
      '/qml/@bypassAccessControl: "yes" is not true or false',
    ],
    [
      '<qml><parameter name="a"/><parameter name="a"/><statement/></qml>',
      '/qml/parameter[2]: parameter "a" is declared twice',
    ],
    ['<qml><parameter/></qml>', '/qml/parameter[1]: attribute "name" is required'],
    ['<qml><foo/></qml>', '/qml/foo: unexpected element "foo" in qml'],
    ['<qml></qml>', '/qml: qml needs exactly one statement element, found 0'],
    [q(SEL), `${P}: query needs exactly one from element, found 0`],
    [q(`${SEL}<from/>`), `${P}/from: from needs at least one table`],
    [
      q(`${SEL}<from><table alias="D">wt.doc.WTDocument</table><table alias="D">wt.part.WTPart</table></from>`),
      `${P}/from/table[2]: alias "D" is declared twice`,
    ],
    [q(`${SEL}<from><table>wt.doc.WTDocument</table></from>`), `${P}/from/table[1]: attribute "alias" is required`],
    [
      q(`${SEL}<from><table alias="D" outerJoinAlias="X">wt.doc.WTDocument</table></from>`),
      `${P}/from/table[1]/@outerJoinAlias: alias "X" is not declared in from`,
    ],
    [
      q(`${SEL}<from><table alias="D" outerJoinAlias="D">wt.doc.WTDocument</table></from>`),
      `${P}/from/table[1]/@outerJoinAlias: a table cannot be outer-joined to itself`,
    ],
    [q(`<select/>${FROM}`), `${P}/select: select needs at least one item`],
    [
      q(`<select><column alias="D"/></select>${FROM}`),
      `${P}/select/column[1]: a column needs a property path as its text`,
    ],
    [
      q(`<select><column alias="D">WCTYPE|wt.foo.Bar~IBA|x</column></select>${FROM}`),
      `${P}/select/column[1]: custom attribute x: unknown class wt.foo.Bar: neither it nor its package wt.foo is in the catalog; declare it in the dataset's "types" (docs/catalog.md) as a class (or as a soft type of a known class)`,
    ],
    [
      q(`<select><object alias="D" propertyName="secret"/></select>${FROM}`),
      `${P}/select/object[1]: unknown derived property "secret" of wt.doc.WTDocument`,
    ],
    [
      q(`<select><object alias="D"><property name="a"/><property name="b"/></object></select>${FROM}`),
      `${P}/select/object[1]/property[2]: a property chain has one property per level`,
    ],
    [
      q(`<select><column alias="D">name<x/></column></select>${FROM}`),
      `${P}/select/column[1]/x: unexpected element "x" in column`,
    ],
    [q(`<select><function heading="x"/></select>${FROM}`), `${P}/select/function[1]: attribute "name" is required`],
    [
      q(`<select><function name="CONCAT"><constant>a</constant></function></select>${FROM}`),
      `${P}/select/function[1]: CONCAT takes 2 to 32 argument(s), found 1`,
    ],
    [
      q(`<select><function name="SUM"><function name="COUNT"/></function></select>${FROM}`),
      `${P}/select/function[1]/function[1]: aggregate functions cannot be nested`,
    ],
    [
      q(`<select><function name="SUM"><column alias="D">name</column></function></select>${FROM}`),
      `${P}/select/function[1]/column[1]: SUM needs a number as argument 1, not a string`,
    ],
    [
      q(`<select><function name="AVG"><column alias="D">name</column></function></select>${FROM}`),
      `${P}/select/function[1]/column[1]: AVG needs a number as argument 1, not a string`,
    ],
    [
      q(
        `<select><function name="ADD"><column alias="D">name</column><constant>1</constant></function></select>${FROM}`,
      ),
      `${P}/select/function[1]/column[1]: ADD needs a number as argument 1, not a string`,
    ],
    [
      q(
        `<select><function name="SUBTRACT"><constant>1</constant><column alias="D">thePersistInfo.createStamp</column></function></select>${FROM}`,
      ),
      `${P}/select/function[1]: SUBTRACT takes a timestamp and a number of days, two timestamps, or two numbers`,
    ],
    [
      q(`<select><function name="MAX"><column alias="D">iterationInfo.latest</column></function></select>${FROM}`),
      `${P}/select/function[1]/column[1]: MAX needs a number, text or timestamp as argument 1, not a boolean`,
    ],
    [
      q(
        `<select><function name="SUBSTRING"><column alias="D">name</column><column alias="D">title</column><constant>1</constant></function></select>${FROM}`,
      ),
      `${P}/select/function[1]/column[2]: SUBSTRING needs a number as argument 2, not a string`,
    ],
    [q(`${SEL}${FROM}<where/>`), `${P}/where: where needs exactly one condition or compositeCondition`],
    [
      q(`${SEL}${FROM}<where><compositeCondition type="xor"><condition/></compositeCondition></where>`),
      `${P}/where/compositeCondition[1]/@type: unknown type "xor" (and, or)`,
    ],
    [
      q(`${SEL}${FROM}<where><compositeCondition/></where>`),
      `${P}/where/compositeCondition[1]: compositeCondition needs at least one condition`,
    ],
    [
      q(`${SEL}${FROM}<where><condition><operand><column alias="D">name</column></operand></condition></where>`),
      `${P}/where/condition[1]: a condition is operand, operator, operand (or nullOperator, or inOperator and inOperand), found operand`,
    ],
    [
      q(
        `${SEL}${FROM}<where><condition><operand><column alias="D">name</column></operand><nullOperator type="isEmpty"/></condition></where>`,
      ),
      `${P}/where/condition[1]/nullOperator: unknown type "isEmpty" (isNull, isNotNull)`,
    ],
    [
      q(
        `${SEL}${FROM}<where><condition><operand><column alias="D">name</column></operand><inOperator type="within"/><inOperand/></condition></where>`,
      ),
      `${P}/where/condition[1]/inOperator: unknown type "within" (in, notIn)`,
    ],
    [
      q(
        `${SEL}${FROM}<where><condition><operand><column alias="D">name</column></operand><inOperator type="in"/><inOperand><delimitedList/></inOperand></condition></where>`,
      ),
      `${P}/where/condition[1]/inOperand/delimitedList: delimitedList needs at least one constant or parameterTarget`,
    ],
    [
      q(
        `${SEL}${FROM}<where><condition><operand><column alias="D">name</column></operand><inOperator type="in"/><inOperand><delimitedList delimiter=""><constant>a</constant></delimitedList></inOperand></condition></where>`,
      ),
      `${P}/where/condition[1]/inOperand/delimitedList/@delimiter: the delimiter cannot be empty`,
    ],
    [
      q(
        `${SEL}${FROM}<where><condition><operand/><operator type="equal"/><operand><constant>a</constant></operand></condition></where>`,
      ),
      `${P}/where/condition[1]/operand[1]: an operand holds exactly one item, found 0`,
    ],
    [
      q(
        `${SEL}${FROM}<where><condition><operand><function name="COUNT"/></operand><operator type="equal"/><operand><constant>1</constant></operand></condition></where>`,
      ),
      `${P}/where/condition[1]/operand[1]/function[1]: aggregate functions are not allowed in conditions`,
    ],
    [
      q(
        `${SEL}${FROM}<where><condition><operand><column alias="D">name</column></operand><operator type="equal"/><operand><column alias="D">iterationInfo.latest</column></operand></condition></where>`,
      ),
      `${P}/where/condition[1]: cannot compare a string with a boolean`,
    ],
    [
      q(`${SEL}${FROM}<orderBy><orderByItem type="up"><columnTarget heading="N"/></orderByItem></orderBy>`),
      `${P}/orderBy/orderByItem[1]/@type: unknown type "up" (asc, desc)`,
    ],
    [
      q(`${SEL}${FROM}<orderBy><orderByItem/></orderBy>`),
      `${P}/orderBy/orderByItem[1]: orderByItem needs exactly one columnTarget element, found 0`,
    ],
    [
      q(`${SEL}${FROM}<referenceJoin><join name="masterReference"><aliasTarget alias="D"/></join></referenceJoin>`),
      `${P}/referenceJoin/join[1]: a join names exactly two aliasTarget elements, found 1`,
    ],
    [
      q(
        `${SEL}${FROM}<referenceJoin><join name="masterReference"><aliasTarget alias="D"/><aliasTarget alias="D"/></join></referenceJoin>`,
      ),
      `${P}/referenceJoin/join[1]: reference "masterReference" of wt.doc.WTDocument cannot point to wt.doc.WTDocument (it points to wt.vc.Mastered)`,
    ],
    [
      q(
        `${SEL}${FROM}<linkJoin><join name="wt.foo.Link"><aliasTarget alias="D"/><aliasTarget alias="D"/></join></linkJoin>`,
      ),
      `${P}/linkJoin/join[1]/@name: unknown link class "wt.foo.Link"`,
    ],
    [
      q(
        `${SEL}${FROM}<linkJoin><join name="wt.part.WTPartUsageLink"><aliasTarget alias="D"/><aliasTarget alias="D"/></join></linkJoin>`,
      ),
      `${P}/linkJoin/join[1]: link wt.part.WTPartUsageLink cannot join wt.doc.WTDocument and wt.doc.WTDocument, in either order: it links wt.part.WTPart (role A) to wt.part.WTPartMaster (role B)`,
    ],
    [
      q(
        `${SEL}${FROM}<where><condition><operand><column alias="D">name</column></operand><operator type="equal"/><operand><constant>a</constant></operand></condition></where><where/>`,
      ),
      `${P}/where: query takes at most one where element`,
    ],
  ])('rejects %s', (xml, message) => {
    expect(reason(xml)).toBe(message);
  });
});
