import { buildQuery, compileTemplate } from '../qml-compiler.js';
import { req } from '../layouts/query/query-layout.fixtures.js';
import type { PlanRequest } from './plan.js';

const sql = (xml: string, over: Partial<PlanRequest> = {}) => buildQuery(compileTemplate(xml), { ...req, ...over }).sql;
const ADMIN: Partial<PlanRequest> = { user: { id: 1, name: 'admin', admin: true }, readable: null };

const q = (body: string, params = '', root = '<qml>') =>
  `${root}${params}<statement><query>${body}</query></statement></qml>`;
const FROM = '<from><table alias="D">wt.doc.WTDocument</table></from>';
const col = (alias: string, path: string, heading = path) =>
  `<column alias="${alias}" heading="${heading}">${path}</column>`;
const SELECT = `<select>${col('D', 'number')}${col('D', 'checkoutInfo.state')}</select>`;
const cmp = (path: string, op: string, operand: string) =>
  `<condition><operand>${col('D', path)}</operand><operator type="${op}"/><operand>${operand}</operand></condition>`;
const constant = (text: string) => `<constant>${text}</constant>`;
const where = (c: string) => `${SELECT}${FROM}<where>${c}</where>`;

const STATE =
  `(CASE WHEN "t1"."working" THEN 'wrk' WHEN "t1"."latest" AND "t1m"."checked_out_by" IS NOT NULL THEN 'c/o' ` +
  `ELSE 'c/i' END)`;

