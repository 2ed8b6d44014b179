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

const SITE = 'com.acme.mi.AssemblySite';
const PACKAGING = 'com.acme.mi.Packaging';
const PLANT_DATA = 'com.acme.mi.PlantSpecificEnterpriseData';

/**
 * Masters joined to their iterations through Windchill's master-iteration associations, as
 * exports name them between a `…Master` table and an iteration table (both layouts, the two ends
 * in either order): plant data of two soft types, the assembly site with a second iteration, and
 * one site in a container alice and bob do not read.
 */
describe('master-iteration links in templates', () => {
  const f = useModelData(
    'MIT',
    (n) => {
      const main = n.main;
      return {
        types: {
          softTypes: [
            { name: PLANT_DATA, parent: ED, displayName: 'Plant Specific Enterprise Data' },
            { name: SITE, parent: PFD, displayName: 'Assembly Site' },
            { name: PACKAGING, parent: PFD, displayName: 'Packaging' },
          ],
        },
        objects: [
          n.object('wt.part.WTPart', 'P1', 'Gearbox', { iteration: 1 }),
          n.object('wt.part.WTPart', 'P1', 'Gearbox', { iteration: 2 }),
          { class: 'wt.vc.views.View', name: n.n('Plant 0815') },
          n.object(ED, 'ED1', 'Gearbox in plant 0815', {
            softType: PLANT_DATA,
            references: { view: n.n('Plant 0815') },
          }),
          n.object(PFD, 'PFD1', 'Assembly site', { softType: SITE, iteration: 1, description: 'hall 3, first' }),
          n.object(PFD, 'PFD1', 'Assembly site', { softType: SITE, iteration: 2, description: 'hall 3, second' }),
          n.object(PFD, 'PFD2', 'Packaging', { softType: PACKAGING, description: 'crate' }),
          n.object(PFD, 'PFD9', 'Secret site', {
            softType: SITE,
            container: n.secret,
            createdBy: 'carol',
            description: 'hidden',
          }),
        ],
        links: [
          { class: `${ED}Link`, a: { class: 'wt.part.WTPart', number: n.n('P1') }, b: n.n('ED1'), container: main },
          ...['PFD1', 'PFD2', 'PFD9'].map((b) => ({ class: `${PFD}Link`, a: n.n('ED1'), b: n.n(b), container: main })),
        ],
      };
    },
    { softTypes: 'com.acme.mi.' },
  );
  const n = f.names.n;

  beforeAll(async () => {
    // The modeled properties of plant data masters (the import fills iterations' JSON).
    await f.masterAttributes(PFD, {
      PFD1: { category: 'ASSEMBLY', alternate1: 'Hall 3' },
      PFD2: { category: 'PACKAGING', alternate1: 'Hall 5' },
      PFD9: { category: 'ASSEMBLY', alternate1: 'Hall 9' },
    });
  });

  it('lists every iteration of the assembly sites a part uses, through their masters (query layout)', async () => {
    const master = 'Plant Specific Functional Data Master';
    const qml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" addTimeToDateFields="false" forAdvancedSearch="true" mainType="Part" joinModel="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <query>
        <selectOrConstrain distinct="false" group="false">
            <layoutSectionHeader layoutSectionId="View_Specific_Enterprise_Data" text="View Specific Enterprise Data"/>
            ${reportAttribute('Plant', '<column alias="View" isExternal="false" type="java.lang.String" propertyName="name">name</column>')}
            <layoutSectionHeader layoutSectionId="Department_Data_Master" text="Department Data Master"/>
            ${reportAttribute('Number', `<column alias="${master}" isExternal="false" type="java.lang.String" propertyName="number">number</column>`)}
            ${reportAttribute('Category', `<column alias="${master}" isExternal="false" type="java.lang.String" propertyName="category">category</column>`)}
            ${reportAttribute('Hall', `<column alias="${master}" isExternal="false" type="java.lang.String" propertyName="alternate1">alternate1</column>`)}
            <layoutSectionHeader layoutSectionId="Assembly_Site" text="Assembly Site"/>
            ${reportAttribute('Description', '<column alias="Assembly Site" isExternal="false" type="java.lang.String" propertyName="description">description</column>')}
            ${reportAttribute('Version', '<object alias="Assembly Site" isExternal="false" propertyName="iterationDisplayIdentifier"/>')}
        </selectOrConstrain>
        <from>
            <table alias="Part" isExternal="false" xposition="0px" yposition="40px">wt.part.WTPart</table>
            <table alias="View Specific Enterprise Data" isExternal="false" xposition="344px" yposition="0px">WCTYPE|${ED}|${PLANT_DATA}</table>
            <table alias="View" isExternal="false" xposition="50px" yposition="143px">wt.vc.views.View</table>
            <table alias="Assembly Site" isExternal="false" xposition="836px" yposition="146px">WCTYPE|${PFD}|${SITE}</table>
            <table alias="${master}" isExternal="false" xposition="799px" yposition="0px">${PFD}Master</table>
        </from>
        <where>
            <compositeCondition type="and">
                ${latestPartNumbered(n('P1'))}
            </compositeCondition>
        </where>
        <orderBy>
            <orderByItem type="asc"><reportAttributeReference id="Number"/></orderByItem>
            <orderByItem type="asc"><reportAttributeReference id="Version"/></orderByItem>
        </orderBy>
        <linkJoin>
            ${plantDataLinks(master)}
            <join name="${PFD}MasterIteration">
                <fromAliasTarget alias="${master}"/>
                <toAliasTarget alias="Assembly Site"/>
            </join>
        </linkJoin>
        <referenceJoin>
            ${VIEW_JOIN}
        </referenceJoin>
    </query>
</qml>`;
    const plant = n('Plant 0815');
    const mine = [
      [plant, n('PFD1'), 'ASSEMBLY', 'Hall 3', 'hall 3, first', 'A.1'],
      [plant, n('PFD1'), 'ASSEMBLY', 'Hall 3', 'hall 3, second', 'A.2'],
    ];
    expect(await f.rows(qml)).toEqual(mine);
    expect(await f.rows(qml, USERS.bob)).toEqual(mine);
    // carol reads the secret container too: its site and every iteration of it.
    expect(await f.rows(qml, USERS.carol)).toEqual([
      ...mine,
      [plant, n('PFD9'), 'ASSEMBLY', 'Hall 9', 'hidden', 'A.1'],
    ]);
  });

  it('joins the ends named the other way round, iteration first (statement layout)', async () => {
    const qml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml bypassAccessControl="false">
    <statement>
        <query>
            <select>
                <column alias="Master" heading="Number" propertyName="number" type="java.lang.String">number</column>
                <column alias="Master" heading="Category" propertyName="category" type="java.lang.String">category</column>
                <object alias="Plant Data" heading="Type" propertyName="displayType"/>
                <object alias="Plant Data" heading="Version" propertyName="iterationDisplayIdentifier"/>
                <column alias="Plant Data" heading="Description" propertyName="description" type="java.lang.String">description</column>
            </select>
            <from>
                <table alias="Plant Data">${PFD}</table>
                <table alias="Master">${PFD}Master</table>
            </from>
            <where>
                <compositeCondition type="and">
                    ${latest('Plant Data')}
                    ${condition('Master', 'number', 'like', `${n('PFD')}*`)}
                </compositeCondition>
            </where>
            <orderBy><orderByItem><columnTarget heading="Number"/></orderByItem></orderBy>
            <linkJoin>
                <join name="${PFD}MasterIteration"><aliasTarget alias="Plant Data"/><aliasTarget alias="Master"/></join>
            </linkJoin>
        </query>
    </statement>
</qml>`;
    const visible = [
      [n('PFD1'), 'ASSEMBLY', 'Assembly Site', 'A.2', 'hall 3, second'],
      [n('PFD2'), 'PACKAGING', 'Packaging', 'A.1', 'crate'],
    ];
    expect(await f.rows(qml)).toEqual(visible);
    expect(await f.rows(qml, USERS.bob)).toEqual(visible);
    expect(await f.rows(qml, USERS.carol)).toEqual([
      ...visible,
      [n('PFD9'), 'ASSEMBLY', 'Assembly Site', 'A.1', 'hidden'],
    ]);
  });

  it('joins any master to its own iterations through wt.vc.MasterIteration', async () => {
    const qml = `<qml><statement><query>
      <select>
        <column alias="M" heading="Number">number</column>
        <object alias="P" heading="Version" propertyName="iterationDisplayIdentifier"/>
        <column alias="P" heading="Latest" type="boolean">iterationInfo.latest</column>
      </select>
      <from><table alias="M">wt.part.WTPartMaster</table><table alias="P">wt.part.WTPart</table></from>
      <where>${condition('M', 'number', 'equal', n('P1'))}</where>
      <orderBy><orderByItem><columnTarget heading="Version"/></orderByItem></orderBy>
      <linkJoin><join name="wt.vc.MasterIteration"><aliasTarget alias="M"/><aliasTarget alias="P"/></join></linkJoin>
    </query></statement></qml>`;
    const rows = [
      [n('P1'), 'A.1', false],
      [n('P1'), 'A.2', true],
    ];
    expect(await f.rows(qml)).toEqual(rows);
    expect(await f.rows(qml, USERS.bob)).toEqual(rows);
  });

  it('answers 400 for another class’s master and for the association as a table', async () => {
    const wrong = await f.answer(`<qml><statement><query>
      <select><column alias="M">number</column></select>
      <from><table alias="M">wt.part.WTPartMaster</table><table alias="D">${PFD}</table></from>
      <linkJoin><join name="wt.vc.MasterIteration"><aliasTarget alias="M"/><aliasTarget alias="D"/></join></linkJoin>
    </query></statement></qml>`);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      statusCode: 400,
      message: `/qml/statement/query/linkJoin/join[1]: link wt.vc.MasterIteration joins iterations to their own master: the master of ${PFD} is ${PFD}Master, not wt.part.WTPartMaster`,
    });
    const table = await f.answer(`<qml><statement><query>
      <select><column alias="L">thePersistInfo.theObjectIdentifier.id</column></select>
      <from><table alias="L">${PFD}MasterIteration</table></from>
    </query></statement></qml>`);
    expect(table.status).toBe(400);
    expect(table.body.message).toBe(
      `/qml/statement/query/from/table[1]: ${PFD}MasterIteration is no table: it joins a master to its iterations through their master reference and has no rows of its own; name it in a linkJoin of ${PFD}Master and ${PFD}`,
    );
  });
});
