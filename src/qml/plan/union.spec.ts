import { rejection } from '../qml-rejection.fixtures.js';
import { checkUserTypes, standardCatalog } from '../../catalog/catalog-load.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogFile } from '../../catalog/catalog-model.js';
import { buildQuery, compileTemplate } from '../qml-compiler.js';
import { req } from '../layouts/query/query-layout.fixtures.js';

/** Tables of interfaces (validate/validate-paths.ts, plan-tables.ts): one storage, or the union of several. */

const std = standardCatalog();
const withTypes = (file: CatalogFile) => checkUserTypes(std, file, 'types');
const statement = (select: string, from: string, rest = '') =>
  `<qml><statement><query><select>${select}</select><from>${from}</from>${rest}</query></statement></qml>`;
const col = (alias: string, path: string) => `<column alias="${alias}" heading="${path}">${path}</column>`;
const obj = (alias: string, path: string) =>
  `<object alias="${alias}" heading="${path || 'object'}" propertyName="${path}"/>`;
const sql = (xml: string, catalog: Catalog = std) => buildQuery(compileTemplate(xml, { catalog }), req).sql;

const reason = rejection;

/** Users' plain classes implementing LifeCycleManaged: one keeps the state where wt.fc.Item does, one in JSON. */
const INSPECTIONS: CatalogFile = {
  classes: [
    { name: 'com.acme.qa.Inspection', parent: 'wt.fc.Item', interfaces: ['wt.lifecycle.LifeCycleManaged'] },
    {
      name: 'com.acme.qa.Audit',
      parent: 'wt.fc.Item',
      interfaces: ['wt.lifecycle.LifeCycleManaged'],
      properties: { 'state.state': { type: 'string', json: 'status' } },
    },
  ],
};

