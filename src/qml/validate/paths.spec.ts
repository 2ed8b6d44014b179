import { rejection } from '../qml-rejection.fixtures.js';
import { buildQuery, compileTemplate } from '../qml-compiler.js';
import { QmlLimitError } from '../qml-error.js';
import { attr, doc, ref, req, std } from '../layouts/query/query-layout.fixtures.js';
import { MAX_PATH_HOPS } from '../qml-limits.js';
import type { PlanRequest } from '../plan/plan.js';

/** Paths through references (validate-paths.ts): the joins they compile to, in every clause and both layouts. */

const PART = '<table alias="P">wt.part.WTPart</table>';
const TASK = '<table alias="W">wt.workflow.work.WorkItem</table>';
const statement = (select: string, from: string, rest = '', select_ = '<select>') =>
  `<qml><statement><query>${select_}${select}</select><from>${from}</from>${rest}</query></statement></qml>`;
const col = (alias: string, path: string, heading = path) =>
  `<column alias="${alias}" heading="${heading}">${path}</column>`;
const cond = (alias: string, path: string, op: string, value: string) =>
  `<condition><operand>${col(alias, path)}</operand><operator type="${op}"/><operand><constant>${value}</constant></operand></condition>`;
const sql = (xml: string, over: Partial<PlanRequest> = {}) => buildQuery(compileTemplate(xml), { ...req, ...over }).sql;

const reason = rejection;

/** The creator's user joined to the part, readable by every user: no access filter. */
const CREATOR = 'LEFT JOIN "users" "t1p1" ON "t1"."created_by" = "t1p1"."id"';

