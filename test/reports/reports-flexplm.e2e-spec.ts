import { USERS } from '../helpers/test-app.js';
import { condition, latest, useModelData } from '../model/model-fixtures.js';

const PRODUCT = 'com.lcs.wc.product.LCSProduct';
const SKU = 'com.lcs.wc.product.LCSSKU';
const MATERIAL = 'com.lcs.wc.material.LCSMaterial';
const BOM_LINK = 'com.lcs.wc.flexbom.FlexBOMLink';

const str = (json: string) => ({ type: 'string', json });
/** The product (versioned, with its master), its colourways, materials and the BOM link of a colourway to a material. */
const TYPES = {
  classes: [
    { name: PRODUCT, parent: 'wt.vc.Iterated', master: `${PRODUCT}Master`, properties: { seasonName: str('season') } },
    { name: `${PRODUCT}Master`, parent: 'wt.vc.Mastered' },
    {
      name: SKU,
      parent: 'wt.fc.Item',
      properties: { att3: str('colorCode'), 'productMasterReference.key.id': { type: 'long', json: 'product' } },
      references: { productMasterReference: { target: `${PRODUCT}Master`, json: 'product' } },
    },
    { name: MATERIAL, parent: 'wt.fc.Item', properties: { att1: str('materialCode') } },
    {
      name: BOM_LINK,
      parent: 'wt.fc.ObjectToObjectLink',
      roles: { a: SKU, b: MATERIAL },
      properties: { colorName: str('colorName'), quantity: { type: 'double', json: 'quantity' } },
    },
  ],
};

/** Two columns equal, as exports write a join condition on ids. */
const same = (a: string, aPath: string, b: string, bPath: string) =>
  `<condition><operand><column alias="${a}" type="long">${aPath}</column></operand><operator type="equal"/>` +
  `<operand><column alias="${b}" type="long">${bPath}</column></operand></condition>`;
const join = (name: string, from: string, to: string) =>
  `<join name="${name}"><aliasTarget alias="${from}"/><aliasTarget alias="${to}"/></join>`;

/**
 * A FlexPLM model declared as data (a versioned product, its colourways, materials and the BOM
 * link of a colourway to a material with the colour it takes there), and templates written as
 * FlexPLM exports them: a second iteration of the product, and a colourway and a material in a
 * container only carol reads.
 */