describe('tables of interfaces', () => {
  it('read an interface of one storage as a table of it, matching every implementing class', () => {
    const s = sql(
      statement(col('L', 'state.state') + col('L', 'name'), '<table alias="L">wt.lifecycle.LifeCycleManaged</table>'),
    );
    expect(s.text).toBe(
      [
        'SELECT "t1"."state" AS "c1", "t1m"."name" AS "c2"',
        'FROM "iterations" "t1" JOIN "masters" "t1m" ON "t1m"."id" = "t1"."master_id"',
        'WHERE ("t1m"."class" IN ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21) AND "t1m"."container_id" = ANY($22::int4[]) AND NOT "t1"."working")',
        'ORDER BY "t1"."id"',
        'LIMIT $23',
      ].join('\n'),
    );
    expect(s.values.slice(0, 21)).toEqual(std.concreteBelow('wt.lifecycle.LifeCycleManaged'));
    // As Windchill 10 and later write it.
    const typed = statement(col('L', 'name'), '<table alias="L">WCTYPE|wt.lifecycle.LifeCycleManaged</table>');
    expect(sql(typed).text).toContain(
      '"t1m"."class" IN ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21)',
    );
    const union = statement(col('F', 'name'), '<table alias="F">WCTYPE|wt.ufid.Federatable</table>');
    expect(sql(union).text).toContain('UNION ALL');
  });

  it('read an interface of several storages as the union of their rows, each arm filtered by class and access', () => {
    const s = sql(
      statement(
        col('F', 'name') + obj('F', '') + obj('F', 'displayType'),
        '<table alias="F">wt.ufid.Federatable</table>',
      ),
    );
    expect(s.text).toBe(
      [
        'SELECT "t1"."v1" AS "c1", "t1"."v2" AS "c2", "t1"."v3" AS "c3"',
        'FROM (SELECT "t1a1"."id" AS "id", $1::int8 AS "u", "t1a1"."name" AS "v1", ($2::text || "t1a1"."id"::text) AS "v2", $3::text AS "v3" FROM "users" "t1a1"',
        'UNION ALL',
        `SELECT "t1a2"."id" AS "id", $4::int8 AS "u", "t1a2m"."name" AS "v1", ('OR:' || "t1a2m"."class" || $5 || "t1a2"."id"::text) AS "v2", (CASE "t1a2m"."class" WHEN $6::text THEN $7::text WHEN $8::text THEN $9::text WHEN $10::text THEN $11::text END) AS "v3" FROM "iterations" "t1a2" JOIN "masters" "t1a2m" ON "t1a2m"."id" = "t1a2"."master_id" WHERE ("t1a2m"."class" IN ($12,$13,$14) AND "t1a2m"."container_id" = ANY($15::int4[]) AND NOT "t1a2"."working")) "t1"`,
        // Ids of different tables may be equal: the arm breaks the tie.
        'ORDER BY "t1"."u", "t1"."id"',
        'LIMIT $16',
      ].join('\n'),
    );
    const t = compileTemplate(statement(obj('F', ''), '<table alias="F">wt.ufid.Federatable</table>'));
    expect(t.select[0].objectClass).toBe('wt.ufid.Federatable');
  });

  it('split the classes of one storage into arms where they keep a property differently', () => {
    const cat = withTypes(INSPECTIONS);
    const s = sql(statement(col('L', 'state.state'), '<table alias="L">wt.lifecycle.LifeCycleManaged</table>'), cat);
    const arms = s.text.split('UNION ALL');
    expect(arms).toHaveLength(3);
    expect(arms[0]).toContain('"t1a1"."state" AS "v1" FROM "iterations" "t1a1"');
    expect(arms[1]).toContain('"t1a2"."state" AS "v1" FROM "objects" "t1a2" WHERE ("t1a2"."class" = $');
    expect(arms[2]).toContain(`("t1a3"."props" ->> $`);
    expect(s.values).toContain('com.acme.qa.Inspection');
    expect(s.values).toContain('com.acme.qa.Audit');
    // What every class keeps alike is one arm per storage.
    const byStorage = sql(statement(col('L', 'name'), '<table alias="L">wt.lifecycle.LifeCycleManaged</table>'), cat);
    expect(byStorage.text.split('UNION ALL')).toHaveLength(2);
  });

  it('go through references of every implementing class, and reference joins from and to a union', () => {
    const contained = '<table alias="C">wt.inf.container.WTContained</table>';
    const path = sql(statement(col('C', 'containerReference.name'), contained));
    expect(path.text).toMatch(
      /\) "t1" LEFT JOIN "containers" "t1p1" ON \("t1"."v1" = "t1p1"."id" AND "t1p1"."class" IN/,
    );
    expect(path.text.split('UNION ALL')).toHaveLength(4);
    const join = sql(
      statement(
        obj('C', 'containerName') + col('K', 'name'),
        `${contained}<table alias="K">wt.pdmlink.PDMLinkProduct</table>`,
        '<referenceJoin><join name="containerReference"><aliasTarget alias="C"/><aliasTarget alias="K"/></join></referenceJoin>',
      ),
    );
    expect(join.text).toMatch(/"t1"."v\d" = "t2"."id"/);
    // A work item's business object (an OID of any class) joined to a table of an interface: OIDs compared.
    const to = sql(
      statement(
        col('W', 'name') + col('F', 'name'),
        '<table alias="W">wt.workflow.work.WorkItem</table><table alias="F">wt.ufid.Federatable</table>',
        '<referenceJoin><join name="primaryBusinessObject"><aliasTarget alias="W"/><aliasTarget alias="F"/></join></referenceJoin>',
      ),
    );
    expect(to.text).toMatch(/\("t1"."props" ->> \$\d+::text\) = "t2"."v2"/);
  });

  it('reach a target of several storages through an OID: each storage LEFT-joined by its key, one row at most', () => {
    const s = sql(
      statement(obj('W', 'primaryBusinessObject.displayType'), '<table alias="W">wt.workflow.work.WorkItem</table>'),
    );
    const oid = '("t1"."props" ->> $';
    // Each arm: found by the id in the OID, then the whole OID compared, then its own filters.
    expect(s.text).toContain(`LEFT JOIN "users" "t1p1a1" ON ("t1p1a1"."id" = (CASE WHEN ${oid}`);
    expect(s.text).toMatch(
      /LEFT JOIN \("iterations" "t1p1a6" JOIN "masters" "t1p1a6m" ON "t1p1a6m"."id" = "t1p1a6"."master_id"\) ON \(\("t1p1a6"."id" = \(CASE WHEN .* THEN split_part\(.*, ':', 3\)::int8 END\) AND \("t1"."props" ->> \$\d+::text\) = \('OR:' \|\| "t1p1a6m"."class" \|\| \$\d+ \|\| "t1p1a6"."id"::text\)\) AND "t1p1a6m"."class" IN/,
    );
    expect(s.text).not.toContain('UNION ALL');
    // The value is the matching arm's: a constant of an arm that did not match never shows.
    expect(s.text).toMatch(
      /^SELECT \(CASE WHEN "t1p1a1"."id" IS NOT NULL THEN \$1::text WHEN "t1p1a2"."id" IS NOT NULL THEN /,
    );
    expect(s.values[0]).toBe('User');
  });

  it('refuse a property some implementing classes lack, or keep with another type, naming them', () => {
    expect(
      reason(() =>
        compileTemplate(statement(col('C', 'description'), '<table alias="C">wt.inf.container.WTContained</table>')),
      ),
    ).toMatch(
      /^\/qml\/statement\/query\/select\/column\[1\]: property "description" of wt.inf.container.WTContained: its classes wt.doc.WTDocumentMaster, wt.epm.EPMDocumentMaster, wt.part.WTPartMaster, .* and \d+ more have no such property \(every class it matches must\)$/,
    );
    const cat = withTypes({
      classes: [
        {
          name: 'com.acme.Site',
          parent: 'wt.fc.Item',
          interfaces: ['wt.ufid.Federatable'],
          properties: { name: { type: 'long', json: 'siteNumber' } },
        },
      ],
    });
    expect(reason(() => sql(statement(col('F', 'name'), '<table alias="F">wt.ufid.Federatable</table>'), cat))).toBe(
      '/qml/statement/query/select/column[1]: property "name" of wt.ufid.Federatable has a different type in its classes (string, long)',
    );
    expect(reason(() => sql(statement(col('F', 'nothing'), '<table alias="F">wt.ufid.Federatable</table>')))).toBe(
      '/qml/statement/query/select/column[1]: unknown property "nothing" of wt.ufid.Federatable (none of its classes has it)',
    );
  });

  it('name a soft type of an interface by its class, and refuse an interface no class implements', () => {
    const s = sql(
      statement(
        col('S', 'name'),
        '<table alias="S">WCTYPE|wt.lifecycle.LifeCycleManaged|com.acme.SoftwarePart</table>',
      ),
      withTypes({ softTypes: [{ name: 'com.acme.SoftwarePart', parent: 'wt.part.WTPart' }] }),
    );
    expect(s.text).toContain('"t1m"."class" = $1 AND "t1m"."soft_type" = $2');
    const cat = withTypes({ interfaces: [{ name: 'com.acme.Lonely' }] });
    expect(reason(() => sql(statement(obj('X', ''), '<table alias="X">com.acme.Lonely</table>'), cat))).toBe(
      '/qml/statement/query/from/table[1]: com.acme.Lonely has no class with objects (no class implements it)',
    );
  });
});
