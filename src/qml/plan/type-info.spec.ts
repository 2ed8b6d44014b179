import { rejection } from '../qml-rejection.fixtures.js';
import { checkUserTypes, standardCatalog } from '../../catalog/catalog-load.js';
import { CatalogError } from '../../catalog/catalog-model.js';
import { buildQuery, compileTemplate } from '../qml-compiler.js';
import type { PlanRequest } from './plan.js';

const PFD = 'com.ptc.windchill.enterprise.data.PlantFunctionalData';
const MANUFACTURER = 'com.ptc.windchill.suma.supplier.Manufacturer';
const ORG = 'wt.org.WTOrganization';
const SITE = 'com.acme.ti.AssemblySite';
const LINE = 'com.acme.ti.LineSite';
const PACKAGING = 'com.acme.ti.Packaging';

/** Soft types of plant data with local attributes in typeInfo columns, as a dataset declares them. */
const catalog = checkUserTypes(
  standardCatalog(),
  {
    softTypes: [
      {
        name: SITE,
        parent: PFD,
        attributes: {
          plant: { type: 'string', typeInfoColumn: 'ptc_str_4' },
          capacity: { type: 'long', typeInfoColumn: 'ptc_lng_11' },
          rate: { type: 'double', typeInfoColumn: 'ptc_dbl_1' },
          active: { type: 'boolean', typeInfoColumn: 'ptc_bln_1' },
          since: { type: 'timestamp', typeInfoColumn: 'ptc_tms_1' },
          producer: { type: 'long', typeInfoColumn: 'ptc_ref_1', target: MANUFACTURER },
          note: { type: 'string' },
        },
      },
      { name: LINE, parent: SITE, attributes: { line: { type: 'string', typeInfoColumn: 'ptc_str_2' } } },
      {
        name: PACKAGING,
        parent: PFD,
        attributes: {
          material: { type: 'string', typeInfoColumn: 'ptc_str_4' },
          owner: { type: 'long', typeInfoColumn: 'ptc_ref_1', target: ORG },
        },
      },
    ],
  },
  'dataset types',
);

const req: PlanRequest = {
  values: {},
  user: { id: 2, name: 'alice', admin: false },
  readable: [1, 2],
  now: new Date('2026-05-06T00:00:00Z'),
  limit: 10,
};

/** Columns of table D (`from`: its class), further tables, and conditions and joins after FROM. */
function doc(from: string, columns: string[], tables = '', rest = ''): string {
  const select = columns.map((c, i) => `<column alias="D" heading="c${i}">${c}</column>`).join('');
  return `<qml><statement><query><select>${select}</select><from><table alias="D">${from}</table>${tables}</from>${rest}</query></statement></qml>`;
}
const compile = (xml: string) => compileTemplate(xml, { catalog });
const sql = (xml: string) => buildQuery(compile(xml), req).sql;
const types = (xml: string) => compile(xml).select.map((s) => (s.expr.k === 'prop' ? s.expr.prop.type : null));

const reason = (xml: string) => rejection(() => compile(xml));