describe('property paths through references', () => {
  it('select a property of the target, LEFT-joined so that a null reference keeps its row', () => {
    const s = sql(statement(col('P', 'iterationInfo.creator.name') + col('P', 'iterationInfo.creator.fullName'), PART));
    expect(s.text).toBe(
      [
        'SELECT "t1p1"."name" AS "c1", "t1p1"."full_name" AS "c2"',
        `FROM "iterations" "t1" ${CREATOR}`,
        'WHERE ("t1m"."class" = $1 AND "t1m"."container_id" = ANY($2::int4[]) AND NOT "t1"."working")',
        'ORDER BY "t1"."id"',
        'LIMIT $3',
      ]
        .join('\n')
        // the master is joined for the class filter
        .replace('"t1" LEFT', '"t1" JOIN "masters" "t1m" ON "t1m"."id" = "t1"."master_id" LEFT'),
    );
  });

  it('joins the target with its class and access filters in ON, never in WHERE', () => {
    const s = sql(statement(col('W', 'source.name'), TASK));
    expect(s.text).toContain(
      'FROM "objects" "t1" LEFT JOIN "objects" "t1p1" ON (' +
        `(CASE WHEN jsonb_typeof(("t1"."props" -> $1::text)) = 'number'`,
    );
    expect(s.text).toContain(
      `"t1p1"."class" = $6 AND ("t1p1"."container_id" IS NULL OR "t1p1"."container_id" = ANY($7::int4[])))`,
    );
    expect(s.text).toContain('\nWHERE ("t1"."class" = $8 AND');
    expect(s.values.slice(5, 7)).toEqual(['wt.workflow.work.WfAssignedActivity', [1, 2]]);
    // Administrators (bypassAccessControl) read every target.
    const admin = sql(statement(col('W', 'source.name'), TASK).replace('<qml>', '<qml bypassAccessControl="true">'), {
      user: { id: 1, name: 'admin', admin: true },
      readable: null,
    });
    expect(admin.text).not.toContain('ANY(');
  });

  it('goes through several references, each joined once however many paths share it', () => {
    const s = sql(
      statement(
        col('W', 'source.name') + col('W', 'source.parentProcessRef.name') + col('W', 'source.parentProcessRef.number'),
        TASK,
      ),
    );
    expect(s.text.match(/LEFT JOIN/g)).toHaveLength(2);
    expect(s.text).toContain('SELECT "t1p1"."name" AS "c1", "t1p1p1"."name" AS "c2", "t1p1p1"."number" AS "c3"');
    // The process hangs off the activity: a process is reached only through a readable activity.
    expect(s.text).toMatch(/LEFT JOIN \("objects" "t1p1" LEFT JOIN "objects" "t1p1p1" ON .*\) ON /);
  });

  it('reads every clause: where, order and group, in the statement layout', () => {
    const where = sql(
      statement(
        col('P', 'number') + col('P', 'iterationInfo.creator.fullName', 'Creator'),
        PART,
        `<where>${cond('P', 'iterationInfo.creator.name', 'equal', 'alice')}</where>` +
          '<orderBy><orderByItem type="desc"><columnTarget heading="Creator"/></orderByItem></orderBy>',
      ),
    );
    expect(where.text).toContain(CREATOR);
    expect(where.text).toContain('AND "t1p1"."name" = $3::text)');
    expect(where.text).toContain('ORDER BY 2 DESC, "t1"."id"');
    const grouped = sql(
      statement(
        col('P', 'iterationInfo.creator.name', 'Creator') +
          '<function name="COUNT">' +
          col('P', 'number') +
          '</function>',
        PART,
        '',
        '<select group="true">',
      ),
    );
    expect(grouped.text).toContain('SELECT "t1p1"."name" AS "c1", count("t1m"."number")::int8 AS "c2"');
    expect(grouped.text).toContain('GROUP BY 1\nORDER BY 1');
  });

  it('reads every clause in the query layout: attributes, constraints, criteria and sorting', () => {
    const owner = attr(
      'Owner',
      '<column alias="W" propertyName="ownership.owner.fullName">ownership.owner.fullName</column>',
    );
    const process = attr('Process', '<column alias="W">source.parentProcessRef.name</column>', {
      defaultValue: 'Change*',
    });
    const count = attr('Tasks', '<function name="COUNT"><column alias="W">name</column></function>');
    const xml = doc(
      owner + process + count,
      `<where>${std('<column alias="W">ownership.owner.name</column>', 'notEqual', '<constant>carol</constant>')}</where>` +
        `<orderBy><orderByItem type="asc">${ref('Owner')}</orderByItem></orderBy>`,
      '<qml>',
      TASK,
    ).replace('group="false"', 'group="true"');
    const s = sql(xml);
    expect(s.text).toMatch(
      /^SELECT "t1p\d"."full_name" AS "c1", "t1p\d+p1"."name" AS "c2", count\("t1"."name"\)::int8 AS "c3"/,
    );
    expect(s.text.match(/LEFT JOIN "users"/g)).toHaveLength(1);
    expect(s.text).toMatch(/"t1p\d"."name" <> \$\d+::text/);
    expect(s.text).toMatch(/"t1p\d+p1"."name" LIKE \$\d+::text/);
    expect(s.text).toContain('GROUP BY 1, 2\nORDER BY 1, 2');
  });

  it('reads objects (derived properties) through references, and the target itself as its OID', () => {
    const t = compileTemplate(
      statement(
        '<object alias="W" heading="Owner"><property name="ownership"><property name="owner"><property name="fullName"/></property></property></object>' +
          '<object alias="W" heading="Owner object" propertyName="ownership.owner"/>' +
          '<object alias="P" heading="Creator" propertyName="iterationInfo.creator.displayType"/>',
        TASK + PART,
      ),
    );
    expect(t.select.map((s) => [s.heading, s.objectClass])).toEqual([
      ['Owner', null],
      ['Owner object', 'wt.org.WTUser'],
      ['Creator', null],
    ]);
    const s = buildQuery(t, req).sql;
    expect(s.text).toContain(
      'SELECT "t1p1"."full_name" AS "c1", ($1::text || "t1p1"."id"::text) AS "c2", $2::text AS "c3"',
    );
    expect(s.values.slice(0, 2)).toEqual(['OR:wt.org.WTUser:', 'User']);
  });

  it('reads the master through master> and masterReference as its own class', () => {
    const s = sql(statement(col('P', 'master>containerReference.name') + col('P', 'masterReference.name'), PART));
    // The part's master is a WTPartMaster: a row of masters whose class is wt.part.WTPart.
    expect(s.text).toContain(
      'ON ("t1"."master_id" = "t1p1"."id" AND "t1p1"."class" = $5 AND "t1p1"."container_id" = ANY($6::int4[]))',
    );
    expect(s.values[4]).toBe('wt.part.WTPart');
    expect(s.text).toContain('SELECT "t1p1p1"."name" AS "c1", "t1p1"."name" AS "c2"');
    // A path the class has as a property stays a property.
    expect(sql(statement(col('P', 'master>name'), PART)).text).not.toContain('LEFT JOIN');
  });

  it('takes a reference by its getter name: x for xReference (object effContext, column effContext.name)', () => {
    const EFF = '<table alias="E">wt.effectivity.WTDatedEffectivity</table>';
    const getter = sql(
      statement('<object alias="E" heading="Plant" propertyName="effContext"/>' + col('E', 'effContext.name'), EFF),
    );
    const written = sql(
      statement(
        '<object alias="E" heading="Plant" propertyName="effContextReference"/>' + col('E', 'effContextReference.name'),
        EFF,
      ),
    );
    expect(getter).toEqual(written);
    expect(getter.text).toContain('LEFT JOIN "masters" "t1p1"');
    expect(reason(() => compileTemplate(statement(col('E', 'effContexts.name'), EFF)))).toContain(
      'unknown property "effContexts.name" of wt.effectivity.WTDatedEffectivity',
    );
  });

  it('reads the id and the branch id as exports write them: persistInfo.objectIdentifier.id, iterationInfo.branchId', () => {
    const obj = (path: string) => `<object alias="P" heading="X" propertyName="${path}"/>`;
    // Windchill's getter of the id, on the table and through a reference, as the column it names.
    expect(sql(statement(obj('persistInfo.objectIdentifier.id'), PART))).toEqual(
      sql(statement(col('P', 'thePersistInfo.theObjectIdentifier.id', 'X'), PART)),
    );
    expect(sql(statement(obj('master>persistInfo.objectIdentifier.id'), PART))).toEqual(
      sql(statement(col('P', 'master>thePersistInfo.theObjectIdentifier.id', 'X'), PART)),
    );
    // The version's branch id as a column, in select and where, is branchIdentifier.
    const branch = sql(
      statement(
        col('P', 'iterationInfo.branchId', 'X'),
        PART,
        `<where>${cond('P', 'iterationInfo.branchId', 'equal', '7')}</where>`,
      ),
    );
    const version = [
      '(SELECT min("t1vb"."id") FROM iterations "t1vb"',
      '    WHERE "t1vb"."master_id" = "t1"."master_id" AND "t1vb"."version" = "t1"."version")',
    ].join('\n');
    expect(branch.text).toContain(`SELECT ${version} AS "c1"`);
    expect(branch.text).toContain(`AND ${version} = $3::int8)`);
    expect(sql(statement(obj('branchIdentifier'), PART)).text).toBe(
      sql(statement(col('P', 'iterationInfo.branchId', 'X'), PART)).text,
    );
  });

  it('reads a named path as the path it names, with more after it (roleBObject.identity, productNumber)', () => {
    const RA = '<table alias="R">wt.change2.ReportedAgainst</table>';
    const named = sql(statement('<object alias="R" heading="X" propertyName="roleBObject.identity"/>', RA));
    const written = sql(statement('<object alias="R" heading="X" propertyName="roleBObjectRef.identity"/>', RA));
    expect(named).toEqual(written);
    // identity: <number> - <name>, <version>.<iteration>, of the target's master and iteration.
    expect(named.text).toContain(
      `("t1p1m"."number" || ' - ' || "t1p1m"."name" || ', ' || "t1p1"."version" || '.' || "t1p1"."iteration"::text)`,
    );
    const PI = '<table alias="I">wt.part.WTProductInstance2</table>';
    expect(sql(statement(col('I', 'productNumber'), PI))).toEqual(sql(statement(col('I', 'partReference.number'), PI)));
    expect(reason(() => compileTemplate(statement(col('I', 'productNumbers'), PI)))).toContain(
      'unknown property "productNumbers" of wt.part.WTProductInstance2',
    );
  });

  it('hangs the joins of an outer-joined table inside its LEFT JOIN, and relates its paths to its partner in ON', () => {
    const s = sql(
      statement(
        col('P', 'number') + col('D', 'iterationInfo.creator.name'),
        `${PART}<table alias="D" outerJoinAlias="P">wt.doc.WTDocument</table>`,
        `<where>${'<condition><operand>' + col('D', 'iterationInfo.creator.name') + '</operand><operator type="equal"/><operand>' + col('P', 'iterationInfo.creator.name') + '</operand></condition>'}</where>`,
      ),
    );
    expect(s.text).toContain(
      'LEFT JOIN ("iterations" "t2" JOIN "masters" "t2m" ON "t2m"."id" = "t2"."master_id" LEFT JOIN "users" "t2p1" ON "t2"."created_by" = "t2p1"."id") ON ("t2p1"."name" = "t1p1"."name"',
    );
    expect(s.text).not.toMatch(/WHERE .*"t2p1"/);
  });

  it(`allows ${MAX_PATH_HOPS} references in a path and refuses more, naming the path`, () => {
    const four = 'source.parentProcessRef.creator.organizationReference.name';
    expect(sql(statement(col('W', four), TASK)).text.match(/LEFT JOIN/g)).toHaveLength(4);
    const five = 'source.parentProcessRef.creator.organizationReference.containerReference.name';
    expect(reason(() => compileTemplate(statement(col('W', five), TASK)))).toBe(
      `/qml/statement/query/select/column[1]: the path "${five}" of wt.workflow.work.WorkItem goes through more than 4 references`,
    );
  });

  it('checks each hop: an unknown part names the path, the class it was looked up in and the part', () => {
    expect(reason(() => compileTemplate(statement(col('P', 'iterationInfo.creator.nmae'), PART)))).toBe(
      '/qml/statement/query/select/column[1]: unknown property "nmae" of wt.org.WTUser (in "iterationInfo.creator.nmae" of wt.part.WTPart, through iterationInfo.creator)',
    );
    expect(reason(() => compileTemplate(statement(col('W', 'source.parentProcessRef.nothing.name'), TASK)))).toBe(
      '/qml/statement/query/select/column[1]: unknown property "nothing.name" of wt.workflow.engine.WfProcess (in "source.parentProcessRef.nothing.name" of wt.workflow.work.WorkItem, through source, parentProcessRef)',
    );
    // No reference at the start: the message of an unknown property, as before.
    expect(reason(() => compileTemplate(statement(col('P', 'creator.name'), PART)))).toBe(
      '/qml/statement/query/select/column[1]: unknown property "creator.name" of wt.part.WTPart',
    );
    // In the query layout the message names the attribute's element.
    const xml = doc(attr('Owner', '<column alias="W">ownership.owner.nickname</column>'), '', '<qml>', TASK);
    expect(reason(() => compileTemplate(xml))).toBe(
      '/qml/query/selectOrConstrain/reportAttribute[1]/column[1]: unknown property "nickname" of wt.org.WTUser (in "ownership.owner.nickname" of wt.workflow.work.WorkItem, through ownership.owner)',
    );
  });

  it('counts the joins of paths against maxTables', () => {
    const three = col('W', 'source.name') + col('W', 'ownership.owner.name');
    expect(compileTemplate(statement(three, TASK), { limits: { maxTables: 3 } }).tables).toHaveLength(3);
    let error: unknown;
    try {
      compileTemplate(statement(three + col('W', 'source.parentProcessRef.name'), TASK), { limits: { maxTables: 3 } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QmlLimitError);
    expect((error as QmlLimitError).limit).toBe('maxTables');
  });
});
