import { USERS } from '../helpers/test-app.js';
import {
  ED,
  PFD,
  VIEW_JOIN,
  condition,
  latest,
  latestPartNumbered,
  plantDataLinks,
  reportAttribute,
  useModelData,
} from './model-fixtures.js';

const PP = 'com.ptc.windchill.mpml.processplan.MPMProcessPlan';
const SQ = 'com.ptc.windchill.mpml.processplan.sequence.MPMSequence';
const OP = 'com.ptc.windchill.mpml.processplan.operation.MPMOperation';
const RS = 'com.ptc.windchill.mpml.resource.';

/**
 * Manufacturing process management and plant data through the standard catalog: process plans,
 * sequences, operations and resources with the links between them and parts, imported through a
 * dataset and read by templates written as Windchill exports them (both layouts). Each object of
 * the process plan has a second iteration, and one operation lies in a container alice and bob
 * do not read.
 */
describe('manufacturing templates over the standard catalog', () => {
  const f = useModelData('MPM', (n) => {
    const main = n.main;
    return {
      objects: [
        n.object('wt.part.WTPart', 'P1', 'Gearbox', { iteration: 1 }),
        n.object('wt.part.WTPart', 'P1', 'Gearbox', { iteration: 2 }),
        n.object('wt.part.WTPart', 'P2', 'Shaft'),
        n.object('wt.doc.WTDocument', 'D1', 'Work instruction gearbox'),
        n.object(PP, 'PP1', 'Assemble gearbox', {
          iteration: 1,
          properties: { category: 'PRODUCTION', longDescription: 'draft' },
        }),
        n.object(PP, 'PP1', 'Assemble gearbox', {
          iteration: 2,
          properties: { category: 'PRODUCTION', longDescription: 'press, then fit' },
        }),
        n.object(SQ, 'SQ1', 'Prepare housing'),
        n.object(OP, 'OP10', 'Press bearing', { properties: { setupTime: 120, processingTime: 45.5 } }),
        n.object(OP, 'OP20', 'Fit shaft', { iteration: 1, properties: { processingTime: 30 } }),
        n.object(OP, 'OP20', 'Fit shaft', { iteration: 2, properties: { processingTime: 35 } }),
        n.object(OP, 'OP90', 'Secret step', {
          container: n.secret,
          createdBy: 'carol',
          properties: { processingTime: 1 },
        }),
        n.object(`${RS}MPMPlant`, 'PL1', 'Berlin plant', { properties: { category: 'Production' } }),
        n.object(`${RS}MPMWorkCenter`, 'WC1', 'Press line', { properties: { category: 'Work Cell' } }),
        n.object(`${RS}MPMTooling`, 'T1', 'Press fixture', { properties: { category: 'Fixture' } }),
        n.object(`${RS}MPMSkill`, 'S1', 'Assembler'),
        // Plant data: a part's view-specific enterprise data and the plant data it uses.
        { class: 'wt.vc.views.View', name: n.n('Plant 0815') },
        n.object(ED, 'ED1', 'Gearbox in plant 0815', { references: { view: n.n('Plant 0815') } }),
        n.object(PFD, 'PFD1', 'Assembly site', { iteration: 1, description: 'first' }),
        n.object(PFD, 'PFD1', 'Assembly site', { iteration: 2, description: 'second' }),
        n.object(PFD, 'PFD9', 'Secret site', { container: n.secret, createdBy: 'carol', description: 'hidden' }),
      ],
      links: [
        {
          class: 'com.ptc.windchill.mpml.processplan.MPMPartToProcessPlanLink',
          a: { class: 'wt.part.WTPart', number: n.n('P1') },
          b: n.n('PP1'),
          container: main,
        },
        ...[
          ['OP10', '0010'],
          ['OP20', '0020'],
          ['OP90', '0090'],
        ].map(([op, label]) => ({
          class: `${OP}UsageLink`,
          a: n.n('PP1'),
          b: n.n(op),
          container: main,
          properties: { operationLabel: label },
        })),
        { class: `${SQ}UsageLink`, a: n.n('PP1'), b: n.n('SQ1'), container: main },
        { class: `${OP}ToWorkCenterLink`, a: n.n('OP10'), b: n.n('WC1'), container: main },
        {
          class: `${OP}ToPartLink`,
          a: n.n('OP20'),
          b: n.n('P2'),
          container: main,
          properties: { 'quantity.amount': 2, 'quantity.unit': 'ea', allocationType: 'CONSUMED' },
        },
        {
          class: `${OP}ToConsumableLink`,
          a: n.n('OP10'),
          b: n.n('T1'),
          container: main,
          properties: { 'quantity.amount': 1 },
        },
        { class: `${OP}ToConsumableLink`, a: n.n('OP10'), b: n.n('S1'), container: main },
        { class: 'com.ptc.windchill.mpml.MPMDocumentDescribeLink', a: n.n('PP1'), b: n.n('D1'), container: main },
        { class: `${ED}Link`, a: { class: 'wt.part.WTPart', number: n.n('P1') }, b: n.n('ED1'), container: main },
        { class: `${PFD}Link`, a: n.n('ED1'), b: n.n('PFD1'), container: main },
        { class: `${PFD}Link`, a: n.n('ED1'), b: n.n('PFD9'), container: main },
      ],
    };
  });
  const n = f.names.n;

  beforeAll(async () => {
    // The modeled properties of plant data masters: the import fills only iterations' JSON.
    await f.masterAttributes(PFD, {
      PFD1: { category: 'ASSEMBLY', alternate1: 'Hall 3', alternate2: 'Line 2' },
      PFD9: { category: 'ASSEMBLY', alternate1: 'Hall 9', alternate2: 'Line 9' },
    });
  });

  it('lists the operations of the latest process plan with their labels and times (statement layout)', async () => {
    const qml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml bypassAccessControl="false">
    <statement>
        <query>
            <select>
                <column alias="Process Plan" heading="Process Plan" propertyName="number" type="java.lang.String">master&gt;number</column>
                <object alias="Process Plan" heading="Version" propertyName="iterationDisplayIdentifier"/>
                <column alias="Operation Usage" heading="Label" propertyName="operationLabel" type="java.lang.String">operationLabel</column>
                <column alias="Operation Master" heading="Operation" propertyName="number" type="java.lang.String">number</column>
                <column alias="Operation" heading="Name" propertyName="name" type="java.lang.String">master&gt;name</column>
                <column alias="Operation" heading="Setup" propertyName="setupTime" type="double">setupTime</column>
                <column alias="Operation" heading="Processing" propertyName="processingTime" type="double">processingTime</column>
            </select>
            <from>
                <table alias="Process Plan">${PP}</table>
                <table alias="Operation Usage">${OP}UsageLink</table>
                <table alias="Operation Master">${OP}Master</table>
                <table alias="Operation">${OP}</table>
            </from>
            <where>
                <compositeCondition type="and">
                    ${condition('Process Plan', 'master&gt;number', 'like', `${n('PP')}*`)}
                    ${latest('Process Plan')}
                    ${latest('Operation')}
                </compositeCondition>
            </where>
            <orderBy>
                <orderByItem><columnTarget heading="Label"/></orderByItem>
            </orderBy>
            <referenceJoin>
                <join name="roleAObjectRef"><aliasTarget alias="Operation Usage"/><aliasTarget alias="Process Plan"/></join>
                <join name="roleBObjectRef"><aliasTarget alias="Operation Usage"/><aliasTarget alias="Operation Master"/></join>
                <join name="masterReference"><aliasTarget alias="Operation"/><aliasTarget alias="Operation Master"/></join>
            </referenceJoin>
        </query>
    </statement>
</qml>`;
    const visible = [
      [n('PP1'), 'A.2', '0010', n('OP10'), 'Press bearing', 120, 45.5],
      [n('PP1'), 'A.2', '0020', n('OP20'), 'Fit shaft', null, 35],
    ];
    expect(await f.rows(qml)).toEqual(visible);
    expect(await f.rows(qml, USERS.bob)).toEqual(visible);
    // carol reads both containers: the operation in hers as well.
    expect(await f.rows(qml, USERS.carol)).toEqual([
      ...visible,
      [n('PP1'), 'A.2', '0090', n('OP90'), 'Secret step', null, 1],
    ]);
  });

  it('finds the process plans of parts and the documents describing them (query layout)', async () => {
    const qml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" addTimeToDateFields="false" mainType="Part" joinModel="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <query>
        <selectOrConstrain distinct="false" group="false">
            <layoutSectionHeader layoutSectionId="Part" text="Part"/>
            ${reportAttribute('Part', '<column alias="Part" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column>', false)}
            ${reportAttribute('Part Version', '<object alias="Part" isExternal="false" propertyName="iterationDisplayIdentifier"/>', false)}
            <layoutSectionHeader layoutSectionId="Plan" text="Process Plan"/>
            ${reportAttribute('Plan', '<column alias="Process Plan" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column>', false)}
            ${reportAttribute('Plan Version', '<object alias="Process Plan" isExternal="false" propertyName="iterationDisplayIdentifier"/>', false)}
            ${reportAttribute('Category', '<column alias="Process Plan" isExternal="false" type="java.lang.String" propertyName="category">category</column>', false)}
            ${reportAttribute('Instructions', '<column alias="Process Plan" isExternal="false" type="java.lang.String" propertyName="longDescription">longDescription</column>', false)}
            ${reportAttribute('Document', '<column alias="Work Instruction" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column>', false)}
        </selectOrConstrain>
        <from>
            <table alias="Part" isExternal="false" xposition="0px" yposition="40px">wt.part.WTPart</table>
            <table alias="Process Plan" isExternal="false" xposition="300px" yposition="40px">${PP}</table>
            <table alias="Work Instruction" isExternal="false" xposition="600px" yposition="40px">wt.doc.WTDocument</table>
        </from>
        <where>
            <condition>
                <standardCondition>
                    <operand>
                        <column alias="Part" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column>
                    </operand>
                    <operator type="like"/>
                    <operand>
                        <constant type="java.lang.String" isMacro="false" xml:space="preserve">${n('P')}*</constant>
                    </operand>
                </standardCondition>
            </condition>
        </where>
        <linkJoin>
            <join name="com.ptc.windchill.mpml.processplan.MPMPartToProcessPlanLink">
                <fromAliasTarget alias="Part"/>
                <toAliasTarget alias="Process Plan"/>
            </join>
            <join name="com.ptc.windchill.mpml.MPMDocumentDescribeLink">
                <fromAliasTarget alias="Process Plan"/>
                <toAliasTarget alias="Work Instruction"/>
            </join>
        </linkJoin>
    </query>
</qml>`;
    // The links name the iterations that were latest when they were made: A.2 of both.
    const rows = [[n('P1'), 'A.2', n('PP1'), 'A.2', 'PRODUCTION', 'press, then fit', n('D1')]];
    expect(await f.rows(qml)).toEqual(rows);
    expect(await f.rows(qml, USERS.bob)).toEqual(rows);
  });

  it('joins operations to their work centers, processing resources and allocated parts', async () => {
    const query = (select: string, from: string, rest: string) => `<?xml version="1.0" encoding="UTF-8"?>
<qml>
    <statement>
        <query>
            <select>${select}</select>
            <from>
                <table alias="Operation">${OP}</table>
                ${from}
            </from>
            <where><compositeCondition type="and">${latest('Operation')}${condition('Operation', 'master&gt;number', 'like', `${n('OP')}*`)}</compositeCondition></where>
            ${rest}
        </query>
    </statement>
</qml>`;
    const number = '<column alias="Operation" heading="Operation" type="java.lang.String">master&gt;number</column>';
    const workCenters = query(
      `${number}<column alias="Work Center" heading="Work Center">number</column><column alias="Work Center" heading="Where">name</column>`,
      `<table alias="Work Center">${RS}MPMWorkCenterMaster</table>`,
      `<linkJoin><join name="${OP}ToWorkCenterLink"><aliasTarget alias="Operation"/><aliasTarget alias="Work Center"/></join></linkJoin>`,
    );
    expect(await f.rows(workCenters)).toEqual([[n('OP10'), n('WC1'), 'Press line']]);
    // Skills and tooling together, through the masters of processing resources.
    const resources = query(
      `${number}<column alias="Resource" heading="Resource">number</column><column alias="Resource" heading="Name">name</column>`,
      `<table alias="Resource">com.ptc.windchill.mpml.processplan.operation.MPMConsumableResourceMaster</table>`,
      `<orderBy><orderByItem><columnTarget heading="Resource"/></orderByItem></orderBy>
       <linkJoin><join name="${OP}ToConsumableLink"><aliasTarget alias="Operation"/><aliasTarget alias="Resource"/></join></linkJoin>`,
    );
    expect(await f.rows(resources)).toEqual([
      [n('OP10'), n('S1'), 'Assembler'],
      [n('OP10'), n('T1'), 'Press fixture'],
    ]);
    const parts = query(
      `${number}<column alias="Part" heading="Part">number</column>
       <column alias="Allocation" heading="Quantity" type="double">quantity.amount</column>
       <column alias="Allocation" heading="Unit">quantity.unit</column>
       <column alias="Allocation" heading="Use">allocationType</column>`,
      `<table alias="Allocation">${OP}ToPartLink</table><table alias="Part">wt.part.WTPartMaster</table>`,
      `<referenceJoin>
         <join name="roleAObjectRef"><aliasTarget alias="Allocation"/><aliasTarget alias="Operation"/></join>
         <join name="roleBObjectRef"><aliasTarget alias="Allocation"/><aliasTarget alias="Part"/></join>
       </referenceJoin>`,
    );
    expect(await f.rows(parts)).toEqual([[n('OP20'), n('P2'), 2, 'ea', 'CONSUMED']]);
  });

  it('reads operation holders and resources as tables of their abstract classes', async () => {
    const table = (cls: string, extra = '') => `<qml><statement><query>
      <select>
        <column alias="X" heading="Number">master&gt;number</column>
        <object alias="X" heading="Type" propertyName="displayType"/>
        ${extra}
      </select>
      <from><table alias="X">${cls}</table></from>
      <where><compositeCondition type="and">${latest('X')}${condition('X', 'master&gt;number', 'like', `${n('')}*`)}</compositeCondition></where>
      <orderBy><orderByItem><columnTarget heading="Number"/></orderByItem></orderBy>
    </query></statement></qml>`;
    expect(await f.rows(table('com.ptc.windchill.mpml.processplan.operation.MPMOperationHolder'))).toEqual([
      [n('OP10'), 'Operation'],
      [n('OP20'), 'Operation'],
      [n('PP1'), 'Process Plan'],
      [n('SQ1'), 'Sequence'],
    ]);
    expect(await f.rows(table(`${RS}MPMResource`, '<column alias="X" heading="Category">category</column>'))).toEqual([
      [n('PL1'), 'Plant', 'Production'],
      [n('S1'), 'Skill', null],
      [n('T1'), 'Tooling', 'Fixture'],
      [n('WC1'), 'Work Center', 'Work Cell'],
    ]);
  });

  it('reads plant data masters through the enterprise data of parts (query layout)', async () => {
    const master = 'Plant Specific Functional Data Master';
    const qml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" addTimeToDateFields="false" forAdvancedSearch="true" mainType="Part" joinModel="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <query>
        <selectOrConstrain distinct="false" group="false">
            <layoutSectionHeader layoutSectionId="View_Specific_Enterprise_Data" text="View Specific Enterprise Data"/>
            ${reportAttribute('Plant', '<column alias="View" isExternal="false" type="java.lang.String" propertyName="name">name</column>')}
            <layoutSectionHeader layoutSectionId="Plant_Data_Master" text="Plant Data Master"/>
            ${reportAttribute('Number', `<column alias="${master}" isExternal="false" type="java.lang.String" propertyName="number">number</column>`)}
            ${reportAttribute('Category', `<column alias="${master}" isExternal="false" type="java.lang.String" propertyName="category">category</column>`)}
            ${reportAttribute('Alternate1', `<column alias="${master}" isExternal="false" type="java.lang.String" propertyName="alternate1">alternate1</column>`)}
            ${reportAttribute('Alternate2', `<column alias="${master}" isExternal="false" type="java.lang.String" propertyName="alternate2">alternate2</column>`)}
        </selectOrConstrain>
        <from>
            <table alias="Part" isExternal="false" xposition="0px" yposition="40px">wt.part.WTPart</table>
            <table alias="View Specific Enterprise Data" isExternal="false" xposition="344px" yposition="0px">${ED}</table>
            <table alias="View" isExternal="false" xposition="50px" yposition="143px">wt.vc.views.View</table>
            <table alias="${master}" isExternal="false" xposition="799px" yposition="0px">${PFD}Master</table>
        </from>
        <where>
            <compositeCondition type="and">
                ${latestPartNumbered(n('P1'))}
            </compositeCondition>
        </where>
        <orderBy>
            <orderByItem type="asc"><reportAttributeReference id="Number"/></orderByItem>
        </orderBy>
        <linkJoin>
            ${plantDataLinks(master)}
        </linkJoin>
        <referenceJoin>
            ${VIEW_JOIN}
        </referenceJoin>
    </query>
</qml>`;
    const mine = [n('Plant 0815'), n('PFD1'), 'ASSEMBLY', 'Hall 3', 'Line 2'];
    expect(await f.rows(qml)).toEqual([mine]);
    expect(await f.rows(qml, USERS.carol)).toEqual([
      mine,
      [n('Plant 0815'), n('PFD9'), 'ASSEMBLY', 'Hall 9', 'Line 9'],
    ]);
    // The plant data's latest iteration with its master's modeled properties.
    const iterations = `<qml><statement><query>
      <select>
        <column alias="D" heading="Number">master&gt;number</column>
        <column alias="D">master&gt;category</column>
        <column alias="D">description</column>
        <object alias="D" propertyName="iterationDisplayIdentifier"/>
      </select>
      <from><table alias="D">${PFD}</table></from>
      <where><compositeCondition type="and">${latest('D')}${condition('D', 'master&gt;number', 'like', `${n('PFD')}*`)}</compositeCondition></where>
      <orderBy><orderByItem><columnTarget heading="Number"/></orderByItem></orderBy>
    </query></statement></qml>`;
    expect(await f.rows(iterations, USERS.bob)).toEqual([[n('PFD1'), 'ASSEMBLY', 'second', 'A.2']]);
  });
});