describe('typeInfo columns: soft types’ local attributes as Windchill 10 and later keep them', () => {
  const site = `WCTYPE|${PFD}|${SITE}`;

  it('reads each kind of column as the type of the attribute a soft type keeps in it', () => {
    const kinds = ['ptc_str_4', 'ptc_lng_11', 'ptc_dbl_1', 'ptc_bln_1', 'ptc_tms_1', 'ptc_ref_1.key.id'];
    const columns = kinds.map((k) => `typeInfoPlantFunctionalData.${k}`);
    expect(types(doc(site, columns))).toEqual(['string', 'long', 'double', 'boolean', 'timestamp', 'long']);
    const s = sql(doc(site, columns));
    // Every row of the table is of a type that maps them: the attributes' keys, read as they are.
    for (const key of ['plant', 'capacity', 'rate', 'active', 'since', 'producer']) expect(s.values).toContain(key);
    expect(s.text).not.toContain('CASE WHEN "t1m"."soft_type"');
    expect(s.text).toContain(`SELECT ("t1"."attributes" ->> $1::text) AS "c1"`);
  });

  it('reads a column a subtype inherits, and one it adds', () => {
    const s = sql(
      doc(`WCTYPE|${PFD}|${LINE}`, ['typeInfoPlantFunctionalData.ptc_str_4', 'typeInfoPlantFunctionalData.ptc_str_2']),
    );
    expect(s.values.slice(0, 2)).toEqual(['plant', 'line']);
  });

  it('reads, on a table of every soft type, the attribute of the row’s own type (NULL for the others)', () => {
    const s = sql(doc(PFD, ['typeInfoPlantFunctionalData.ptc_str_4']));
    expect(s.text).toContain(
      `(CASE WHEN "t1m"."soft_type" IN ($1,$2) THEN ("t1"."attributes" ->> $3::text) WHEN "t1m"."soft_type" = $4 THEN ("t1"."attributes" ->> $5::text) END) AS "c1"`,
    );
    expect(s.values.slice(0, 5)).toEqual([SITE, LINE, 'plant', PACKAGING, 'material']);
  });

  it('reads the ~MBA| form on the table’s own attributes, and an unmapped one as before', () => {
    const mapped = sql(doc(site, [`${site}~MBA|typeInfoPlantFunctionalData.ptc_dbl_1`]));
    expect(mapped.text).toContain(`"t1"."attributes" -> $1::text`);
    expect(mapped.values[0]).toBe('rate');
    // No soft type maps ptc_str_9: a custom attribute of that name, the master's, else the iteration's.
    const unmapped = sql(doc(site, [`${site}~MBA|typeInfoPlantFunctionalData.ptc_str_9`]));
    expect(unmapped.text).toContain(`coalesce(("t1m"."attributes" ->> $1::text), ("t1"."attributes" ->> $2::text))`);
    expect(unmapped.values[0]).toBe('typeInfoPlantFunctionalData.ptc_str_9');
  });

  it('compares a reference’s key.id with another object’s id, and reads its key.classname', () => {
    const xml = doc(
      site,
      ['typeInfoPlantFunctionalData.ptc_ref_1.key.id', 'typeInfoPlantFunctionalData.ptc_ref_1.key.classname'],
      `<table alias="M">${MANUFACTURER}</table>`,
      `<where><condition><operand><column alias="D">typeInfoPlantFunctionalData.ptc_ref_1.key.id</column></operand><operator type="equal"/>
       <operand><column alias="M">thePersistInfo.theObjectIdentifier.id</column></operand></condition></where>`,
    );
    expect(types(xml)).toEqual(['long', 'string']);
    const s = sql(xml);
    // The id as a long (a value that is no whole number reads as NULL), equal to the producer's id.
    const id = (n: number) =>
      `(CASE WHEN jsonb_typeof(("t1"."attributes" -> $${n}::text)) = 'number' AND (("t1"."attributes" ->> $${n + 1}::text))::numeric = trunc((("t1"."attributes" ->> $${n + 2}::text))::numeric) AND abs((("t1"."attributes" ->> $${n + 3}::text))::numeric) <= 9223372036854775807 THEN (("t1"."attributes" ->> $${n + 4}::text))::numeric::int8 END)`;
    expect(s.text).toContain(`SELECT ${id(1)} AS "c1", (CASE WHEN ${id(6)} IS NOT NULL THEN $11::text END) AS "c2"`);
    expect(s.text).toContain(`AND ${id(18)} = "t2"."id")`);
    expect(s.values.slice(0, 11)).toEqual([...Array(10).fill('producer'), MANUFACTURER]);
  });

  it('joins a reference column in a referenceJoin, through the soft types that point to that class', () => {
    const join = (to: string) =>
      doc(
        PFD,
        ['number'],
        `<table alias="T">${to}</table>`,
        '<referenceJoin><join name="typeInfoPlantFunctionalData.ptc_ref_1"><aliasTarget alias="D"/><aliasTarget alias="T"/></join></referenceJoin>',
      );
    const toProducer = sql(join(MANUFACTURER));
    expect(toProducer.text).toMatch(
      /AND \(CASE WHEN "t1m"\."soft_type" IN \(\$5,\$6\) THEN \(CASE WHEN jsonb_typeof\(\("t1"\."attributes" -> \$7::text\)\) = 'number' .* END\) END\) = "t2"\."id"\)/,
    );
    expect(toProducer.values.slice(4, 7)).toEqual([SITE, LINE, 'producer']);
    expect(toProducer.values).toContain('producer');
    expect(toProducer.values).not.toContain('owner');
    const toOwner = sql(join(ORG));
    expect(toOwner.values).toContain('owner');
    expect(toOwner.values).not.toContain('producer');
    expect(reason(join('wt.vc.views.View'))).toBe(
      `/qml/statement/query/referenceJoin/join[1]/@name: reference typeInfoPlantFunctionalData.ptc_ref_1 of ${PFD} cannot point to wt.vc.views.View (it points to ${MANUFACTURER}, ${ORG})`,
    );
  });

  it('reads a column no soft type maps as null, as Windchill’s column where no type keeps an attribute, with a warning', () => {
    const at = '/qml/statement/query/select/column[1]';
    const t = compile(
      doc(
        site,
        ['typeInfoPlantFunctionalData.ptc_str_9', 'typeInfoPlantFunctionalData.ptc_ref_7.key.classname'],
        `<table alias="T">${MANUFACTURER}</table>`,
        '<referenceJoin><join name="typeInfoPlantFunctionalData.ptc_ref_8"><aliasTarget alias="D"/><aliasTarget alias="T"/></join></referenceJoin>',
      ),
    );
    expect(t.warnings).toEqual([
      {
        path: at,
        message: `typeInfoPlantFunctionalData.ptc_str_9 of ${PFD} holds no attribute (none of its soft types (${SITE}, ${LINE}) keeps one in ptc_str_9), so it reads as null; map it in the soft type's declaration ("attributes": { "<name>": { "type": "string", "typeInfoColumn": "ptc_str_9" } })`,
      },
      { path: '/qml/statement/query/select/column[2]', message: expect.stringContaining('ptc_ref_7 of') },
      {
        path: '/qml/statement/query/referenceJoin/join[1]/@name',
        message: expect.stringContaining('"typeInfoColumn": "ptc_ref_8", "target": "<class>"'),
      },
    ]);
    const s = buildQuery(t, req).sql;
    expect(s.text).toContain('SELECT NULL::text AS "c1", NULL::text AS "c2"');
    // The join finds no target: the row's reference is null.
    expect(s.text).toContain('AND NULL::int8 = "t2"."id"');
  });

  it('answers 400 for a reference read whole, a key of a value, another class’s typeInfo', () => {
    const at = '/qml/statement/query/select/column[1]';
    expect(reason(doc(site, ['typeInfoPlantFunctionalData.ptc_ref_1']))).toBe(
      `${at}: typeInfoPlantFunctionalData.ptc_ref_1 is a reference: read its typeInfoPlantFunctionalData.ptc_ref_1.key.id (or .key.classname), or join it in a referenceJoin`,
    );
    expect(reason(doc(site, ['typeInfoPlantFunctionalData.ptc_str_4.key.id']))).toBe(
      `${at}: typeInfoPlantFunctionalData.ptc_str_4 holds a string: it has no key`,
    );
    expect(reason(doc(site, ['typeInfoWTPart.ptc_str_4']))).toBe(
      `${at}: typeInfoWTPart is not a typeInfo of ${PFD} (typeInfoPlantFunctionalData)`,
    );
  });

  it('takes the typeInfo of a class above the table’s kept alike (Supplier for Manufacturer)', () => {
    const c = checkUserTypes(
      standardCatalog(),
      {
        softTypes: [
          {
            name: 'com.acme.ti.Plant',
            parent: MANUFACTURER,
            attributes: { key: { type: 'string', typeInfoColumn: 'ptc_str_5' } },
          },
        ],
      },
      'dataset types',
    );
    const t = compileTemplate(
      doc(MANUFACTURER, [`WCTYPE|${MANUFACTURER}~MBA|typeInfoSupplier.ptc_str_5`, 'typeInfoSupplier.ptc_str_5']),
      { catalog: c },
    );
    const s = buildQuery(t, req).sql;
    expect(s.text).toContain(
      `(CASE WHEN "t1"."soft_type" = $1 THEN ("t1"."props" ->> $2::text) END) AS "c1", (CASE WHEN "t1"."soft_type" = $3 THEN ("t1"."props" ->> $4::text) END) AS "c2"`,
    );
    expect(s.values.slice(0, 2)).toEqual(['com.acme.ti.Plant', 'key']);
  });
});

