import { readFileSync } from 'node:fs';
import { buildQuery, compileTemplate } from '../qml-compiler.js';
import type { PlanRequest } from '../plan/plan.js';

const example = (name: string) => readFileSync(new URL(`../../../docs/examples/${name}.qml`, import.meta.url), 'utf8');

const req: PlanRequest = {
  values: {},
  user: { id: 2, name: 'alice', admin: false },
  readable: { memberOf: 2 },
  now: new Date('2026-05-06T00:00:00Z'),
  limit: 101,
};
const query = (qml: string, values: Record<string, string> = {}) => {
  const q = buildQuery(compileTemplate(qml), { ...req, values });
  return { text: q.sql.text, values: q.sql.values, columns: q.columns };
};

/** The documents-by-number example, written in the query layout with an input. */
const DOCUMENTS_BY_NUMBER = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="false">
  <query>
    <selectOrConstrain distinct="false" group="false">
      <reportAttribute heading="Document" reportAttributeId="Document" userCanSelect="true"><object alias="Document" propertyName=""/></reportAttribute>
      <reportAttribute heading="Number" reportAttributeId="Number_1"><column alias="Document" propertyName="number">master&gt;number</column></reportAttribute>
      <reportAttribute heading="Name" reportAttributeId="Name"><column alias="Document">master&gt;name</column></reportAttribute>
      <reportAttribute heading="State" reportAttributeId="State"><column alias="Document">state.state</column></reportAttribute>
      <reportAttribute heading="Last Modified" reportAttributeId="Last_Modified"><column alias="Document">thePersistInfo.modifyStamp</column></reportAttribute>
      <reportAttribute heading="number" reportAttributeId="number" userCanSelect="false" userCanConstrain="true" defaultValue="*">
        <parameterValue type="java.lang.String"/>
      </reportAttribute>
    </selectOrConstrain>
    <from><table alias="Document">wt.doc.WTDocument</table></from>
    <where>
      <compositeCondition type="and">
        <condition><standardCondition>
          <operand><column alias="Document">master&gt;number</column></operand>
          <operator type="like"/>
          <operand><reportAttributeReference id="number"/></operand>
        </standardCondition></condition>
        <condition><standardCondition>
          <operand><column alias="Document">iterationInfo.latest</column></operand>
          <operator type="equal"/>
          <operand><constant type="java.lang.Object">1</constant></operand>
        </standardCondition></condition>
      </compositeCondition>
    </where>
    <orderBy><orderByItem><reportAttributeReference id="Number_1"/></orderByItem></orderBy>
  </query>
</qml>`;

/** The same query in both layouts gives the same SQL, bound values and result columns. */
describe('the two layouts compile to the same query', () => {
  it.each([
    ['part-structure', 'query-layout-part-structure'],
    ['parts-without-structure', 'query-layout-parts-without-structure'],
  ])('%s and %s', (statement, queryLayout) => {
    expect(query(example(queryLayout))).toEqual(query(example(statement)));
  });

  it('documents-by-number with a parameter and with an input', () => {
    const cases: Record<string, string>[] = [{}, { number: '0000*' }, { number: '0000000002' }];
    for (const values of cases) {
      expect(query(DOCUMENTS_BY_NUMBER, values)).toEqual(query(example('documents-by-number'), values));
    }
  });

  it('a criterion of a report attribute is the condition the statement layout writes', () => {
    const statement = `<qml><statement><query><select><column alias="D" heading="Number">master&gt;number</column></select>
      <from><table alias="D">wt.doc.WTDocument</table></from>
      <where><condition><operand><column alias="D">master&gt;number</column></operand><operator type="like"/><operand><constant>0000*</constant></operand></condition></where>
      </query></statement></qml>`;
    const queryLayout = `<qml><query><selectOrConstrain><reportAttribute reportAttributeId="Number" userCanConstrain="true"><column alias="D">master&gt;number</column></reportAttribute></selectOrConstrain>
      <from><table alias="D">wt.doc.WTDocument</table></from></query></qml>`;
    const a = query(queryLayout, { Number: '0000*' });
    const b = query(statement);
    expect(a.text).toBe(b.text);
    expect(a.values).toEqual(b.values);
  });
});