describe('FlexPLM classes a dataset declares, in report templates', () => {
  const f = useModelData(
    'FLX',
    (n) => ({
      types: TYPES,
      objects: [
        n.object(PRODUCT, 'P1', 'Hoodie', { iteration: 1, properties: { seasonName: 'Spring 2026' } }),
        n.object(PRODUCT, 'P1', 'Hoodie', { iteration: 2, properties: { seasonName: 'Fall 2026' } }),
        ...[
          ['S1', 'Hoodie red', 'RED'],
          ['S2', 'Hoodie black', 'BLK'],
          ['S3', 'Hoodie gold', 'GLD'],
        ].map(([s, name, code]) =>
          n.object(SKU, s, name, {
            properties: { att3: code },
            references: { productMasterReference: { class: `${PRODUCT}Master`, number: n.n('P1') } },
            ...(s === 'S3' && { container: n.secret, createdBy: 'carol' }),
          }),
        ),
        n.object(MATERIAL, 'M1', 'Cotton fleece', { properties: { att1: 'COTTON' } }),
        n.object(MATERIAL, 'M2', 'Zip', { properties: { att1: 'METAL' } }),
        n.object(MATERIAL, 'M3', 'Gold thread', {
          properties: { att1: 'GOLD' },
          container: n.secret,
          createdBy: 'carol',
        }),
      ],
      links: [
        ['S1', 'M1', 'Red', 1.2],
        ['S1', 'M2', 'Silver', 1],
        ['S2', 'M1', 'Black', 1.2],
        ['S2', 'M2', 'Black', 1],
        ['S3', 'M1', 'Gold', 1.2],
        ['S3', 'M3', 'Gold', 0.1],
      ].map(([a, b, colorName, quantity]) => ({
        class: BOM_LINK,
        a: n.n(a as string),
        b: n.n(b as string),
        container: a === 'S3' ? n.secret : n.main,
        properties: { colorName, quantity },
      })),
    }),
    { softTypes: 'com.lcs.wc.' },
  );
  const n = f.names.n;

  it('lists the BOM of the latest product iteration by colourway (referenceJoin to the link ends)', async () => {
    const qml = `<?xml version="1.0" encoding="UTF-8"?>
<qml bypassAccessControl="false">
  <statement>
    <query>
      <select distinct="false" group="false">
        <column alias="Product" heading="Product" propertyName="name" type="java.lang.String">master&gt;name</column>
        <column alias="Product" heading="Season" propertyName="seasonName" type="java.lang.String">seasonName</column>
        <column alias="Colorway" heading="Colorway" propertyName="name" type="java.lang.String">name</column>
        <column alias="Material" heading="Material" propertyName="name" type="java.lang.String">name</column>
        <column alias="BOM Link" heading="Color" propertyName="colorName" type="java.lang.String">colorName</column>
        <column alias="BOM Link" heading="Quantity" propertyName="quantity" type="double">quantity</column>
      </select>
      <from>
        <table alias="Product" isExternal="false">${PRODUCT}</table>
        <table alias="Colorway" isExternal="false">${SKU}</table>
        <table alias="BOM Link" isExternal="false">${BOM_LINK}</table>
        <table alias="Material" isExternal="false">${MATERIAL}</table>
      </from>
      <where>
        <compositeCondition type="and">
          ${latest('Product')}
          ${condition('Product', 'number', 'like', `${n('P')}%`)}
          ${same('Colorway', 'productMasterReference.key.id', 'Product', 'masterReference.key.id')}
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem type="asc"><columnTarget heading="Colorway"/></orderByItem>
        <orderByItem type="asc"><columnTarget heading="Material"/></orderByItem>
      </orderBy>
      <referenceJoin>
        ${join('roleAObjectRef', 'BOM Link', 'Colorway')}
        ${join('roleBObjectRef', 'BOM Link', 'Material')}
      </referenceJoin>
    </query>
  </statement>
</qml>`;
    const line = (sku: string, mat: string, color: string, q: number) => ['Hoodie', 'Fall 2026', sku, mat, color, q];
    const black = [line('Hoodie black', 'Cotton fleece', 'Black', 1.2), line('Hoodie black', 'Zip', 'Black', 1)];
    const gold = [line('Hoodie gold', 'Cotton fleece', 'Gold', 1.2), line('Hoodie gold', 'Gold thread', 'Gold', 0.1)];
    const red = [line('Hoodie red', 'Cotton fleece', 'Red', 1.2), line('Hoodie red', 'Zip', 'Silver', 1)];
    // The latest iteration of the product only; carol also reads the gold colourway and its gold thread.
    const alice = await f.answer(qml);
    expect([alice.status, alice.body.items]).toEqual([200, [...black, ...red]]);
    const carol = await f.answer(qml, USERS.carol);
    expect([carol.status, carol.body.items]).toEqual([200, [...black, ...gold, ...red]]);
  });

  it('finds the colourways using a material (linkJoin), with their product through a reference', async () => {
    const qml = `<qml>
  <statement>
    <query>
      <select>
        <column alias="Material" heading="Material" type="java.lang.String">name</column>
        <column alias="Material" heading="Material Code" type="java.lang.String">att1</column>
        <column alias="Colorway" heading="Colorway" type="java.lang.String">name</column>
        <column alias="Colorway" heading="Color Code" type="java.lang.String">att3</column>
        <object alias="Colorway" heading="Product" propertyName="productMaster.name"/>
      </select>
      <from>
        <table alias="Colorway">${SKU}</table>
        <table alias="Material">${MATERIAL}</table>
      </from>
      <where>
        <compositeCondition type="and">
          ${condition('Material', 'att1', 'equal', 'COTTON')}
          ${condition('Colorway', 'number', 'like', `${n('S')}%`)}
        </compositeCondition>
      </where>
      <orderBy><orderByItem type="asc"><columnTarget heading="Color Code"/></orderByItem></orderBy>
      <linkJoin>${join(BOM_LINK, 'Colorway', 'Material')}</linkJoin>
    </query>
  </statement>
</qml>`;
    const row = (colorway: string, code: string) => ['Cotton fleece', 'COTTON', colorway, code, 'Hoodie'];
    const alice = await f.answer(qml);
    expect([alice.status, alice.body.items]).toEqual([200, [row('Hoodie black', 'BLK'), row('Hoodie red', 'RED')]]);
    const carol = await f.answer(qml, USERS.carol);
    expect([carol.status, carol.body.items]).toEqual([
      200,
      [row('Hoodie black', 'BLK'), row('Hoodie gold', 'GLD'), row('Hoodie red', 'RED')],
    ]);
  });

  it('answers 400 for a FlexPLM class the dataset did not declare', async () => {
    const res = await f.answer(`<qml><statement><query>
      <select><column alias="C" heading="Color">name</column></select>
      <from><table alias="C">com.lcs.wc.color.LCSColor</table></from>
    </query></statement></qml>`);
    expect([res.status, res.body.message]).toEqual([
      400,
      '/qml/statement/query/from/table[1]: unknown class com.lcs.wc.color.LCSColor: neither it nor its package ' +
        'com.lcs.wc.color is in the catalog; declare it in the dataset\'s "types" (docs/catalog.md) as a class (or as a soft type of a known class)',
    ]);
  });
});
