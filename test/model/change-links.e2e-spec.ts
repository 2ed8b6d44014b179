import { USERS } from '../helpers/test-app.js';
import { condition, latest, useModelData } from './model-fixtures.js';

const PP = 'com.ptc.windchill.mpml.processplan.MPMProcessPlan';

/**
 * Change links with role classes as broad as Windchill's: problem reports and variances reported
 * against any versioned object, change tasks affecting process plans, end items, hanging changes,
 * and the modeled properties of problem reports and of the links. The part has a second
 * iteration; one reported document lies in a container alice and bob do not read.
 */
describe('change links and their roles over the standard catalog', () => {
  const f = useModelData('CHL', (n) => {
    const main = n.main;
    const part = { class: 'wt.part.WTPart', number: n.n('P1') };
    return {
      objects: [
        n.object('wt.part.WTPart', 'P1', 'Bracket', { iteration: 1 }),
        n.object('wt.part.WTPart', 'P1', 'Bracket', { iteration: 2 }),
        n.object('wt.doc.WTDocument', 'D9', 'Secret drawing', { container: n.secret, createdBy: 'carol' }),
        n.object(PP, 'PP1', 'Weld bracket'),
        n.object('wt.change2.WTChangeIssue', 'PR1', 'Bracket cracks', {
          state: 'OPEN',
          properties: {
            theIssuePriority: 'HIGH',
            requester: 'Quality',
            occurrenceDate: '2026-02-10',
            cycleTime: '2026-03-31T00:00:00Z',
            needDate: '2026-03-15',
          },
        }),
        n.object('wt.change2.WTVariance', 'V1', 'Use old bolts', { state: 'APPROVED' }),
        n.object('wt.change2.WTChangeActivity2', 'CA1', 'Rework bracket', { state: 'IMPLEMENTATION' }),
      ],
      links: [
        {
          class: 'wt.change2.ReportedAgainst',
          a: n.n('V1'),
          b: part,
          container: main,
          properties: { approvedQuantity: 5, description: 'until stock is used' },
        },
        { class: 'wt.change2.ReportedAgainst', a: n.n('PR1'), b: part, container: main },
        { class: 'wt.change2.ReportedAgainst', a: n.n('PR1'), b: n.n('D9'), container: main },
        {
          class: 'wt.change2.AffectedActivityData',
          a: n.n('CA1'),
          b: { class: PP, number: n.n('PP1') },
          container: main,
          properties: { inventoryDisposition: 'SCRAP', description: 'new welding sequence' },
        },
        { class: 'wt.change2.AffectedActivityData', a: n.n('CA1'), b: part, container: main },
        { class: 'wt.change2.HangingChangeLink', a: n.n('CA1'), b: part, container: main },
        {
          class: 'wt.change2.SubjectProduct',
          a: n.n('PR1'),
          b: { class: 'wt.part.WTPartMaster', number: n.n('P1') },
          container: main,
        },
      ],
    };
  });
  const n = f.names.n;

  it('reads the objects a variance is reported against with the approved quantity, as exports write it', async () => {
    const qml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml bypassAccessControl="false">
    <statement>
        <query>
            <select distinct="true">
                <column alias="Deviation" heading="NUMBER" propertyName="number" type="java.lang.String">master&gt;number</column>
                <column alias="Deviation" heading="STATE" propertyName="state.state" type="wt.lifecycle.State">state.state</column>
                <column alias="Part" heading="Part" propertyName="number" type="java.lang.String">master&gt;number</column>
                <column alias="Part" heading="REVISION" type="java.lang.String">versionInfo.identifier.versionId</column>
                <column alias="Part" heading="ITERATION" type="long">iterationInfo.identifier.iterationId</column>
                <column alias="Reported Against" heading="ApprovedQuantity" propertyName="approvedQuantity" type="double">approvedQuantity</column>
                <column alias="Reported Against" heading="Note" propertyName="description" type="java.lang.String">description</column>
            </select>
            <from>
                <table alias="Deviation">wt.change2.WTVariance</table>
                <table alias="Reported Against">wt.change2.ReportedAgainst</table>
                <table alias="Part">wt.part.WTPart</table>
            </from>
            <where>
                <compositeCondition type="and">
                    ${condition('Deviation', 'master&gt;number', 'like', `${n('V')}*`)}
                    <condition>
                        <operand>
                            <column alias="Deviation" heading="Latest Version" propertyName="latest" type="boolean">latest</column>
                        </operand>
                        <operator type="equal"/>
                        <operand>
                            <constant heading="1" isMacro="false" type="java.lang.Object" xml:space="preserve">1</constant>
                        </operand>
                    </condition>
                </compositeCondition>
            </where>
            <referenceJoin>
                <join name="roleAObjectRef">
                    <aliasTarget alias="Reported Against"/>
                    <aliasTarget alias="Deviation"/>
                </join>
                <join name="roleBObjectRef">
                    <aliasTarget alias="Reported Against"/>
                    <aliasTarget alias="Part"/>
                </join>
            </referenceJoin>
        </query>
    </statement>
</qml>`;
    // The link names the iteration that was latest when it was made.
    expect(await f.rows(qml)).toEqual([[n('V1'), 'APPROVED', n('P1'), 'A', 2, 5, 'until stock is used']]);
  });

  it('reads the objects reported against as Windchill shows them (roleBObject.identity), each reader seeing their own', async () => {
    const qml = `<qml bypassAccessControl="false"><statement><query>
      <select distinct="true">
        <column alias="Report" heading="Number" type="java.lang.String">master&gt;number</column>
        <object alias="Reported Against" heading="Object" propertyName="roleBObject.identity">
          <property name="roleBObject"><property name="identity"/></property>
        </object>
        <object alias="Reported Against" heading="Master" propertyName="roleBObject.master.identity"/>
      </select>
      <from>
        <table alias="Report">wt.change2.WTChangeIssue</table>
        <table alias="Reported Against">wt.change2.ReportedAgainst</table>
      </from>
      <where>${condition('Report', 'master&gt;number', 'like', `${n('PR')}*`)}</where>
      <orderBy><orderByItem><columnTarget heading="Object"/></orderByItem></orderBy>
      <referenceJoin><join name="roleAObjectRef"><aliasTarget alias="Reported Against"/><aliasTarget alias="Report"/></join></referenceJoin>
    </query></statement></qml>`;
    // carol reads the secret drawing; alice sees the link, but not what it names (null).
    expect(await f.rows(qml, USERS.carol)).toEqual([
      [n('PR1'), `${n('D9')} - Secret drawing, A.1`, `${n('D9')} - Secret drawing`],
      [n('PR1'), `${n('P1')} - Bracket, A.2`, `${n('P1')} - Bracket`],
    ]);
    expect(await f.rows(qml)).toEqual([
      [n('PR1'), `${n('P1')} - Bracket, A.2`, `${n('P1')} - Bracket`],
      [n('PR1'), null, null],
    ]);
  });

  it('joins problem reports and variances to what they are reported against, each reader seeing their objects', async () => {
    const qml = `<qml><statement><query>
      <select>
        <column alias="Change Item" heading="Number">master&gt;number</column>
        <object alias="Change Item" heading="Type" propertyName="displayType"/>
        <column alias="Affected" heading="Affected">master&gt;number</column>
        <object alias="Affected" heading="Affected Type" propertyName="displayType"/>
      </select>
      <from>
        <table alias="Change Item">wt.change2.VersionableChangeItem</table>
        <table alias="Affected">wt.enterprise.RevisionControlled</table>
      </from>
      <where>${condition('Change Item', 'master&gt;number', 'like', `${n('')}*`)}</where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
        <orderByItem><columnTarget heading="Affected"/></orderByItem>
      </orderBy>
      <linkJoin>
        <join name="wt.change2.ReportedAgainst"><aliasTarget alias="Change Item"/><aliasTarget alias="Affected"/></join>
      </linkJoin>
    </query></statement></qml>`;
    const seen = [
      [n('PR1'), 'Problem Report', n('P1'), 'Part'],
      [n('V1'), 'Variance', n('P1'), 'Part'],
    ];
    expect(await f.rows(qml)).toEqual(seen);
    expect(await f.rows(qml, USERS.bob)).toEqual(seen);
    expect(await f.rows(qml, USERS.carol)).toEqual([[n('PR1'), 'Problem Report', n('D9'), 'Document'], ...seen]);
  });

  it('reads a change task affecting a process plan with its disposition (query layout)', async () => {
    const qml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" addTimeToDateFields="false" mainType="Change Task" joinModel="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <query>
        <selectOrConstrain distinct="false" group="false">
            <reportAttribute heading="Task" reportAttributeId="Task" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="Change Task" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column>
            </reportAttribute>
            <reportAttribute heading="Process Plan" reportAttributeId="Process_Plan" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="Process Plan" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column>
            </reportAttribute>
            <reportAttribute heading="Inventory" reportAttributeId="Inventory" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="Affected Object" isExternal="false" type="java.lang.String" propertyName="inventoryDisposition">inventoryDisposition</column>
            </reportAttribute>
            <reportAttribute heading="Comment" reportAttributeId="Comment" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="Affected Object" isExternal="false" type="java.lang.String" propertyName="description">description</column>
            </reportAttribute>
        </selectOrConstrain>
        <from>
            <table alias="Change Task" isExternal="false" xposition="0px" yposition="40px">wt.change2.WTChangeActivity2</table>
            <table alias="Affected Object" isExternal="false" xposition="300px" yposition="40px">wt.change2.AffectedActivityData</table>
            <table alias="Process Plan" isExternal="false" xposition="600px" yposition="40px">${PP}</table>
        </from>
        <where>
            <condition>
                <standardCondition>
                    <operand><column alias="Change Task" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column></operand>
                    <operator type="equal"/>
                    <operand><constant type="java.lang.String" isMacro="false" xml:space="preserve">${n('CA1')}</constant></operand>
                </standardCondition>
            </condition>
        </where>
        <referenceJoin>
            <join name="roleAObjectRef">
                <fromAliasTarget alias="Affected Object"/>
                <toAliasTarget alias="Change Task"/>
            </join>
            <join name="roleBObjectRef">
                <fromAliasTarget alias="Affected Object"/>
                <toAliasTarget alias="Process Plan"/>
            </join>
        </referenceJoin>
    </query>
</qml>`;
    expect(await f.rows(qml, USERS.bob)).toEqual([[n('CA1'), n('PP1'), 'SCRAP', 'new welding sequence']]);
    // Any versioned object can be affected: the part and the process plan through the same link.
    const all = `<qml><statement><query>
      <select>
        <column alias="A" heading="Affected">master&gt;number</column>
        <object alias="A" heading="Type" propertyName="displayType"/>
      </select>
      <from><table alias="T">wt.change2.WTChangeActivity2</table><table alias="A">wt.vc.Iterated</table></from>
      <where>${condition('T', 'master&gt;number', 'equal', n('CA1'))}</where>
      <orderBy><orderByItem><columnTarget heading="Affected"/></orderByItem></orderBy>
      <linkJoin><join name="wt.change2.AffectedActivityData"><aliasTarget alias="T"/><aliasTarget alias="A"/></join></linkJoin>
    </query></statement></qml>`;
    expect(await f.rows(all)).toEqual([
      [n('P1'), 'Part'],
      [n('PP1'), 'Process Plan'],
    ]);
  });

  it('reads the modeled properties of problem reports, their end items and hanging changes', async () => {
    const qml = `<qml><statement><query>
      <select>
        <column alias="PR" heading="Number">master&gt;number</column>
        <column alias="PR">theIssuePriority</column>
        <column alias="PR">requester</column>
        <column alias="PR" type="java.sql.Timestamp">occurrenceDate</column>
        <column alias="PR" type="java.sql.Timestamp">needDate</column>
        <column alias="PR" type="java.sql.Timestamp">cycleTime</column>
        <column alias="PR" propertyName="lifeCycleState" type="wt.lifecycle.State">state.state</column>
        <column alias="End Item">number</column>
      </select>
      <from><table alias="PR">wt.change2.WTChangeIssue</table><table alias="End Item">wt.part.WTPartMaster</table></from>
      <where><compositeCondition type="and">${latest('PR')}${condition('PR', 'master&gt;number', 'like', `${n('PR')}*`)}</compositeCondition></where>
      <linkJoin><join name="wt.change2.SubjectProduct"><aliasTarget alias="PR"/><aliasTarget alias="End Item"/></join></linkJoin>
    </query></statement></qml>`;
    expect(await f.rows(qml, USERS.bob)).toEqual([
      [
        n('PR1'),
        'HIGH',
        'Quality',
        '2026-02-10T00:00:00.000Z',
        '2026-03-15T00:00:00.000Z',
        '2026-03-31T00:00:00.000Z',
        'OPEN',
        n('P1'),
      ],
    ]);
    const hanging = `<qml><statement><query>
      <select><column alias="T">master&gt;number</column><column alias="P">master&gt;number</column><object alias="P" propertyName="iterationDisplayIdentifier"/></select>
      <from><table alias="T">wt.change2.WTChangeActivity2</table><table alias="P">wt.part.WTPart</table></from>
      <where>${condition('T', 'master&gt;number', 'equal', n('CA1'))}</where>
      <linkJoin><join name="wt.change2.HangingChangeLink"><aliasTarget alias="T"/><aliasTarget alias="P"/></join></linkJoin>
    </query></statement></qml>`;
    expect(await f.rows(hanging)).toEqual([[n('CA1'), n('P1'), 'A.2']]);
  });
});