describe('typeInfo columns in soft type declarations', () => {
  const problems = (attributes: Record<string, unknown>, more: object[] = []) => {
    try {
      checkUserTypes(
        standardCatalog(),
        { softTypes: [{ name: 'com.acme.ti.Bad', parent: PFD, attributes }, ...more] },
        'dataset types',
      );
    } catch (e) {
      if (e instanceof CatalogError) return e.problems.map((p) => `${p.where}: ${p.message}`);
      throw e;
    }
    return [];
  };
  const at = 'dataset types: softTypes[0] (com.acme.ti.Bad)';

  it('wants the column’s kind to be the attribute’s type, and a reference’s target class', () => {
    expect(
      problems({
        a: { type: 'string', typeInfoColumn: 'ptc_lng_1' },
        b: { type: 'long', typeInfoColumn: 'ptc_ref_1' },
        c: { type: 'long', typeInfoColumn: 'ptc_ref_2', target: 'com.acme.Nothing' },
        d: { type: 'string', target: ORG },
        e: { type: 'long', typeInfoColumn: 'ptc_ref_3', target: 'wt.fc.Persistable' },
      }),
    ).toEqual([
      `${at}.attributes.a: typeInfoColumn ptc_lng_1 holds a long, not a string`,
      `${at}.attributes.b: a reference (ptc_ref_1) names the class of the objects it points to in "target"`,
      `${at}.attributes.c: unknown target class com.acme.Nothing`,
      `${at}.attributes.d: "target" is for an attribute kept in a ptc_ref_<n> column`,
      `${at}.attributes.e: target wt.fc.Persistable spans several storage kinds: name one stored class`,
    ]);
  });

  it('keeps one attribute per column in a soft type, with those it inherits', () => {
    expect(
      problems({
        a: { type: 'string', typeInfoColumn: 'ptc_str_1' },
        b: { type: 'string', typeInfoColumn: 'ptc_str_1' },
      }),
    ).toEqual([
      `${at}: attributes a and b of soft type com.acme.ti.Bad are both kept in ptc_str_1: a column holds one attribute`,
    ]);
    expect(
      problems({ a: { type: 'string', typeInfoColumn: 'ptc_str_1' } }, [
        {
          name: 'com.acme.ti.Sub',
          parent: 'com.acme.ti.Bad',
          attributes: { c: { type: 'string', typeInfoColumn: 'ptc_str_1' } },
        },
        // Declaring an inherited attribute again in the same column is no clash.
        {
          name: 'com.acme.ti.Same',
          parent: 'com.acme.ti.Bad',
          attributes: { a: { type: 'string', typeInfoColumn: 'ptc_str_1' } },
        },
      ]),
    ).toEqual([
      'dataset types: softTypes[1] (com.acme.ti.Sub): attributes a and c of soft type com.acme.ti.Sub are both kept in ptc_str_1: a column holds one attribute',
    ]);
  });

  it('refuses a column name that is no typeInfo column', () => {
    expect(problems({ a: { type: 'string', typeInfoColumn: 'ptc_text_1' } })).toEqual([
      `dataset types.softTypes.0.attributes.a.typeInfoColumn: must match pattern "^ptc_(str|lng|dbl|bln|tms|ref)_[1-9][0-9]{0,3}$"`,
    ]);
  });
});
