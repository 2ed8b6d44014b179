import { readFileSync } from 'node:fs';
import { checkUserTypes, standardCatalog } from '../../catalog/catalog-load.js';
import { buildQuery, compileTemplate } from '../qml-compiler.js';
import { req } from '../layouts/query/query-layout.fixtures.js';
import type { PlanRequest } from '../plan/plan.js';

const demo = JSON.parse(readFileSync(new URL('../../../prisma/demo-dataset.json', import.meta.url), 'utf8')) as {
  reports: { name: string; qml: string }[];
};
const qml = (name: string) => demo.reports.find((r) => r.name === name)!.qml;

const sql = (text: string, over: Partial<PlanRequest> = {}) =>
  buildQuery(compileTemplate(text), { ...req, ...over }).sql;

describe('renderSql', () => {
  it('renders "Documents by number" with bound values and generated aliases', () => {
    const s = sql(qml('Documents by number'), { values: { number: "x' OR '1'='1*" } });
    expect(s.text).toBe(
      [
        `SELECT ('OR:' || "t1m"."class" || $1 || "t1"."id"::text) AS "c1", "t1m"."number" AS "c2", "t1m"."name" AS "c3", "t1"."state" AS "c4", "t1"."modified_at" AS "c5"`,
        `FROM "iterations" "t1" JOIN "masters" "t1m" ON "t1m"."id" = "t1"."master_id"`,
        `WHERE ("t1m"."class" = $2 AND "t1m"."container_id" = ANY($3::int4[]) AND ("t1m"."number" LIKE $4::text AND "t1m"."number" ~>=~ $5::text AND "t1m"."number" ~<~ $6::text) AND "t1"."latest" = $7::boolean)`,
        `ORDER BY 2, "t1"."id"`,
        'LIMIT $8',
      ].join('\n'),
    );
    expect(s.values).toEqual([
      ':',
      'wt.doc.WTDocument',
      [1, 2],
      "x' OR '1'='1%",
      "x' OR '1'='1",
      "x' OR '1'='2",
      true,
      101,
    ]);
  });

  it('renders "Part structure" with reference joins in WHERE and a total order', () => {
    const s = sql(qml('Part structure'), { readable: null });
    expect(s.text).toBe(
      [
        `SELECT "t1m"."number" AS "c1", "t3"."number" AS "c2", "t3"."name" AS "c3", "t2"."quantity" AS "c4", "t2"."line_number" AS "c5"`,
        `FROM "iterations" "t1" JOIN "masters" "t1m" ON "t1m"."id" = "t1"."master_id"`,
        `CROSS JOIN "usage_links" "t2"`,
        `CROSS JOIN "masters" "t3"`,
        `WHERE ("t1m"."class" = $1 AND "t2"."class" = $2 AND "t3"."class" = $3 AND "t1"."latest" = $4::boolean AND "t2"."parent_id" = "t1"."id" AND "t2"."child_id" = "t3"."id")`,
        `ORDER BY 1, 5, "t1"."id", "t2"."id", "t3"."id"`,
        'LIMIT $5',
      ].join('\n'),
    );
  });

  it('renders "Files per state" grouped by ordinal with aggregates cast to their type', () => {
    const s = sql(qml('Files per state'), { readable: [3] });
    expect(s.text).toContain(
      'SELECT "t1"."state" AS "c1", count("t2"."id")::int8 AS "c2", sum("t2"."size")::int8 AS "c3"',
    );
    // The files are readable through their holder, which is filtered: no check of their own.
    expect(s.text).toContain('"t1m"."container_id" = ANY($2::int4[])');
    expect(s.text).not.toContain('EXISTS');
    expect(s.text).toContain('GROUP BY 1\nORDER BY 3 DESC, 1\n');
  });

  it('renders "My recent work" with DISTINCT, days arithmetic and the caller as a bound value', () => {
    const s = sql(qml('My recent work'), { values: { days: '7' } });
    expect(s.text).toMatch(/^SELECT DISTINCT /);
    // displayType: the display names of the classes are bound values too.
    expect(s.text).toContain('(CASE "t1m"."class" WHEN $2::text THEN $3::text WHEN $4::text THEN $5::text');
    expect(s.text).toContain('"t1"."modified_at" >= (statement_timestamp() - ($13::float8) * interval \'1 day\')');
    expect(s.text).toContain('"t1"."modified_by" = "t2"."id"');
    expect(s.values).toContain('alice');
    expect(s.values).toContain(7);
  });

  it('puts no text of the document into the SQL', () => {
    for (const r of demo.reports) {
      const s = sql(r.qml);
      for (const text of ['Document', 'Part', 'using', 'usedMaster', 'Modifier', 'Last Modified', 'material']) {
        expect(s.text).not.toContain(`"${text}"`);
      }
    }
    const s = sql(qml('Released parts'));
    expect(s.text).not.toContain('material');
    expect(s.values).toContain('material');
  });

  it('renders outer joins with the partner condition and filters in ON', () => {
    const s =
      sql(`<qml><statement><query><select><column alias="D">name</column><column alias="F">fileName</column></select>
      <from><table alias="D">wt.doc.WTDocument</table><table alias="F" outerJoinAlias="D">wt.content.ApplicationData</table></from>
      <linkJoin><join name="wt.content.HolderToContent"><aliasTarget alias="D"/><aliasTarget alias="F"/></join></linkJoin></query></statement></qml>`);
    expect(s.text).toContain('LEFT JOIN "content_items" "t2" ON "t2"."iteration_id" = "t1"."id"\nWHERE');
    const unjoined = sql(`<qml><statement><query><select><column alias="F">fileName</column></select>
      <from><table alias="F">wt.content.ApplicationData</table></from></query></statement></qml>`);
    expect(unjoined.text).toContain(
      'WHERE EXISTS (SELECT 1 FROM "iterations" "t1h" JOIN "masters" "t1hm" ON "t1hm"."id" = "t1h"."master_id" WHERE "t1h"."id" = "t1"."iteration_id" AND NOT "t1h"."working" AND "t1hm"."container_id" = ANY($1::int4[]))',
    );
  });

  it('renders link joins through usage links, in/null conditions, attributes and functions', () => {
    const s =
      sql(`<qml><statement><query><select><column alias="P" type="double">WCTYPE|wt.part.WTPart~IBA|weight</column>
      <function name="CONCAT"><column alias="M">number</column><constant>-</constant></function><function name="SUBSTRING"><column alias="M">name</column><constant>1</constant><constant>3</constant></function></select>
      <from><table alias="P">wt.part.WTPart</table><table alias="M">wt.part.WTPartMaster</table></from>
      <where><compositeCondition type="or"><condition><operand><column alias="P">title</column></operand><nullOperator type="isNull"/></condition>
      <condition><operand><column alias="P">state.state</column></operand><inOperator type="notIn"/><inOperand><delimitedList><constant>A,B</constant></delimitedList></inOperand></condition></compositeCondition></where>
      <linkJoin><join name="wt.part.WTPartUsageLink"><aliasTarget alias="P"/><aliasTarget alias="M"/></join></linkJoin></query></statement></qml>`);
    expect(s.text).toContain(
      `(CASE WHEN jsonb_typeof(("t1"."attributes" -> $1::text)) = 'number' AND abs((("t1"."attributes" ->> $2::text))::numeric) < 1e308 THEN (("t1"."attributes" ->> $3::text))::float8 END) AS "c1"`,
    );
    expect(s.text).toContain('concat("t2"."number", $4::text)');
    expect(s.text).toContain('substring("t2"."name" from ($5::int8)::int4 for greatest(($6::int8)::int4, 0))');
    expect(s.text).toContain('("t1"."title" IS NULL OR "t1"."state" NOT IN ($11::text, $12::text))');
    expect(s.text).toContain(
      'EXISTS (SELECT 1 FROM "usage_links" "t1lt2" WHERE "t1lt2"."class" = $13 AND "t1lt2"."parent_id" = "t1"."id" AND "t1lt2"."child_id" = "t2"."id")',
    );
  });

  /** Change orders → their activities → the activities' affected parts, over `links` rows. */
  const changePathQml = (tables: string) =>
    `<qml><statement><query><select><column alias="CN">number</column><column alias="CA">number</column><column alias="P">number</column></select>
      <from>${tables}</from>
      <linkJoin><join name="wt.change2.IncludedIn2"><aliasTarget alias="CN"/><aliasTarget alias="CA"/></join>
        <join name="wt.change2.AffectedActivityData"><aliasTarget alias="CA"/><aliasTarget alias="P"/></join></linkJoin></query></statement></qml>`;
  const changePath = (tables: string) => sql(changePathQml(tables));
  const ORDER = '<table alias="CN">wt.change2.WTChangeOrder2</table>';
  const ACTIVITY = '<table alias="CA">wt.change2.WTChangeActivity2</table>';
  const PART = '<table alias="P">wt.part.WTPart</table>';

  it('joins links of one class in `links` along the path from the first table, not as EXISTS', () => {
    const s = changePath(ORDER + ACTIVITY + PART);
    expect(s.text.split('\nWHERE')[0]).toBe(
      [
        `SELECT "t1m"."number" AS "c1", "t2m"."number" AS "c2", "t3m"."number" AS "c3"`,
        `FROM "iterations" "t1" JOIN "masters" "t1m" ON "t1m"."id" = "t1"."master_id"`,
        `JOIN "links" "t1lt2" ON "t1lt2"."class" = $1 AND "t1lt2"."role_a_id" = "t1"."id" AND ("t1lt2"."container_id" IS NULL OR "t1lt2"."container_id" = ANY($2::int4[]))`,
        `JOIN "iterations" "t2" ON "t2"."id" = "t1lt2"."role_b_id" JOIN "masters" "t2m" ON "t2m"."id" = "t2"."master_id"`,
        `JOIN "links" "t2lt3" ON "t2lt3"."class" = $3 AND "t2lt3"."role_a_id" = "t2"."id" AND ("t2lt3"."container_id" IS NULL OR "t2lt3"."container_id" = ANY($4::int4[]))`,
        `JOIN "iterations" "t3" ON "t3"."id" = "t2lt3"."role_b_id" JOIN "masters" "t3m" ON "t3m"."id" = "t3"."master_id"`,
      ].join('\n'),
    );
    expect(s.values.slice(0, 4)).toEqual(['wt.change2.IncludedIn2', [1, 2], 'wt.change2.AffectedActivityData', [1, 2]]);
    expect(s.text).not.toContain('EXISTS');
    expect(s.text).not.toContain('CROSS JOIN');
    // Listed the other way round, the path starts at the parts.
    const reversed = changePath(PART + ACTIVITY + ORDER);
    expect(reversed.text).toContain('JOIN "links" "t2lt1" ON "t2lt1"."class" = $1 AND "t2lt1"."role_b_id" = "t1"."id"');
    expect(reversed.text).toContain('JOIN "iterations" "t2" ON "t2"."id" = "t2lt1"."role_a_id"');
    expect(reversed.text).toContain('JOIN "links" "t3lt2" ON "t3lt2"."class" = $3 AND "t3lt2"."role_b_id" = "t2"."id"');
    expect(reversed.text).toContain('JOIN "iterations" "t3" ON "t3"."id" = "t3lt2"."role_a_id"');
    // A table listed before the path reaches it waits for it.
    const later = changePath(ORDER + PART + ACTIVITY);
    expect(later.text).toContain('JOIN "iterations" "t3" ON "t3"."id" = "t1lt3"."role_b_id"');
    expect(later.text).toContain('JOIN "iterations" "t2" ON "t2"."id" = "t3lt2"."role_b_id"');
    expect(later.text).not.toContain('EXISTS');
    expect(later.text).not.toContain('CROSS JOIN');
  });

  it('keeps EXISTS where a join could repeat rows or an outer join fixes the order', () => {
    // A link class with a subclass: one pair of ends may have a row of each.
    const catalog = checkUserTypes(
      standardCatalog(),
      { classes: [{ name: 'ext.SpecialAffected', parent: 'wt.change2.AffectedActivityData' }] },
      'test',
    );
    const several = buildQuery(compileTemplate(changePathQml(ORDER + ACTIVITY + PART), { catalog }), req).sql;
    expect(several.text).toContain('JOIN "links" "t1lt2"');
    expect(several.text).toMatch(/EXISTS \(SELECT 1 FROM "links" "t2lt3" WHERE "t2lt3"\."class" IN \(/);
    expect(several.text).toContain('CROSS JOIN "iterations" "t3"');
    // (Usage links, which have no unique key over both ends, stay EXISTS: see above.)
    // With an outer join the tables stay in their order, links in WHERE.
    const outer = changePath(ORDER + ACTIVITY + '<table alias="P" outerJoinAlias="CA">wt.part.WTPart</table>');
    expect(outer.text).toContain('CROSS JOIN "iterations" "t2"');
    expect(outer.text).toContain('EXISTS (SELECT 1 FROM "links" "t1lt2"');
  });

  it("gives a LIKE with a literal prefix that prefix's byte range, which a generic plan can use", () => {
    const docs = (pattern: string, not = false) =>
      buildQuery(
        compileTemplate(`<qml><statement><query><select><column alias="D">number</column></select>
        <from><table alias="D">wt.doc.WTDocument</table></from>
        <where><condition><operand><column alias="D">master&gt;number</column></operand><operator type="${not ? 'notLike' : 'like'}"/><operand><constant>${pattern}</constant></operand></condition></where></query></statement></qml>`),
        req,
      );
    const prefixed = docs('AB-1*');
    expect(prefixed.sql.text).toContain(
      '("t1m"."number" LIKE $3::text AND "t1m"."number" ~>=~ $4::text AND "t1m"."number" ~<~ $5::text)',
    );
    expect(prefixed.sql.values.slice(2, 5)).toEqual(['AB-1%', 'AB-1', 'AB-2']);
    expect(prefixed.genericPlan).toBe(true);
    // No prefix, or NOT LIKE: no index range either way, so the plan may be generic too.
    for (const q of [docs('*-1'), docs('AB*', true)]) {
      expect(q.sql.text).not.toContain('~>=~');
      expect(q.genericPlan).toBe(true);
    }
    // A prefix whose last character has no next one (U+10FFFF): planned for its value each time.
    const last = docs('\u{10FFFF}*');
    expect(last.sql.text).not.toContain('~>=~');
    expect(last.genericPlan).toBe(false);
  });

  it('looks up the containers of a member inside the query', () => {
    const s = sql(qml('Released parts'), { readable: { memberOf: 9 } });
    expect(s.text).toContain(
      '"t1m"."container_id" = ANY(ARRAY(SELECT "container_id" FROM "access_roles" WHERE "user_id" = $3::int4))',
    );
    expect(s.values[2]).toBe(9);
  });

  it('renders an empty in-list and no readable containers as FALSE', () => {
    const s = sql(
      `<qml><statement><query><select><column alias="C">name</column></select><from><table alias="C">wt.inf.container.WTContainer</table></from>
      <where><condition><operand><column alias="C">name</column></operand><inOperator type="in"/><inOperand><delimitedList><constant>,</constant></delimitedList></inOperand></condition></where></query></statement></qml>`,
      { readable: [] },
    );
    expect(s.text).toContain('WHERE ("t1"."class" IN ($1,$2,$3) AND FALSE AND FALSE)');
  });

  it('reads JSON-kept properties of each type with a guarded cast, the key a bound value', () => {
    const s = sql(`<qml><statement><query><select><column alias="W">template</column><column alias="W">priority</column>
      <column alias="I">required</column><column alias="W">startTime</column><column alias="C">estimatedCost</column></select>
      <from><table alias="W">wt.workflow.engine.WfProcess</table><table alias="I">wt.workflow.work.WorkItem</table><table alias="C">wt.change2.WTChangeOrder2</table></from>
      </query></statement></qml>`);
    expect(s.text).toContain('("t1"."props" ->> $1::text) AS "c1"');
    expect(s.text).toContain(
      `(CASE WHEN jsonb_typeof(("t1"."props" -> $2::text)) = 'number' AND (("t1"."props" ->> $3::text))::numeric = trunc((("t1"."props" ->> $4::text))::numeric)`,
    );
    expect(s.text).toContain(
      `(CASE WHEN jsonb_typeof(("t2"."props" -> $7::text)) = 'boolean' THEN (("t2"."props" ->> $8::text))::boolean END) AS "c3"`,
    );
    expect(s.text).toContain(
      `jsonb_path_query_first(to_jsonb(regexp_replace(replace(("t1"."props" ->> $10::text), 'T', ' '), 'Z$', '+00:00')), '$.datetime()', '{}', true)`,
    );
    expect(s.text).toContain(`(CASE WHEN jsonb_typeof(("t3"."attributes" -> $11::text)) = 'number' AND abs`);
    expect(new Set(s.values.slice(0, 13))).toEqual(
      new Set(['template', 'priority', 'required', 'startTime', 'estimatedCost']),
    );
    // Plain objects are readable through their container, or by everyone without one.
    expect(s.text).toContain('("t1"."container_id" IS NULL OR "t1"."container_id" = ANY(');
  });

  it('renders every computed derived property from whitelisted columns and bound names', () => {
    const d = (alias: string, prop: string) => `<object alias="${alias}" propertyName="${prop}"/>`;
    const s =
      sql(`<qml><statement><query><select>${d('W', '')}${d('W', 'thePersistInfo.theObjectIdentifier.classname')}${d('W', 'displayType')}${d('W', 'type')}${d('W', 'containerName')}
      ${d('M', 'thePersistInfo.theObjectIdentifier.classname')}${d('M', '')}${d('F', 'formatName')}${d('F', '')}${d('D', 'iterationDisplayIdentifier')}${d('D', 'folderPath')}</select>
      <from><table alias="W">wt.workflow.work.WorkItem</table><table alias="M">wt.part.WTPartMaster</table><table alias="F">wt.content.ApplicationData</table><table alias="D">wt.doc.WTDocument</table></from>
      </query></statement></qml>`);
    expect(s.text).toContain(`('OR:' || "t1"."class" || $1 || "t1"."id"::text) AS "c1", "t1"."class" AS "c2"`);
    expect(s.text).toContain('(CASE "t1"."class" WHEN $2::text THEN $3::text END) AS "c3"');
    expect(s.text).toContain(`("t1"."class" || coalesce('|' || "t1"."soft_type", '')) AS "c4", "t1c"."name" AS "c5"`);
    expect(s.text).toContain(
      `("t2"."class" || 'Master') AS "c6", ('OR:' || "t2"."class" || $4 || "t2"."id"::text) AS "c7"`,
    );
    expect(s.text).toContain('coalesce((CASE "t3"."mime_type" WHEN');
    expect(s.text).toContain(
      `("t4"."version" || '.' || "t4"."iteration"::text) AS "c10", ('/' || "t4c"."name") AS "c11"`,
    );
    expect(s.values).toEqual(
      expect.arrayContaining([':', 'wt.workflow.work.WorkItem', 'Task', 'Master:', 'OR:wt.content.ApplicationData:']),
    );
  });
});
