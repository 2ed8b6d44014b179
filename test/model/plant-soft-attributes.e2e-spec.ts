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

const SUMA = 'com.ptc.windchill.suma.supplier.';
const SITE = 'com.acme.sa.AssemblySite';
const PACKAGING = 'com.acme.sa.Packaging';
const PLANT = 'com.acme.sa.Plant';
const PLANT_DATA = 'com.acme.sa.PlantSpecificEnterpriseData';

/**
 * Soft attributes read where Windchill 10 and later keep them, in typeInfo columns
 * (`typeInfoPlantFunctionalData.ptc_ref_1`, `~MBA|typeInfoSupplier.ptc_str_4` …) mapped to the
 * attributes of soft types a dataset declares, by templates written as the public `Related…`
 * plant data exports are (both layouts): an assembly site whose second iteration names another
 * producing plant, that plant in a container alice and bob do not read, and one more site only
 * carol reads.
 */
describe('soft attributes in typeInfo columns (plant data templates)', () => {
  const f = useModelData(
    'TIC',
    (n) => {
      const main = n.main;
      const site = (iteration: number, attributes: Record<string, unknown>, more: Record<string, unknown> = {}) =>
        n.object(PFD, 'PFD1', 'Assembly site', { softType: SITE, iteration, attributes, ...more });
      return {
        types: {
          softTypes: [
            { name: PLANT_DATA, parent: ED, displayName: 'Plant Specific Enterprise Data' },
            {
              name: SITE,
              parent: PFD,
              displayName: 'Assembly Site',
              attributes: {
                plantCode: { type: 'string', typeInfoColumn: 'ptc_str_4' },
                capacity: { type: 'long', typeInfoColumn: 'ptc_lng_11' },
                share: { type: 'double', typeInfoColumn: 'ptc_dbl_1' },
                active: { type: 'boolean', typeInfoColumn: 'ptc_bln_1' },
                validFrom: { type: 'timestamp', typeInfoColumn: 'ptc_tms_1' },
                inhouseProduction: { type: 'long', typeInfoColumn: 'ptc_ref_1', target: `${SUMA}Manufacturer` },
              },
            },
            {
              name: PACKAGING,
              parent: PFD,
              displayName: 'Packaging',
              attributes: {
                packagingType: { type: 'string', typeInfoColumn: 'ptc_str_4' },
                supplier: { type: 'long', typeInfoColumn: 'ptc_ref_1', target: `${SUMA}Supplier` },
              },
            },
            {
              name: PLANT,
              parent: `${SUMA}Manufacturer`,
              displayName: 'Plant',
              attributes: {
                plantName: { type: 'string', typeInfoColumn: 'ptc_str_4' },
                plantKey: { type: 'string', typeInfoColumn: 'ptc_str_5' },
              },
            },
          ],
        },
        objects: [
          { class: 'wt.org.WTOrganization', name: n.n('Gears GmbH'), properties: { description: 'gears' } },
          { class: 'wt.org.WTOrganization', name: n.n('Castings AG'), properties: { description: 'castings' } },
          {
            ...n.object(`${SUMA}Manufacturer`, 'M1', 'Dingolfing', { softType: PLANT }),
            attributes: { plantName: 'Plant Dingolfing', plantKey: '02.10' },
            references: { organizationReference: n.n('Gears GmbH') },
          },
          {
            ...n.object(`${SUMA}Manufacturer`, 'M2', 'Leipzig', {
              softType: PLANT,
              container: n.secret,
              createdBy: 'carol',
            }),
            attributes: { plantName: 'Plant Leipzig', plantKey: '07.10' },
            references: { organizationReference: n.n('Castings AG') },
          },
          n.object(`${SUMA}Supplier`, 'S1', 'Crates Ltd'),
          n.object('wt.part.WTPart', 'P1', 'Gearbox', { iteration: 1 }),
          n.object('wt.part.WTPart', 'P1', 'Gearbox', { iteration: 2 }),
          { class: 'wt.vc.views.View', name: n.n('Plant 0815') },
          n.object(ED, 'ED1', 'Gearbox in plant 0815', {
            softType: PLANT_DATA,
            references: { view: n.n('Plant 0815') },
          }),
          site(1, { plantCode: 'DGF', capacity: 1200, share: 0.6, active: true, validFrom: '2026-01-01T00:00:00Z' }),
          site(2, { plantCode: 'LEJ', capacity: 800, share: 0.4, active: false, validFrom: '2026-07-01T00:00:00Z' }),
          n.object(PFD, 'PFD2', 'Packaging', { softType: PACKAGING, attributes: { packagingType: 'crate' } }),
          n.object(PFD, 'PFD9', 'Secret site', {
            softType: SITE,
            container: n.secret,
            createdBy: 'carol',
            attributes: { plantCode: 'SEC', capacity: 5 },
          }),
        ],
        links: [
          { class: `${ED}Link`, a: { class: 'wt.part.WTPart', number: n.n('P1') }, b: n.n('ED1'), container: main },
          ...['PFD1', 'PFD2', 'PFD9'].map((b) => ({ class: `${PFD}Link`, a: n.n('ED1'), b: n.n(b), container: main })),
        ],
      };
    },
    { softTypes: 'com.acme.sa.' },
  );
  const n = f.names.n;

  beforeAll(async () => {
    const db = f.db();
    const site = { category: 'ASSEMBLY', alternate1: 'Hall 3' };
    await f.masterAttributes(PFD, { PFD1: site, PFD9: site });
    // A reference attribute holds its target's id, known once the import made the target.
    for (const [number, iteration, key, target] of [
      ['PFD1', 1, 'inhouseProduction', 'M1'],
      ['PFD1', 2, 'inhouseProduction', 'M2'],
      ['PFD9', 1, 'inhouseProduction', 'M1'],
      ['PFD2', 1, 'supplier', 'S1'],
    ] as const) {
      await db.query(
        `UPDATE iterations i SET attributes = i.attributes || jsonb_build_object($1::text, (SELECT id FROM objects WHERE number = $2))
         FROM masters m WHERE m.id = i.master_id AND m.class = $3 AND m.number = $4 AND i.iteration = $5`,
        [key, n(target), PFD, n(number), iteration],
      );
    }
  });

  it('finds the producing plant of each assembly site iteration a part uses (query layout, as exported)', async () => {
    const master = 'Plant Specific Functional Data Master';
    const producer = 'In House Production';
    const org = 'Organization (wt.org.WTOrganization)';
    const qml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" addTimeToDateFields="false" forAdvancedSearch="true" mainType="Part" joinModel="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <query>
        <selectOrConstrain distinct="false" group="false">
            <layoutSectionHeader layoutSectionId="View_Specific_Enterprise_Data" text="View Specific Enterprise Data"/>
            ${reportAttribute('Plant', '<column alias="View" isExternal="false" type="java.lang.String" propertyName="name">name</column>')}
            <layoutSectionHeader layoutSectionId="Department_Data_Master" text="Department Data Master"/>
            ${reportAttribute('Category', `<column alias="${master}" isExternal="false" type="java.lang.String" propertyName="category">category</column>`)}
            ${reportAttribute('Hall/Line', `<column alias="${master}" isExternal="false" type="java.lang.String" propertyName="alternate1">alternate1</column>`)}
            <layoutSectionHeader layoutSectionId="Assembly_Location" text="Assembly Site"/>
            ${reportAttribute('Version', '<object alias="Assembly Site" isExternal="false" propertyName="iterationDisplayIdentifier"/>')}
            ${reportAttribute('Plant Code', `<column alias="Assembly Site" isExternal="false" type="java.lang.String" propertyName="WCTYPE|${PFD}|${SITE}~MBA|typeInfoPlantFunctionalData.ptc_str_4">WCTYPE|${PFD}|${SITE}~MBA|typeInfoPlantFunctionalData.ptc_str_4</column>`)}
            ${reportAttribute('AS - Supplier ID', `<column alias="${org}" isExternal="false" type="java.lang.String" propertyName="name">name</column>`)}
            ${reportAttribute('AS - Plant', `<column alias="${producer}" isExternal="false" type="java.lang.String" propertyName="WCTYPE|${SUMA}Manufacturer~MBA|typeInfoSupplier.ptc_str_4">WCTYPE|${SUMA}Manufacturer~MBA|typeInfoSupplier.ptc_str_4</column>`)}
            ${reportAttribute('AS - Plant Key', `<column alias="${producer}" isExternal="false" type="java.lang.String" propertyName="WCTYPE|${SUMA}Manufacturer~MBA|typeInfoSupplier.ptc_str_5">WCTYPE|${SUMA}Manufacturer~MBA|typeInfoSupplier.ptc_str_5</column>`)}
            ${reportAttribute('AS - Plant Description', `<column alias="${org}" isExternal="false" type="java.lang.String" propertyName="description">description</column>`)}
        </selectOrConstrain>
        <from>
            <table alias="Part" isExternal="false" xposition="0px" yposition="40px">wt.part.WTPart</table>
            <table alias="View Specific Enterprise Data" isExternal="false" xposition="344px" yposition="0px">WCTYPE|${ED}|${PLANT_DATA}</table>
            <table alias="View" isExternal="false" xposition="50px" yposition="143px">wt.vc.views.View</table>
            <table alias="Assembly Site" isExternal="false" xposition="836px" yposition="146px">WCTYPE|${PFD}|${SITE}</table>
            <table alias="${master}" isExternal="false" xposition="799px" yposition="0px">${PFD}Master</table>
            <table alias="${producer}" isExternal="false" xposition="805px" yposition="257px">${SUMA}Manufacturer</table>
            <table alias="${org}" isExternal="false" xposition="472px" yposition="251px">wt.org.WTOrganization</table>
        </from>
        <where>
            <compositeCondition type="and">
                <condition><standardCondition>
                    <operand><column alias="Assembly Site" isExternal="false" type="long" propertyName="typeInfoPlantFunctionalData.ptc_ref_1.objectId.id">typeInfoPlantFunctionalData.ptc_ref_1.key.id</column></operand>
                    <operator type="equal"/>
                    <operand><column alias="${producer}" isExternal="false" type="long" propertyName="persistInfo.objectIdentifier.id">thePersistInfo.theObjectIdentifier.id</column></operand>
                </standardCondition></condition>
                ${latestPartNumbered(n('P1'))}
            </compositeCondition>
        </where>
        <orderBy>
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
            <join name="typeInfoPlantFunctionalData.ptc_ref_1">
                <fromAliasTarget alias="Assembly Site"/>
                <toAliasTarget alias="${producer}"/>
            </join>
            <join name="organizationReference">
                <fromAliasTarget alias="${producer}"/>
                <toAliasTarget alias="${org}"/>
            </join>
        </referenceJoin>
        <descriptionForExport>Related assembly sites of a part, with the plant producing them.</descriptionForExport>
    </query>
</qml>`;
    const plant = n('Plant 0815');
    const first = [plant, 'ASSEMBLY', 'Hall 3', 'A.1', 'DGF', n('Gears GmbH'), 'Plant Dingolfing', '02.10', 'gears'];
    // The second iteration names the plant in the secret container: alice and bob read no row of it.
    expect(await f.rows(qml)).toEqual([first]);
    expect(await f.rows(qml, USERS.bob)).toEqual([first]);
    expect(await f.rows(qml, USERS.carol)).toEqual([
      first,
      [plant, 'ASSEMBLY', 'Hall 3', 'A.1', 'SEC', n('Gears GmbH'), 'Plant Dingolfing', '02.10', 'gears'],
      [plant, 'ASSEMBLY', 'Hall 3', 'A.2', 'LEJ', n('Castings AG'), 'Plant Leipzig', '07.10', 'castings'],
    ]);
  });

  it('reads every kind of typeInfo column of the latest plant data, by each row’s soft type (statement layout)', async () => {
    const col = (heading: string, path: string, type: string) =>
      `<column alias="Plant Data" heading="${heading}" propertyName="${path}" type="${type}">${path}</column>`;
    const qml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml bypassAccessControl="false">
    <statement>
        <query>
            <select>
                ${col('Number', 'number', 'java.lang.String')}
                <object alias="Plant Data" heading="Type" propertyName="displayType"/>
                ${col('Code', 'typeInfoPlantFunctionalData.ptc_str_4', 'java.lang.String')}
                ${col('Capacity', 'typeInfoPlantFunctionalData.ptc_lng_11', 'java.lang.Long')}
                ${col('Share', 'typeInfoPlantFunctionalData.ptc_dbl_1', 'com.ptc.core.meta.common.FloatingPoint')}
                ${col('Active', 'typeInfoPlantFunctionalData.ptc_bln_1', 'java.lang.Boolean')}
                ${col('Valid From', 'typeInfoPlantFunctionalData.ptc_tms_1', 'java.sql.Timestamp')}
                ${col('Producer Class', 'typeInfoPlantFunctionalData.ptc_ref_1.key.classname', 'java.lang.String')}
            </select>
            <from>
                <table alias="Plant Data">${PFD}</table>
            </from>
            <where>
                <compositeCondition type="and">
                    ${latest('Plant Data')}
                    ${condition('Plant Data', 'number', 'like', `${n('PFD')}*`)}
                </compositeCondition>
            </where>
            <orderBy><orderByItem><columnTarget heading="Number"/></orderByItem></orderBy>
        </query>
    </statement>
</qml>`;
    const visible = [
      [n('PFD1'), 'Assembly Site', 'LEJ', 800, 0.4, false, '2026-07-01T00:00:00.000Z', `${SUMA}Manufacturer`],
      [n('PFD2'), 'Packaging', 'crate', null, null, null, null, `${SUMA}Supplier`],
    ];
    expect(await f.rows(qml)).toEqual(visible);
    expect(await f.rows(qml, USERS.bob)).toEqual(visible);
    expect(await f.rows(qml, USERS.carol)).toEqual([
      ...visible,
      [n('PFD9'), 'Assembly Site', 'SEC', 5, null, null, null, `${SUMA}Manufacturer`],
    ]);
  });

  it('joins a reference column of every soft type to the class it may point to', async () => {
    const qml = (to: string) => `<qml><statement><query>
      <select>
        <column alias="D" heading="Number">number</column>
        <object alias="D" heading="Version" propertyName="iterationDisplayIdentifier"/>
        <column alias="T" heading="Points To">number</column>
      </select>
      <from><table alias="D">${PFD}</table><table alias="T">${to}</table></from>
      <where>${condition('D', 'number', 'like', `${n('PFD')}*`)}</where>
      <orderBy><orderByItem><columnTarget heading="Number"/></orderByItem><orderByItem><columnTarget heading="Version"/></orderByItem></orderBy>
      <referenceJoin><join name="typeInfoPlantFunctionalData.ptc_ref_1"><aliasTarget alias="D"/><aliasTarget alias="T"/></join></referenceJoin>
    </query></statement></qml>`;
    // Sites point to manufacturers, packaging to any supplier: a manufacturer is one as well.
    expect(await f.rows(qml(`${SUMA}Manufacturer`))).toEqual([[n('PFD1'), 'A.1', n('M1')]]);
    expect(await f.rows(qml(`${SUMA}Manufacturer`), USERS.carol)).toEqual([
      [n('PFD1'), 'A.1', n('M1')],
      [n('PFD1'), 'A.2', n('M2')],
      [n('PFD9'), 'A.1', n('M1')],
    ]);
    expect(await f.rows(qml(`${SUMA}Supplier`))).toEqual([
      [n('PFD1'), 'A.1', n('M1')],
      [n('PFD2'), 'A.1', n('S1')],
    ]);
    const view = await f.answer(qml('wt.vc.views.View'));
    expect(view.status).toBe(400);
    expect(view.body.message).toBe(
      `/qml/statement/query/referenceJoin/join[1]/@name: reference typeInfoPlantFunctionalData.ptc_ref_1 of ${PFD} cannot point to wt.vc.views.View (it points to ${SUMA}Manufacturer, ${SUMA}Supplier)`,
    );
  });

  it('reads a column no soft type maps as null on every row, as Windchill does where no type keeps an attribute', async () => {
    const res = await f.answer(`<qml><statement><query>
      <select><column alias="D">number</column><column alias="D">typeInfoPlantFunctionalData.ptc_str_7</column></select>
      <from><table alias="D">WCTYPE|${PFD}|${SITE}</table></from>
    </query></statement></qml>`);
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.map((r: unknown[]) => r[1])).toEqual(res.body.items.map(() => null));
  });
});
