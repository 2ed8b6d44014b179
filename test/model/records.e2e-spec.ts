import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { condition, latest, reportAttribute, useModelData, type User } from './model-fixtures.js';

const PART = 'wt.part.WTPart';

/**
 * One template each for the smaller areas of the model: part occurrences with the quantity of
 * their usage, audit records, dated and unit effectivity ranges, representations and mark-ups,
 * queue entries, part masters through `master>`, options and choices, product instances. Data
 * comes from a dataset (with second iterations) and, for audit records, from the services.
 */
describe('occurrences, audit records, effectivity, visualization, queues, options and instances', () => {
  const f = useModelData('REC', (n) => {
    const asm = { class: PART, number: n.n('ASM') };
    return {
      objects: [
        n.object(PART, 'R1', 'Resistor 10k'),
        n.object(PART, 'ASM', 'Board', { iteration: 1, uses: [{ number: n.n('R1'), quantity: 2, lineNumber: 10 }] }),
        n.object(PART, 'ASM', 'Board', { iteration: 2, uses: [{ number: n.n('R1'), quantity: 3, lineNumber: 10 }] }),
        n.object('wt.part.PartUsesOccurrence', 'OCC1', 'R1', { properties: { referenceDesignator: 'R1' } }),
        n.object('wt.part.PartUsesOccurrence', 'OCC2', 'R2', { properties: { referenceDesignator: 'R2' } }),
        n.object('wt.effectivity.WTDatedEffectivity', 'EFF1', 'Board 2026', {
          properties: { 'range.start': '2026-01-01', 'range.end': '2026-12-31' },
          references: {
            versionedTarget: asm,
            effContextReference: { class: 'wt.part.WTPartMaster', number: n.n('ASM') },
          },
        }),
        n.object('wt.part.ProductSerialNumberEffectivity', 'EFF2', 'Board units 100 to 199', {
          properties: { 'range.start': '100', 'range.end': '199' },
          references: { versionedTarget: asm },
        }),
        n.object('wt.part.ProductLotNumberEffectivity', 'EFF9', 'Secret lots', {
          container: n.secret,
          createdBy: 'carol',
          properties: { 'range.start': 'L1', 'range.end': 'L9' },
          references: { versionedTarget: asm },
        }),
        n.object('wt.representation.Representation', 'REP1', 'default viewable', {
          properties: { defaultRepresentation: true, outOfDate: false },
          references: { derivedFromReference: asm },
        }),
        n.object('wt.viewmarkup.DerivedImage', 'IMG1', 'thumbnail', {
          properties: { derivationType: 'THUMBNAIL' },
          references: { derivedFromReference: asm },
        }),
        n.object('wt.viewmarkup.WTMarkUp', 'MK1', 'check the pads', {
          properties: { markUpType: 'ANNOTATION' },
          references: { viewableReference: n.n('REP1') },
        }),
        {
          class: 'wt.queue.ProcessingQueue',
          name: n.n('PublisherQueue'),
          state: 'STARTED',
          properties: { enabled: true },
        },
        ...[
          ['QE1', 'FAILED', 'out of memory', null],
          ['QE2', 'READY', null, null],
          ['QE9', 'FAILED', 'secret failure', n.secret],
        ].map(([number, state, message, container], i) => ({
          class: 'wt.queue.WtQueueEntry',
          number: n.n(number!),
          state,
          container,
          createdBy: container ? 'carol' : 'alice',
          properties: {
            entryNumber: i + 1,
            targetClass: 'com.ptc.wvs.server.publish.Publish',
            targetMethod: 'doPublishJob',
            args: `publish ${number}`,
            ...(message ? { 'statusInfo.message': message } : {}),
          },
          references: { queueRef: n.n('PublisherQueue') },
        })),
        n.object('com.ptc.windchill.option.model.Option', 'OPT1', 'Colour'),
        n.object('com.ptc.windchill.option.model.Choice', 'CH1', 'Red', { iteration: 1 }),
        n.object('com.ptc.windchill.option.model.Choice', 'CH1', 'Red', { iteration: 2 }),
        n.object('com.ptc.windchill.option.model.Choice', 'CH2', 'Blue'),
        n.object('com.ptc.wpcfg.doc.VariantSpec', 'VS1', 'Red board'),
        n.object('wt.part.WTProductConfiguration', 'CFG1', 'Board as built', { properties: { description: 'lot 1' } }),
        { class: 'wt.org.WTOrganization', name: n.n('Acme Boards') },
        n.object('wt.part.WTProductInstance2', 'SN1', 'Board SN-0001', {
          properties: { serialNumber: 'SN-0001', buildDate: '2026-05-01' },
          references: {
            partReference: { class: 'wt.part.WTPartMaster', number: n.n('ASM') },
            configurationReference: { class: 'wt.part.WTProductConfiguration', number: n.n('CFG1') },
          },
        }),
      ],
    };
  });
  const n = f.names.n;

  beforeAll(async () => {
    const db = f.db();
    // What the import cannot fill: a part master's modeled unit, and occurrences' usage links.
    await f.masterAttributes(PART, { R1: { defaultUnit: 'pcs' } });
    await f.masterAttributes('wt.part.WTProductInstance2', { SN1: { serialNumber: 'SN-0001' } });
    await db.query(
      `UPDATE objects o SET props = o.props || jsonb_build_object('usage', ul.id)
       FROM usage_links ul JOIN iterations i ON i.id = ul.parent_id JOIN masters m ON m.id = i.master_id
       WHERE o.class = 'wt.part.PartUsesOccurrence' AND o.number = ANY($1) AND m.number = $2 AND i.latest`,
      [[n('OCC1'), n('OCC2')], n('ASM')],
    );
  });

  const qml = (select: string, from: string, rest = '') =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<qml><statement><query><select>${select}</select><from>${from}</from>${rest}</query></statement></qml>`;

  it('reads part occurrences with the quantity of the usage they place', async () => {
    const doc = qml(
      `<column alias="Assembly" heading="Assembly">master&gt;number</column>
       <object alias="Assembly" propertyName="iterationDisplayIdentifier"/>
       <column alias="Occurrence" heading="Designator">name</column>
       <column alias="Usage" type="double">quantity.amount</column>
       <column alias="Usage" type="long">lineNumber.value</column>
       <column alias="Component">master&gt;number</column>
       <column alias="Component">master&gt;defaultUnit</column>
       <column alias="Component Master">defaultUnit</column>`,
      `<table alias="Occurrence">wt.part.PartUsesOccurrence</table>
       <table alias="Usage">wt.part.WTPartUsageLink</table>
       <table alias="Assembly">${PART}</table>
       <table alias="Component Master">wt.part.WTPartMaster</table>
       <table alias="Component">${PART}</table>`,
      `<where><compositeCondition type="and">${latest('Component')}${condition('Occurrence', 'number', 'like', `${n('OCC')}*`)}</compositeCondition></where>
       <orderBy><orderByItem><columnTarget heading="Designator"/></orderByItem></orderBy>
       <referenceJoin>
         <join name="usesReference"><aliasTarget alias="Occurrence"/><aliasTarget alias="Usage"/></join>
         <join name="roleAObjectRef"><aliasTarget alias="Usage"/><aliasTarget alias="Assembly"/></join>
         <join name="roleBObjectRef"><aliasTarget alias="Usage"/><aliasTarget alias="Component Master"/></join>
         <join name="masterReference"><aliasTarget alias="Component"/><aliasTarget alias="Component Master"/></join>
       </referenceJoin>`,
    );
    // The occurrences place the usage of the assembly's second iteration (3, not 2).
    const rows = [
      [n('ASM'), 'A.2', 'R1', 3, 10, n('R1'), 'pcs', 'pcs'],
      [n('ASM'), 'A.2', 'R2', 3, 10, n('R1'), 'pcs', 'pcs'],
    ];
    expect(await f.rows(doc, USERS.bob)).toEqual(rows);
  });

  it('reads the audit records of the services, grouped by user, each reader those of their containers', async () => {
    const since = Date.now();
    const make = (user: User, container: string, number: string) =>
      request(f.t.http)
        .post('/objects')
        .auth(...user)
        .send({ type: 'wt.workflow.engine.WfProcess', container, number: n(number), name: `audited ${number}` });
    expect((await make(USERS.alice, f.names.main, 'AUD1')).status).toBe(201);
    expect((await make(USERS.alice, f.names.main, 'AUD2')).status).toBe(201);
    expect((await make(USERS.carol, f.names.secret, 'AUD9')).status).toBe(201);
    const doc = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml bypassAccessControl="false">
    <statement>
        <query>
            <select group="true">
                <column alias="Audit Record" heading="User" propertyName="userName" type="java.lang.String">userName</column>
                <column alias="User" heading="Full Name" propertyName="fullName" type="java.lang.String">fullName</column>
                <function heading="Most Recent" name="MAX" type="java.sql.Timestamp">
                    <column alias="Audit Record" heading="Created" propertyName="createTimestamp" type="java.sql.Timestamp">thePersistInfo.createStamp</column>
                </function>
                <function heading="Events" name="COUNT" type="java.lang.Long">
                    <column alias="Audit Record" heading="Target" type="java.lang.String">targetName</column>
                </function>
            </select>
            <from>
                <table alias="Audit Record">wt.audit.AuditRecord</table>
                <table alias="User">wt.org.WTUser</table>
            </from>
            <where>
                <compositeCondition type="and">
                    ${condition('Audit Record', 'eventLabel', 'equal', 'objects.create')}
                    ${condition('Audit Record', 'targetName', 'like', `${n('AUD')}*`)}
                    <condition>
                        <operand>
                            <column alias="Audit Record" heading="User ID.Id" propertyName="userID.id" type="long">userID.id</column>
                        </operand>
                        <operator type="equal"/>
                        <operand>
                            <column alias="User" heading="Persist Info.Object Identifier.Id" propertyName="persistInfo.objectIdentifier.id" type="long">thePersistInfo.theObjectIdentifier.id</column>
                        </operand>
                    </condition>
                </compositeCondition>
            </where>
            <orderBy>
                <orderByItem><columnTarget heading="User"/></orderByItem>
            </orderBy>
        </query>
    </statement>
</qml>`;
    const recent = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    const alice = ['alice', 'Alice Author', recent, 2];
    const [mine] = await f.rows(doc);
    expect(mine).toEqual(alice);
    expect(Date.parse(mine[2] as string)).toBeGreaterThanOrEqual(since - 1000);
    expect(await f.rows(doc, USERS.bob)).toEqual([alice]);
    expect(await f.rows(doc, USERS.carol)).toEqual([alice, ['carol', 'Carol Librarian', recent, 1]]);
  });

  it('reads dated and unit effectivity ranges with their targets and context (query layout)', async () => {
    const doc = (cls: string, type: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" addTimeToDateFields="false" mainType="Part" joinModel="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <query>
    <selectOrConstrain distinct="false" group="false">
      ${reportAttribute('Number', '<column alias="Target" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column>')}
      ${reportAttribute('Version', '<object alias="Target" isExternal="false" propertyName="iterationDisplayIdentifier"/>')}
      ${reportAttribute('Start', `<column alias="Effectivity" isExternal="false" type="${type}" propertyName="startDate">range.start</column>`)}
      ${reportAttribute('End', `<column alias="Effectivity" isExternal="false" type="${type}" propertyName="endDate">range.end</column>`)}
      ${reportAttribute('Context', '<column alias="Context" isExternal="false" type="java.lang.String" propertyName="number">number</column>')}
    </selectOrConstrain>
    <from>
      <table alias="Target" isExternal="false" xposition="0px" yposition="40px">${PART}</table>
      <table alias="Effectivity" isExternal="false" xposition="300px" yposition="40px">${cls}</table>
      <table alias="Context" isExternal="false" xposition="600px" yposition="40px">wt.part.WTPartMaster</table>
    </from>
    <where>
      <condition><standardCondition>
        <operand><column alias="Target" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column></operand>
        <operator type="equal"/>
        <operand><constant type="java.lang.String" isMacro="false" xml:space="preserve">${n('ASM')}</constant></operand>
      </standardCondition></condition>
    </where>
    <referenceJoin>
      <join name="versionedTarget"><fromAliasTarget alias="Effectivity"/><toAliasTarget alias="Target"/></join>
      <join name="effContextReference"><fromAliasTarget alias="Effectivity"/><toAliasTarget alias="Context"/></join>
    </referenceJoin>
  </query>
</qml>`;
    const dated = doc('wt.effectivity.WTDatedEffectivity', 'java.sql.Timestamp');
    expect(await f.rows(dated)).toEqual([
      [n('ASM'), 'A.2', '2026-01-01T00:00:00.000Z', '2026-12-31T00:00:00.000Z', n('ASM')],
    ]);
    // Unit ranges are text; without a context the serial range joins to no context row.
    const units = qml(
      `<column alias="E" heading="Number">number</column><object alias="E" propertyName="displayType"/>
       <column alias="E">range.start</column><column alias="E">range.end</column>`,
      `<table alias="E">wt.fc.Item</table>`,
      `<where>${condition('E', 'number', 'like', `${n('EFF')}*`)}</where>
       <orderBy><orderByItem><columnTarget heading="Number"/></orderByItem></orderBy>`,
    );
    const res = await f.answer(units);
    expect([res.status, res.body.message]).toEqual([
      400,
      expect.stringMatching(/unknown property "range.start" of wt.fc.Item/),
    ]);
    const serial = units.replace('wt.fc.Item', 'wt.part.ProductSerialNumberEffectivity');
    expect(await f.rows(serial)).toEqual([[n('EFF2'), 'Serial Number Effectivity', '100', '199']]);
    const lots = units.replace('wt.fc.Item', 'wt.part.ProductLotNumberEffectivity');
    expect(await f.rows(lots)).toEqual([]);
    expect(await f.rows(lots, USERS.carol)).toEqual([[n('EFF9'), 'Lot Number Effectivity', 'L1', 'L9']]);
  });

  it('reads representations, derived images and mark-ups of a part', async () => {
    const doc = qml(
      `<column alias="I" heading="Image">name</column><object alias="I" heading="Type" propertyName="displayType"/>
       <column alias="P">master&gt;number</column><object alias="P" propertyName="iterationDisplayIdentifier"/>`,
      `<table alias="I">wt.viewmarkup.DerivedImage</table><table alias="P">${PART}</table>`,
      `<where>${condition('I', 'number', 'like', `${n('')}*`)}</where>
       <orderBy><orderByItem><columnTarget heading="Image"/></orderByItem></orderBy>
       <referenceJoin><join name="derivedFromReference"><aliasTarget alias="I"/><aliasTarget alias="P"/></join></referenceJoin>`,
    );
    expect(await f.rows(doc, USERS.bob)).toEqual([
      ['default viewable', 'Representation', n('ASM'), 'A.2'],
      ['thumbnail', 'Derived Image', n('ASM'), 'A.2'],
    ]);
    const markups = qml(
      `<column alias="M">name</column><column alias="M">markUpType</column>
       <column alias="R">name</column><column alias="R" type="boolean">defaultRepresentation</column><column alias="R" type="boolean">outOfDate</column>`,
      `<table alias="M">wt.viewmarkup.WTMarkUp</table><table alias="R">wt.representation.Representation</table>`,
      `<where>${condition('M', 'number', 'like', `${n('MK')}*`)}</where>
       <referenceJoin><join name="viewableReference"><aliasTarget alias="M"/><aliasTarget alias="R"/></join></referenceJoin>`,
    );
    expect(await f.rows(markups)).toEqual([['check the pads', 'ANNOTATION', 'default viewable', true, false]]);
  });

  it('runs a template joining derived images to their files: none here, as files are kept on iterations', async () => {
    const doc = qml(
      `<column alias="I">name</column><column alias="F">fileName</column>`,
      `<table alias="I">wt.viewmarkup.DerivedImage</table><table alias="F">wt.content.ApplicationData</table>`,
      `<linkJoin><join name="wt.content.HolderToContent"><aliasTarget alias="I"/><aliasTarget alias="F"/></join></linkJoin>`,
    );
    const res = await f.answer(doc);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 0, items: [] });
  });

  it('reads failed queue entries with their status, message and queue, as the process queue report does', async () => {
    const doc = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" addTimeToDateFields="false" mainType="Wt Queue Entry" joinModel="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <query>
        <selectOrConstrain distinct="false" group="false">
            <reportAttribute heading="Entry" reportAttributeId="Entry" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="Wt Queue Entry" isExternal="false" type="long" propertyName="entryNumber">entryNumber</column>
            </reportAttribute>
            <reportAttribute heading="Status" reportAttributeId="Status" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="Wt Queue Entry" isExternal="false" type="java.lang.String" propertyName="statusInfo.code">statusInfo.code</column>
            </reportAttribute>
            <reportAttribute heading="Message" reportAttributeId="Message" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="Wt Queue Entry" isExternal="false" type="java.lang.String" propertyName="statusInfo.message">statusInfo.message</column>
            </reportAttribute>
            <reportAttribute heading="Arguments" reportAttributeId="Arguments" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <object alias="Wt Queue Entry" propertyName="args"/>
            </reportAttribute>
            <reportAttribute heading="Queue" reportAttributeId="Queue" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="Wt Queue" isExternal="false" type="java.lang.String" propertyName="name">name</column>
            </reportAttribute>
            <reportAttribute heading="Modified" reportAttributeId="Modified" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="Wt Queue Entry" isExternal="false" type="java.sql.Timestamp" propertyName="modifyTimestamp">thePersistInfo.modifyStamp</column>
            </reportAttribute>
        </selectOrConstrain>
        <from>
            <table alias="Wt Queue Entry" isExternal="false" xposition="0px" yposition="40px">wt.queue.WtQueueEntry</table>
            <table alias="Wt Queue" isExternal="false" xposition="300px" yposition="40px">wt.queue.WtQueue</table>
        </from>
        <where>
            <compositeCondition type="and">
                <condition><standardCondition>
                    <operand><column alias="Wt Queue Entry" isExternal="false" type="java.lang.String" propertyName="statusInfo.code">statusInfo.code</column></operand>
                    <operator type="equal"/>
                    <operand><constant type="java.lang.String" isMacro="false" xml:space="preserve">FAILED</constant></operand>
                </standardCondition></condition>
                <condition><standardCondition>
                    <operand><column alias="Wt Queue" isExternal="false" type="java.lang.String" propertyName="name">name</column></operand>
                    <operator type="equal"/>
                    <operand><constant type="java.lang.String" isMacro="false" xml:space="preserve">${n('PublisherQueue')}</constant></operand>
                </standardCondition></condition>
            </compositeCondition>
        </where>
        <orderBy><orderByItem type="asc"><reportAttributeReference id="Entry"/></orderByItem></orderBy>
        <referenceJoin>
            <join name="queueRef">
                <fromAliasTarget alias="Wt Queue Entry"/>
                <toAliasTarget alias="Wt Queue"/>
            </join>
        </referenceJoin>
    </query>
</qml>`;
    const modified = expect.stringMatching(/^\d{4}-/);
    const failed = [1, 'FAILED', 'out of memory', `publish QE1`, n('PublisherQueue'), modified];
    expect(await f.rows(doc, USERS.bob)).toEqual([failed]);
    expect(await f.rows(doc, USERS.carol)).toEqual([
      failed,
      [3, 'FAILED', 'secret failure', 'publish QE9', n('PublisherQueue'), modified],
    ]);
  });

  it('reads options and choices, variant specifications and product instances of an end item', async () => {
    const choices = qml(
      `<column alias="C" heading="Number">master&gt;number</column><column alias="C">master&gt;name</column>
       <object alias="C" propertyName="iterationDisplayIdentifier"/><object alias="C" propertyName="displayType"/>`,
      `<table alias="C">com.ptc.windchill.option.model.Choice</table>`,
      `<where><compositeCondition type="and">${latest('C')}${condition('C', 'master&gt;number', 'like', `${n('')}*`)}</compositeCondition></where>
       <orderBy><orderByItem><columnTarget heading="Number"/></orderByItem></orderBy>`,
    );
    expect(await f.rows(choices)).toEqual([
      [n('CH1'), 'Red', 'A.2', 'Choice'],
      [n('CH2'), 'Blue', 'A.1', 'Choice'],
    ]);
    const variants = qml(
      `<column alias="V">master&gt;number</column><column alias="O">master&gt;name</column>`,
      `<table alias="V">com.ptc.wpcfg.doc.VariantSpec</table><table alias="O">com.ptc.windchill.option.model.Option</table>`,
      `<where><compositeCondition type="and">${condition('V', 'master&gt;number', 'like', `${n('')}*`)}${condition('O', 'master&gt;number', 'like', `${n('')}*`)}</compositeCondition></where>`,
    );
    expect(await f.rows(variants, USERS.bob)).toEqual([[n('VS1'), 'Colour']]);
    const instances = qml(
      `<column alias="I">serialNumber</column><column alias="I" type="java.sql.Timestamp">buildDate</column>
       <column alias="M" heading="End Item">number</column><column alias="M">name</column>`,
      `<table alias="I">wt.part.WTProductInstance2</table><table alias="M">wt.part.WTPartMaster</table>`,
      `<where>${condition('I', 'master&gt;number', 'like', `${n('SN')}*`)}</where>
       <referenceJoin><join name="partReference"><aliasTarget alias="I"/><aliasTarget alias="M"/></join></referenceJoin>`,
    );
    expect(await f.rows(instances)).toEqual([['SN-0001', '2026-05-01T00:00:00.000Z', n('ASM'), 'Board']]);
    // As an export reads them: the product's number and name, the configuration, the master's serial number.
    const exported = qml(
      `<object alias="I" heading="Context Name" propertyName="container.name"><property name="container"><property name="name"/></property></object>
       <object alias="I" heading="Part Number" propertyName="productNumber"><property name="productNumber"/></object>
       <object alias="I" heading="Part Name" propertyName="productName"/>
       <column alias="I" heading="Serial Number" type="java.lang.String">master&gt;serialNumber</column>
       <object alias="I" heading="Configuration" propertyName="configurationName"/>`,
      `<table alias="I">wt.part.WTProductInstance2</table>`,
      `<where>${condition('I', 'master&gt;number', 'like', `${n('SN')}*`)}</where>`,
    );
    expect(await f.rows(exported, USERS.bob)).toEqual([[f.names.main, n('ASM'), 'Board', 'SN-0001', 'Board as built']]);
  });

  it('reads the organisation of who made an audited change (userOrgName)', async () => {
    const db = f.db();
    const org = await db.query<{ id: number }>('SELECT id FROM objects WHERE class = $1 AND name = $2', [
      'wt.org.WTOrganization',
      n('Acme Boards'),
    ]);
    await db.query(
      `UPDATE users SET attributes = attributes || jsonb_build_object('organization', $1::int8) WHERE name = 'alice'`,
      [org.rows[0].id],
    );
    try {
      const created = await request(f.t.http)
        .post('/objects')
        .auth(...USERS.alice)
        .send({ type: 'wt.workflow.engine.WfProcess', container: f.names.main, number: n('ORG1'), name: 'audited' });
      expect(created.status).toBe(201);
      const doc = qml(
        `<column alias="R">userName</column><column alias="R">userOrgName</column><column alias="R">targetName</column>`,
        `<table alias="R">wt.audit.AuditRecord</table>`,
        `<where>${condition('R', 'targetName', 'equal', n('ORG1'))}</where>`,
      );
      expect(await f.rows(doc, USERS.bob)).toEqual([['alice', n('Acme Boards'), n('ORG1')]]);
    } finally {
      await db.query(`UPDATE users SET attributes = attributes - 'organization' WHERE name = 'alice'`);
    }
  });
});
