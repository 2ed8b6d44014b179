import { buildQuery, compileTemplate, templateLayout } from '../../qml-compiler.js';
import { attr, compile, doc, input, NAME, NUMBER, reason, ref, req, sql, std } from './query-layout.fixtures.js';

describe('the qml/query layout (Windchill 10 and later)', () => {
  it('compiles report attributes into result columns, in order, with their headings', () => {
    const t = compile(doc(`<layoutSectionHeader layoutSectionId="s" text="Section"/>${NUMBER}${NAME}`));
    expect(templateLayout(t)).toBe('query');
    expect(
      templateLayout(
        compile(
          '<qml><statement><query><select><column alias="D">name</column></select><from><table alias="D">wt.doc.WTDocument</table></from></query></statement></qml>',
        ),
      ),
    ).toBe('statement');
    expect(t.select.map((s) => [s.heading, s.path])).toEqual([
      ['Number', '/qml/query/selectOrConstrain/reportAttribute[1]/column[1]'],
      ['Name', '/qml/query/selectOrConstrain/reportAttribute[2]/column[1]'],
    ]);
    expect(t.reportAttributes!.map((a) => [a.id, a.kind, a.selected, a.userCanConstrain])).toEqual([
      ['Number', 'value', true, true],
      ['Name', 'value', true, true],
    ]);
  });

  it('wraps object, function and constant items too', () => {
    const t = compile(
      doc(
        attr('Obj', '<object alias="D" propertyName=""/>') +
          attr('Upper', '<function name="UPPER"><column alias="D">name</column></function>') +
          attr('K', '<constant type="java.lang.Long" isMacro="false" xml:space="preserve">5</constant>'),
      ),
    );
    expect(t.select.map((s) => [s.heading, s.expr.k, s.objectClass])).toEqual([
      ['Obj', 'prop', 'wt.doc.WTDocument'],
      ['Upper', 'fn', null],
      ['K', 'const', null],
    ]);
  });

  it('userCanSelect="false" leaves an attribute out of the result unless alwaysSelect="true"', () => {
    const t = compile(
      doc(
        NUMBER +
          attr('Name', '<column alias="D">name</column>', { userCanSelect: 'false' }) +
          attr('State', '<column alias="D">state.state</column>', { userCanSelect: 'false', alwaysSelect: 'true' }),
      ),
    );
    expect(t.select.map((s) => s.heading)).toEqual(['Number', 'State']);
    expect(sql(t).text).toMatch(/^SELECT "t1m"."number" AS "c1", "t1"."state" AS "c2"\n/);
  });

  it('userCanSelect and alwaysSelect default to true and false', () => {
    const t = compile(doc('<reportAttribute reportAttributeId="N"><column alias="D">name</column></reportAttribute>'));
    expect(t.select.map((s) => s.heading)).toEqual(['N']);
    expect(t.reportAttributes![0]).toMatchObject({ heading: 'N', userCanConstrain: false, selected: true });
  });

  it('selectOrConstrain distinct and group work as select distinct and group', () => {
    const t = compile(
      doc(NUMBER + attr('Count', '<function name="COUNT"/>'), '', '<qml>')
        .replace('group="false"', 'group="true"')
        .replace('distinct="false"', 'distinct="true"'),
    );
    expect([t.distinct, t.group]).toEqual([true, true]);
    expect(sql(t).text).toContain('GROUP BY 1');
    expect(reason(doc(NUMBER + attr('Count', '<function name="COUNT"/>')))).toBe(
      '/qml/query/selectOrConstrain: aggregate functions next to other result columns need selectOrConstrain group="true"',
    );
    // A hidden attribute does not count as a group key.
    const hidden = compile(
      doc(
        attr('Count', '<function name="COUNT"/>') +
          attr('N', '<column alias="D">name</column>', { userCanSelect: 'false' }),
      ),
    );
    expect(sql(hidden).text).not.toContain('GROUP BY');
  });

  it('a request parameter named by reportAttributeId, else by heading, constrains by equality', () => {
    const t = compile(doc(NUMBER + attr('Name', '<column alias="D">name</column>', { heading: 'Document Name' })));
    const byId = sql(t, { Number: '0000000001' });
    expect(byId.text).toContain('"t1m"."number" = $3::text');
    expect(byId.values).toContain('0000000001');
    const byHeading = sql(t, { 'Document Name': 'Test plan' });
    expect(byHeading.text).toContain('"t1m"."name" = $3::text');
    expect(byHeading.values).toContain('Test plan');
    // A heading that is the id of another attribute names that one only.
    const clash = compile(doc(NUMBER + attr('Name_1', '<column alias="D">name</column>', { heading: 'Number' })));
    const s = sql(clash, { Number: 'N1' });
    expect(s.text).toContain('"t1m"."number" = $3::text');
    expect(s.text).not.toContain('"t1m"."name" =');
    // Empty values constrain nothing.
    expect(sql(t, { Number: '', 'Document Name': ' ' }).text).toBe(sql(t).text);
  });

  it('a value with *, ? or % constrains by like', () => {
    const s = sql(doc(NUMBER), { Number: '00*1?%' });
    expect(s.text).toContain('"t1m"."number" LIKE $3::text');
    expect(s.values).toContain('00%1_%');
    expect(sql(doc(NUMBER), { Number: 'a_b' }).text).toContain('"t1m"."number" = $3::text');
  });

  it('values are converted to the attribute type: 400 when they do not fit', () => {
    const t = doc(NUMBER + attr('Iteration', '<column alias="D">iterationInfo.identifier.iterationId</column>'));
    expect(sql(t, { Iteration: '2' }).values).toContain(2);
    expect(reason(t, { Iteration: 'two' })).toBe(
      '/qml/query/selectOrConstrain/reportAttribute[2]: value "two" is not a number',
    );
  });

  it('defaultValue constrains when the request gives no value; the request wins', () => {
    const t = doc(attr('Number', '<column alias="D">number</column>', { defaultValue: '0000*' }));
    expect(sql(t).values).toContain('0000%');
    expect(sql(t, { Number: 'X' }).values).toContain('X');
  });

  it('userCanConstrain="false": no request parameter and no defaultValue constrain', () => {
    const t = doc(
      attr('Number', '<column alias="D">number</column>', { userCanConstrain: 'false', defaultValue: 'X' }),
    );
    expect(sql(t, { Number: 'Y' }).text).toBe(sql(doc(attr('Number', '<column alias="D">number</column>'))).text);
  });

  it('constantValue always constrains and the request cannot change it', () => {
    for (const userCanConstrain of ['true', 'false']) {
      const t = doc(attr('Number', '<column alias="D">number</column>', { constantValue: 'C1', userCanConstrain }));
      const s = sql(t, { Number: 'other' });
      expect(s.values).toContain('C1');
      expect(s.values).not.toContain('other');
    }
  });

  it('isMacro="true" makes defaultValue and constantValue macro names', () => {
    const users = (over: Record<string, string>) =>
      doc(
        attr('User', '<column alias="U">name</column>', { isMacro: 'true', ...over }),
        '',
        '<qml>',
        '<table alias="U">wt.org.WTUser</table>',
      );
    expect(sql(users({ defaultValue: 'CURRENT_USER_NAME' })).values).toContain('alice');
    expect(sql(users({ defaultValue: 'CURRENT_USER_NAME' }), { User: 'bob' }).values).toContain('bob');
    expect(sql(users({ constantValue: 'CURRENT_USER_NAME' }), { User: 'bob' }).values).toContain('alice');
    expect(reason(users({ defaultValue: 'NOBODY' }))).toBe(
      '/qml/query/selectOrConstrain/reportAttribute[1]: unknown macro "NOBODY" (CURRENT_USER_NAME, CURRENT_USER, CURRENT_TIME, CURRENT_DATE)',
    );
  });

  it('aggregates and constants cannot be constrained', () => {
    expect(reason(doc(attr('C', '<function name="COUNT"/>', { defaultValue: '3' })))).toBe(
      '/qml/query/selectOrConstrain/reportAttribute[1]/@defaultValue: an aggregate function cannot be constrained: remove the defaultValue',
    );
    expect(reason(doc(NUMBER + attr('K', '<constant>x</constant>', { constantValue: 'x' })))).toBe(
      '/qml/query/selectOrConstrain/reportAttribute[2]/@constantValue: a constant cannot be constrained: remove the constantValue',
    );
    // A request parameter named after them is ignored.
    const t = doc(NUMBER + attr('K', '<constant>x</constant>'));
    expect(sql(t, { K: 'y' }).text).toBe(sql(t).text);
  });

  it('parameterValue attributes are inputs: parameters named by their id, referenced in conditions', () => {
    const t = compile(
      doc(
        NUMBER + input('Pattern'),
        `<where>${std('<column alias="D">name</column>', 'like', ref('Pattern'))}</where>`,
      ),
    );
    expect(t.select.map((s) => s.heading)).toEqual(['Number']);
    expect(t.parameters).toEqual([
      {
        name: 'Pattern',
        declaredType: 'java.lang.String',
        hint: 'string',
        default: null,
        path: '/qml/query/selectOrConstrain/reportAttribute[2]',
      },
    ]);
    const s = sql(t, { Pattern: 'Test*' });
    expect(s.text).toContain('"t1m"."name" LIKE $3::text');
    expect(s.values).toContain('Test%');
    expect(buildQuery(t, { ...req, values: { Pattern: 'x' } }).parameters).toEqual([{ name: 'Pattern', value: 'x' }]);
  });

  it('an input takes the request value by id, then by heading, then defaultValue; constantValue is fixed', () => {
    const where = `<where>${std('<column alias="D">name</column>', 'equal', ref('P'))}</where>`;
    const t = doc(NUMBER + input('P', { heading: 'Name is', defaultValue: 'D' }), where);
    expect(sql(t, { P: 'A', 'Name is': 'B' }).values).toContain('A');
    expect(sql(t, { 'Name is': 'B' }).values).toContain('B');
    expect(sql(t).values).toContain('D');
    const fixed = doc(NUMBER + input('P', { constantValue: 'C' }), where);
    expect(sql(fixed, { P: 'A' }).values).toContain('C');
    expect(sql(fixed, { P: 'A' }).values).not.toContain('A');
  });

  it('conditions on an input without a value are removed, and composites left empty with them', () => {
    const where = `<where><compositeCondition type="and">
      <compositeCondition type="or">${std('<column alias="D">name</column>', 'like', ref('A'))}${std('<column alias="D">number</column>', 'like', ref('A'))}</compositeCondition>
      ${std('<column alias="D">iterationInfo.latest</column>', 'equal', '<constant>1</constant>')}
      <condition><inCondition><operand><column alias="D">state.state</column></operand><inOperator type="in"/><inOperand><delimitedList><constant>INWORK</constant>${ref('B')}</delimitedList></inOperand></inCondition></condition>
    </compositeCondition></where>`;
    const t = compile(doc(NUMBER + input('A') + input('B'), where));
    const none = sql(t);
    expect(none.text).toContain('"t1"."latest" = $3::boolean AND "t1"."state" IN ($4::text)');
    expect(none.text).not.toMatch(/LIKE/);
    const both = sql(t, { A: 'x*', B: 'RELEASED' });
    expect(both.text).toContain(
      '(("t1m"."name" LIKE $3::text AND "t1m"."name" ~>=~ $4::text AND "t1m"."name" ~<~ $5::text) OR ("t1m"."number" LIKE $6::text AND "t1m"."number" ~>=~ $7::text AND "t1m"."number" ~<~ $8::text))',
    );
    expect(both.text).toContain('"t1"."state" IN ($10::text, $11::text)');
  });

  it('reportAttributeReference to a value attribute stands for its item', () => {
    const t = doc(
      NUMBER + attr('Name', '<column alias="D">name</column>', { userCanSelect: 'false' }),
      `<where><condition><nullCondition><operand>${ref('Name')}</operand><nullOperator type="isNotNull"/></nullCondition></condition></where>`,
    );
    expect(sql(t).text).toContain('"t1m"."name" IS NOT NULL');
  });

  it('reportAttributeReference works inside functions, also in report attributes, never in a cycle', () => {
    const t = compile(
      doc(
        NUMBER + attr('Upper', `<function name="UPPER">${ref('P')}</function>`) + input('P', { defaultValue: 'x' }),
        `<where>${std(`<function name="LOWER">${ref('Number')}</function>`, 'equal', ref('P'))}</where>`,
      ),
    );
    const s = sql(t, { P: 'Y' });
    expect(s.text).toMatch(/^SELECT "t1m"."number" AS "c1", upper\(\$1::text\) AS "c2"/);
    expect(s.text).toContain('lower("t1m"."number") = $4::text');
    expect(s.values.filter((v) => v === 'Y')).toHaveLength(2);
    expect(
      reason(
        doc(
          attr('A', `<function name="UPPER">${ref('B')}</function>`) +
            attr('B', `<function name="LOWER">${ref('A')}</function>`),
        ),
      ),
    ).toBe('/qml/query/selectOrConstrain/reportAttribute[1]: reportAttribute "A" refers to itself');
  });

  it('caseInsensitive works in the statement layout too', () => {
    const statement = (root: string) =>
      `${root}<statement><query><select><column alias="D">name</column></select><from><table alias="D">wt.doc.WTDocument</table></from><where>${std('<column alias="D">name</column>', 'equal', '<constant>Test Plan</constant>').replace(/<\/?standardCondition>/g, '')}</where></query></statement></qml>`;
    expect(compile(statement('<qml caseInsensitive="true">')).caseInsensitive).toBe(true);
    expect(sql(statement('<qml caseInsensitive="true">')).text).toContain('lower("t1m"."name") = lower($3::text)');
    expect(sql(statement('<qml>')).text).toContain('"t1m"."name" = $3::text');
    expect(reason(statement('<qml caseInsensitive="1">'))).toBe('/qml/@caseInsensitive: "1" is not true or false');
  });

  it('parameterValue as an operand is a typed literal', () => {
    const t = doc(
      NUMBER,
      `<where>${std('<column alias="D">iterationInfo.identifier.iterationId</column>', 'greaterThan', '<parameterValue type="java.lang.Long">1</parameterValue>')}</where>`,
    );
    const s = sql(t);
    expect(s.text).toContain('"t1"."iteration" > $3::int8');
    expect(s.values).toContain(1);
  });

  it('root parameter elements and parameterTarget work as in the old layout', () => {
    const t = `<qml><parameter name="n"><parameterDefault>0000000001</parameterDefault></parameter><query><selectOrConstrain>${NUMBER}</selectOrConstrain><from><table alias="D">wt.doc.WTDocument</table></from><where>${std('<column alias="D">number</column>', 'equal', '<parameterTarget name="n"/>')}</where></query></qml>`;
    expect(sql(t).values).toContain('0000000001');
    expect(sql(t, { n: 'X' }).values).toContain('X');
  });

  it('orderBy sorts by reportAttributeReference', () => {
    const t = compile(
      doc(
        NUMBER + NAME,
        `<orderBy><orderByItem type="desc">${ref('Name')}</orderByItem><orderByItem>${ref('Number')}</orderByItem></orderBy>`,
      ),
    );
    expect(t.orderBy.map((o) => [o.item, o.desc])).toEqual([
      [1, true],
      [0, false],
    ]);
    expect(sql(t).text).toContain('ORDER BY 2 DESC, 1, "t1"."id"');
  });

  it('join outerJoinAlias LEFT-joins that alias to the other of the join', () => {
    const t = compile(
      doc(
        attr('Number', '<column alias="Part">master&gt;number</column>'),
        `<where>${std('<column alias="Part">iterationInfo.latest</column>', 'equal', '<constant>1</constant>')}</where>
         <referenceJoin><join name="roleAObjectRef" outerJoinAlias="Usage"><fromAliasTarget alias="Usage"/><toAliasTarget alias="Part"/></join></referenceJoin>`,
        '<qml>',
        '<table alias="Part">wt.part.WTPart</table><table alias="Usage">wt.part.WTPartUsageLink</table>',
      ),
    );
    expect(t.tables.map((x) => [x.alias, x.outerJoinTo])).toEqual([
      ['Part', null],
      ['Usage', 0],
    ]);
    expect(sql(t).text).toContain(
      'LEFT JOIN "usage_links" "t2" ON ("t2"."parent_id" = "t1"."id" AND "t2"."class" = $1',
    );
  });

  it('condition outerJoinAlias LEFT-joins that alias to the other table of the condition', () => {
    const t = compile(
      doc(
        attr('Number', '<column alias="Part">master&gt;number</column>'),
        `<where><compositeCondition type="and">${std('<column alias="Usage">roleAObjectRef.key.id</column>', 'equal', '<column alias="Part">thePersistInfo.theObjectIdentifier.id</column>', ' outerJoinAlias="Usage"')}</compositeCondition></where>`,
        '<qml>',
        '<table alias="Part">wt.part.WTPart</table><table alias="Usage">wt.part.WTPartUsageLink</table>',
      ),
    );
    expect(t.tables[1].outerJoinTo).toBe(0);
    expect(sql(t).text).toContain(
      'LEFT JOIN "usage_links" "t2" ON ("t2"."parent_id" = "t1"."id" AND "t2"."class" = $1',
    );
  });

  it('caseInsensitive="true" compares text in lower case: equality, like, in-lists and criteria', () => {
    const where = `<where><compositeCondition>${std('<column alias="D">name</column>', 'equal', '<constant>Test Plan</constant>')}${std('<column alias="D">number</column>', 'like', '<constant>a*</constant>')}<condition><inCondition><operand><column alias="D">state.state</column></operand><inOperator type="in"/><inOperand><delimitedList><constant>inwork</constant></delimitedList></inOperand></inCondition></condition>${std('<column alias="D">iterationInfo.identifier.iterationId</column>', 'equal', '<constant>1</constant>')}</compositeCondition></where>`;
    const s = sql(doc(NUMBER, where, '<qml caseInsensitive="true">'), { Number: 'X' });
    expect(s.text).toContain(
      'lower("t1m"."name") = lower($3::text) AND lower("t1m"."number") LIKE lower($4::text) AND lower("t1"."state") IN (lower($5::text)) AND "t1"."iteration" = $6::int8 AND lower("t1m"."number") = lower($7::text)',
    );
    expect(sql(doc(NUMBER, where, '<qml caseInsensitive="false">')).text).not.toContain('lower(');
  });

  it('ignores the root attributes that do not change the result, and descriptionForExport', () => {
    const root =
      '<qml bypassAccessControl="false" caseInsensitive="false" addTimeToDateFields="false" forAdvancedSearch="true" mainType="Document" joinModel="false" legacyMode="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">';
    const t = doc(NUMBER, '<descriptionForExport>Documents</descriptionForExport>', root);
    expect(sql(t).text).toBe(sql(doc(NUMBER)).text);
  });
});

describe('the qml/query layout: limits', () => {
  it('counts every value attribute as a select item, and the tables as in the statement layout', () => {
    const three = doc(NUMBER + NAME + attr('S', '<column alias="D">state.state</column>', { userCanSelect: 'false' }));
    expect(compileTemplate(three, { limits: { maxSelectItems: 3 } }).select).toHaveLength(2);
    expect(() => compileTemplate(three, { limits: { maxSelectItems: 2 } })).toThrow(
      '/qml/query/selectOrConstrain: 3 items, more than the limit of 2',
    );
    const two = doc(
      NUMBER,
      '',
      '<qml>',
      '<table alias="D">wt.doc.WTDocument</table><table alias="E">wt.doc.WTDocument</table>',
    );
    expect(() => compileTemplate(two, { limits: { maxTables: 1 } })).toThrow(
      '/qml/query/from: 2 tables, more than the limit of 1',
    );
  });
});
