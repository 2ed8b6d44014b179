import { attr, doc, input, NAME, NUMBER, reason, ref, std } from './query-layout.fixtures.js';

describe('the qml/query layout: rejections name the element', () => {
  const cases: [string, string, string][] = [
    [
      'a script',
      doc(attr('S', '<script className="com.acme.Helper" name="f" type=""><column alias="D">name</column></script>')),
      '/qml/query/selectOrConstrain/reportAttribute[1]/script[1]: scripts (Java callbacks such as com.acme.Helper) never run here: remove the script element, or select its arguments as columns',
    ],
    [
      'an unknown element in query',
      doc(NUMBER, '<statement/>'),
      '/qml/query/statement: unexpected element "statement" in query',
    ],
    [
      'statement and query together',
      `<qml><statement/><query/></qml>`,
      '/qml/statement: unexpected element "statement" in qml',
    ],
    [
      'an unknown element in selectOrConstrain',
      doc(`${NUMBER}<column alias="D">name</column>`),
      '/qml/query/selectOrConstrain/column[1]: unexpected element "column" in selectOrConstrain',
    ],
    [
      'a reportAttribute with two items',
      doc(attr('X', '<column alias="D">name</column><column alias="D">number</column>')),
      '/qml/query/selectOrConstrain/reportAttribute[1]: a reportAttribute wraps exactly one column, object, function, constant or parameterValue, found 2',
    ],
    [
      'a reportAttribute without id or heading',
      doc('<reportAttribute><column alias="D">name</column></reportAttribute>'),
      '/qml/query/selectOrConstrain/reportAttribute[1]: a reportAttribute needs a reportAttributeId (or a heading)',
    ],
    [
      'a duplicate reportAttributeId',
      doc(NUMBER + NUMBER),
      '/qml/query/selectOrConstrain/reportAttribute[2]/@reportAttributeId: reportAttributeId "Number" is declared twice',
    ],
    [
      'a bad boolean',
      doc(attr('N', '<column alias="D">name</column>', { userCanSelect: 'yes' })),
      '/qml/query/selectOrConstrain/reportAttribute[1]/@userCanSelect: "yes" is not true or false',
    ],
    [
      'an unknown property inside a reportAttribute',
      doc(attr('N', '<column alias="D">nonsense</column>')),
      '/qml/query/selectOrConstrain/reportAttribute[1]/column[1]: unknown property "nonsense" of wt.doc.WTDocument',
    ],
    [
      'an unknown class',
      doc(NUMBER, '', '<qml>', '<table alias="D">wt.change2.Nonsense</table>'),
      '/qml/query/from/table[1]: unknown class wt.change2.Nonsense: package wt.change2 is known (wt.change2.VersionableChangeItem, wt.change2.WTChangeIssue, wt.change2.WTChangeIssueMaster, wt.change2.WTChangeRequest2, wt.change2.WTChangeRequest2Master, wt.change2.WTChangeOrder2, …) but not this class; declare it in the dataset\'s "types" (docs/catalog.md) as a class with a parent there',
    ],
    [
      'no result column',
      doc(attr('N', '<column alias="D">name</column>', { userCanSelect: 'false' }) + input('P')),
      '/qml/query/selectOrConstrain: no reportAttribute is a result column (userCanSelect="false" on all, or only parameterValue)',
    ],
    [
      'a reference to an unknown attribute',
      doc(NUMBER, `<where>${std('<column alias="D">name</column>', 'equal', ref('Nope'))}</where>`),
      '/qml/query/where/condition[1]/standardCondition/operand[2]/reportAttributeReference[1]/@id: no reportAttribute has the reportAttributeId "Nope"',
    ],
    [
      'a condition without its form',
      doc(
        NUMBER,
        '<where><condition><operand><column alias="D">name</column></operand><nullOperator type="isNull"/></condition></where>',
      ),
      '/qml/query/where/condition[1]/operand[1]: unexpected element "operand" in condition',
    ],
    [
      'a standardCondition with a nullOperator',
      doc(
        NUMBER,
        '<where><condition><standardCondition><operand><column alias="D">name</column></operand><nullOperator type="isNull"/></standardCondition></condition></where>',
      ),
      '/qml/query/where/condition[1]/standardCondition/nullOperator: unexpected element "nullOperator" in standardCondition',
    ],
    [
      'an unknown operator',
      doc(
        NUMBER,
        `<where>${std('<column alias="D">name</column>', 'approximately', '<constant>x</constant>')}</where>`,
      ),
      '/qml/query/where/condition[1]/standardCondition/operator: unknown type "approximately"',
    ],
    [
      'a type mismatch in a condition',
      doc(
        NUMBER,
        `<where>${std('<column alias="D">name</column>', 'equal', '<column alias="D">iterationInfo.latest</column>')}</where>`,
      ),
      '/qml/query/where/condition[1]/standardCondition: cannot compare a string with a boolean',
    ],
    [
      'an outer join alias not in the join',
      doc(
        NUMBER,
        '<referenceJoin><join name="roleAObjectRef" outerJoinAlias="X"><fromAliasTarget alias="D"/><toAliasTarget alias="D"/></join></referenceJoin>',
      ),
      '/qml/query/referenceJoin/join[1]/@outerJoinAlias: "X" is not one of the two aliases of the join',
    ],
    [
      'a join without toAliasTarget',
      doc(NUMBER, '<referenceJoin><join name="roleAObjectRef"><fromAliasTarget alias="D"/></join></referenceJoin>'),
      '/qml/query/referenceJoin/join[1]: join needs exactly one toAliasTarget element, found 0',
    ],
    [
      'an unknown reference',
      doc(
        NUMBER,
        '<referenceJoin><join name="nope"><fromAliasTarget alias="D"/><toAliasTarget alias="D"/></join></referenceJoin>',
      ),
      '/qml/query/referenceJoin/join[1]/@name: unknown reference "nope" of wt.doc.WTDocument (its references: masterReference, containerReference, iterationInfo.creator, iterationInfo.modifier)',
    ],
    [
      'a condition outerJoinAlias over one table',
      doc(
        NUMBER,
        `<where>${std('<column alias="D">name</column>', 'equal', '<constant>x</constant>', ' outerJoinAlias="D"')}</where>`,
      ),
      '/qml/query/where/condition[1]/@outerJoinAlias: a condition with outerJoinAlias "D" relates that alias to exactly one other table, found "D"',
    ],
    [
      'orderBy on an attribute that is not a result column',
      doc(
        NUMBER + attr('Name', '<column alias="D">name</column>', { userCanSelect: 'false' }),
        `<orderBy><orderByItem>${ref('Name')}</orderByItem></orderBy>`,
      ),
      '/qml/query/orderBy/orderByItem[1]/reportAttributeReference[1]: reportAttribute "Name" is not a result column: only result columns sort',
    ],
    [
      'a bad orderByItem type',
      doc(NUMBER, `<orderBy><orderByItem type="up">${ref('Number')}</orderByItem></orderBy>`),
      '/qml/query/orderBy/orderByItem[1]/@type: unknown type "up" (asc, desc)',
    ],
    [
      'an input with the name of a parameter',
      `<qml><parameter name="P"/><query><selectOrConstrain>${NUMBER}${input('P')}</selectOrConstrain><from><table alias="D">wt.doc.WTDocument</table></from></query></qml>`,
      '/qml/query/selectOrConstrain/reportAttribute[2]: parameter "P" is declared twice',
    ],
    [
      'an element inside layoutSectionHeader',
      doc(
        `<layoutSectionHeader layoutSectionId="s" text="S"><column alias="D">name</column></layoutSectionHeader>${NUMBER}`,
      ),
      '/qml/query/selectOrConstrain/layoutSectionHeader[1]/column[1]: unexpected element "column" in layoutSectionHeader',
    ],
    [
      'two selectOrConstrain elements',
      doc(NUMBER).replace('<from>', `<selectOrConstrain>${NAME}</selectOrConstrain><from>`),
      '/qml/query: query needs exactly one selectOrConstrain element, found 2',
    ],
    [
      'a reportAttributeReference without id',
      doc(NUMBER, `<where>${std('<column alias="D">name</column>', 'equal', '<reportAttributeReference/>')}</where>`),
      '/qml/query/where/condition[1]/standardCondition/operand[2]/reportAttributeReference[1]: attribute "id" is required',
    ],
    [
      'a bad caseInsensitive',
      doc(NUMBER, '', '<qml caseInsensitive="maybe">'),
      '/qml/@caseInsensitive: "maybe" is not true or false',
    ],
  ];
  it.each(cases)('%s', (_what, xml, message) => {
    expect(reason(xml)).toBe(message);
  });
});