describe('working copies of check-outs in report SQL', () => {
  it('keeps working copies out of a table of every iteration, whoever runs it, selecting their state or not', () => {
    const s = sql(q(`${SELECT}${FROM}`));
    expect(s.text).toBe(
      [
        `SELECT "t1m"."number" AS "c1", ${STATE} AS "c2"`,
        `FROM "iterations" "t1" JOIN "masters" "t1m" ON "t1m"."id" = "t1"."master_id"`,
        `WHERE ("t1m"."class" = $1 AND "t1m"."container_id" = ANY($2::int4[]) AND NOT "t1"."working")`,
        `ORDER BY "t1"."id"`,
        'LIMIT $3',
      ].join('\n'),
    );
    expect(s.values).toEqual(['wt.doc.WTDocument', [1, 2], 101]);
    // An administrator bypassing access control reads no working copy either.
    const admin = sql(q(`${SELECT}${FROM}`, '', '<qml bypassAccessControl="true">'), ADMIN);
    expect(admin.text).toContain(`WHERE ("t1m"."class" = $1 AND NOT "t1"."working")`);
  });

  it('adds no working filter where the template keeps latest iterations, which are never working copies', () => {
    const latest = sql(q(where(cmp('iterationInfo.latest', 'equal', constant('1')))));
    expect(latest.text).toContain(
      `WHERE ("t1m"."class" = $1 AND "t1m"."container_id" = ANY($2::int4[]) AND "t1"."latest" = $3::boolean)`,
    );
    expect(latest.text).not.toContain('NOT "t1"."working"');
    // latest = false, or a latest inside an OR, keeps the filter.
    const older = sql(q(where(cmp('iterationInfo.latest', 'equal', constant('0')))));
    expect(older.text).toContain(`AND NOT "t1"."working" AND "t1"."latest" = $3::boolean)`);
    const either = sql(
      q(
        where(
          `<compositeCondition type="or">${cmp('iterationInfo.latest', 'equal', constant('1'))}${cmp('name', 'equal', constant('x'))}</compositeCondition>`,
        ),
      ),
    );
    expect(either.text).toContain('NOT "t1"."working"');
  });

  it('decides on a parameter of latest by its value in the request', () => {
    const doc = q(where(cmp('iterationInfo.latest', 'equal', '<parameterTarget name="b"/>')), '<parameter name="b"/>');
    expect(sql(doc, { values: { b: 'true' } }).text).not.toContain('NOT "t1"."working"');
    expect(sql(doc, { values: { b: 'false' } }).text).toContain(
      'AND NOT "t1"."working" AND "t1"."latest" = $3::boolean',
    );
  });

  it("gives the caller's own working copies where a condition asks for them, never another's", () => {
    const s = sql(q(where(cmp('checkoutInfo.state', 'equal', constant('wrk')))));
    expect(s.text).toContain(
      `WHERE ("t1m"."class" = $1 AND "t1m"."container_id" = ANY($2::int4[]) AND (NOT "t1"."working" OR "t1m"."checked_out_by" = $3::int8) AND ${STATE} = $4::text)`,
    );
    // The caller's id is a bound value: alice is user 2 here, bob 3.
    expect(s.values).toEqual(['wt.doc.WTDocument', [1, 2], 2, 'wrk', 101]);
    const bob = sql(q(where(cmp('checkoutInfo.state', 'equal', constant('wrk')))), {
      user: { id: 3, name: 'bob', admin: false },
    });
    expect(bob.values).toEqual(['wt.doc.WTDocument', [1, 2], 3, 'wrk', 101]);
    // A condition excluding them asks about the state too: the caller's are kept out by it.
    const not = sql(q(where(cmp('checkoutInfo.state', 'notEqual', constant('wrk')))));
    expect(not.text).toContain(`(NOT "t1"."working" OR "t1m"."checked_out_by" = $3::int8) AND ${STATE} <> $4::text`);
  });

  it('asks for working copies through an interface table too', () => {
    const s = sql(
      q(`<select><column alias="W" heading="N">number</column></select><from><table alias="W">wt.vc.wip.Workable</table></from>
      <where><condition><operand><column alias="W">checkoutInfo.state</column></operand><operator type="equal"/><operand><constant>wrk</constant></operand></condition></where>`),
    );
    expect(s.text).toContain('(NOT "t1"."working" OR "t1m"."checked_out_by" = $');
  });

  it('keeps the files of working copies out: in the access check of their holder, or on their own', () => {
    const files = q(
      `<select>${col('F', 'fileName')}</select><from><table alias="F">wt.content.ApplicationData</table></from>`,
    );
    expect(sql(files).text).toContain(
      `WHERE EXISTS (SELECT 1 FROM "iterations" "t1h" JOIN "masters" "t1hm" ON "t1hm"."id" = "t1h"."master_id" WHERE "t1h"."id" = "t1"."iteration_id" AND NOT "t1h"."working" AND "t1hm"."container_id" = ANY($1::int4[]))`,
    );
    const admin = sql(files.replace('<qml>', '<qml bypassAccessControl="true">'), ADMIN);
    expect(admin.text).toContain(
      `WHERE NOT EXISTS (SELECT 1 FROM "iterations" "t1w" WHERE "t1w"."id" = "t1"."iteration_id" AND "t1w"."working")`,
    );
  });

  it('leaves the files and usage links joined to their holder to its filter', () => {
    const s = sql(
      q(`<select>${col('D', 'number')}${col('F', 'fileName')}</select>
      <from><table alias="D">wt.doc.WTDocument</table><table alias="F">wt.content.ApplicationData</table></from>
      <linkJoin><join name="wt.content.HolderToContent"><aliasTarget alias="D"/><aliasTarget alias="F"/></join></linkJoin>`),
    );
    expect(s.text).toContain(`AND NOT "t1"."working"`);
    expect(s.text).not.toContain('EXISTS');
  });

  it('filters an outer-joined iteration table in its ON clause', () => {
    const s = sql(
      q(`<select><column alias="L">quantity.amount</column>${col('P', 'number')}</select>
      <from><table alias="L">wt.part.WTPartUsageLink</table><table alias="P" outerJoinAlias="L">wt.part.WTPart</table></from>
      <referenceJoin><join name="roleAObjectRef"><aliasTarget alias="L"/><aliasTarget alias="P"/></join></referenceJoin>`),
    );
    expect(s.text).toMatch(/LEFT JOIN \("iterations" "t2" [^\n]*\) ON \([^\n]*NOT "t2"."working"\)\nWHERE/);
    // The link's own holder check keeps out the links of working copies.
    expect(s.text).toContain(`WHERE "t2h"."id" = "t1"."parent_id" AND NOT "t2h"."working"`.replace(/t2h/g, 't1h'));
  });
});
