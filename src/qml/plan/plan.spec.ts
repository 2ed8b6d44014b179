import { rejection } from '../qml-rejection.fixtures.js';
import { STORAGES } from '../../catalog/storage.js';
import { parseQml } from '../parse/parse.js';
import { planQuery, type PlanRequest } from './plan.js';
import { validateQml } from '../validate/validate.js';

const NOW = new Date('2026-05-06T07:08:09.000Z');
const req = (over: Partial<PlanRequest> = {}): PlanRequest => ({
  values: {},
  user: { id: 7, name: 'alice', admin: false },
  readable: [1, 2],
  now: NOW,
  limit: 11,
  ...over,
});
const plan = (xml: string, over: Partial<PlanRequest> = {}) => planQuery(validateQml(parseQml(xml)), req(over));
const q = (body: string, params = '', root = '<qml>') =>
  `${root}${params}<statement><query>${body}</query></statement></qml>`;
const FROM = '<from><table alias="Doc (wt.doc.WTDocument)">wt.doc.WTDocument</table></from>';
const COL = (path: string, heading = 'H') =>
  `<column alias="Doc (wt.doc.WTDocument)" heading="${heading}">${path}</column>`;
const where = (c: string) => `<select>${COL('number', 'N')}</select>${FROM}<where>${c}</where>`;
const cmp = (path: string, op: string, operand: string) =>
  `<condition><operand>${COL(path)}</operand><operator type="${op}"/><operand>${operand}</operand></condition>`;

const reason = rejection;

describe('planQuery', () => {
  it('generates aliases, joins the master and filters class and readable containers', () => {
    const { plan: p } = plan(q(`<select>${COL('master>number')}</select>${FROM}`));
    expect(p.from).toEqual([
      {
        alias: 't1',
        storage: STORAGES.iteration,
        cls: 'wt.doc.WTDocument',
        classValues: ['wt.doc.WTDocument'],
        labelClasses: ['wt.doc.WTDocument'],
        aux: new Set(['master']),
        filters: [
          { k: 'class', alias: 't1', storage: STORAGES.iteration, classes: ['wt.doc.WTDocument'] },
          { k: 'access', alias: 't1', storage: STORAGES.iteration, scope: { ids: [1, 2] } },
          { k: 'working', alias: 't1', storage: STORAGES.iteration, holder: null },
        ],
        outer: null,
        paths: [],
        union: null,
      },
    ]);
    expect(p.select).toEqual([
      { heading: 'H', type: 'string', objectClass: null, expr: { k: 'col', alias: 't1m', column: 'number' } },
    ]);
    expect(p.where).toHaveLength(3);
    expect(p.orderBy).toEqual([{ by: { expr: { k: 'col', alias: 't1', column: 'id' } }, desc: false }]);
    expect(p.limit).toBe(11);
  });

  it('drops the access filter for administrators and honours bypassAccessControl only for them', () => {
    const doc = q(`<select>${COL('name')}</select>${FROM}`, '', '<qml bypassAccessControl="true">');
    const admin = plan(doc, { user: { id: 1, name: 'admin', admin: true }, readable: null }).plan;
    expect(admin.where.map((c) => c.k)).toEqual(['class', 'working']);
    const reader = plan(doc).plan;
    expect(reader.where.map((c) => c.k)).toEqual(['class', 'access', 'working']);
  });

  it('binds converted values and takes the type of the property, not the type attribute', () => {
    const { plan: p } = plan(
      q(
        where(`<compositeCondition>${cmp('iterationInfo.latest', 'equal', '<constant type="java.lang.String">1</constant>')}
        ${cmp('iterationInfo.identifier.iterationId', 'greaterThan', '<constant>2.5</constant>')}
        ${cmp('thePersistInfo.modifyStamp', 'lessThan', '<constant>2026-01-02</constant>')}</compositeCondition>`),
      ),
    );
    expect(p.where.slice(2)).toEqual([
      {
        k: 'cmp',
        op: '=',
        left: { k: 'col', alias: 't1', column: 'latest' },
        right: { k: 'val', value: true, type: 'boolean' },
      },
      {
        k: 'cmp',
        op: '>',
        left: { k: 'col', alias: 't1', column: 'iteration' },
        right: { k: 'val', value: 2.5, type: 'double' },
      },
      {
        k: 'cmp',
        op: '<',
        left: { k: 'col', alias: 't1', column: 'modified_at' },
        right: { k: 'val', value: new Date('2026-01-02T00:00:00Z'), type: 'timestamp' },
      },
    ]);
  });

  it('translates like wildcards in values but not in columns', () => {
    const { plan: p } = plan(q(where(cmp('name', 'like', '<constant>a*b?c%d_e\\f</constant>'))));
    expect(p.where[3]).toEqual({
      k: 'like',
      not: false,
      left: { k: 'col', alias: 't1m', column: 'name' },
      right: { k: 'val', value: 'a%b_c%d_e\\\\f', type: 'string' },
    });
    const notLike = plan(q(where(cmp('name', 'notLike', COL('title'))))).plan;
    expect(notLike.where[3]).toEqual({
      k: 'like',
      not: true,
      left: { k: 'col', alias: 't1m', column: 'name' },
      right: { k: 'col', alias: 't1', column: 'title' },
    });
  });

  it('takes parameter values from the request, else the default, else rejects', () => {
    const params =
      '<parameter name="n"><parameterDefault>0001</parameterDefault></parameter><parameter name="u"><parameterDefault isMacro="true">CURRENT_USER</parameterDefault></parameter><parameter name="x"/>';
    const doc = (target: string) =>
      q(where(cmp('iterationInfo.creator.key.id', 'equal', `<parameterTarget name="${target}"/>`)), params);
    expect(plan(doc('u')).plan.where[3]).toMatchObject({ right: { value: 7, type: 'long' } });
    expect(plan(doc('u')).parameters).toEqual([
      { name: 'n', value: null },
      { name: 'u', value: 'OR:wt.org.WTUser:7' },
      { name: 'x', value: null },
    ]);
    expect(plan(doc('x'), { values: { x: '12' } }).plan.where[3]).toMatchObject({ right: { value: 12 } });
    expect(reason(() => plan(doc('x')))).toBe(
      '/qml/statement/query/where/condition[1]/operand[2]/parameterTarget[1]: parameter "x" has no value',
    );
    expect(reason(() => plan(doc('n'), { values: { n: 'abc' } }))).toBe(
      '/qml/statement/query/where/condition[1]/operand[2]/parameterTarget[1]: parameter "n" value "abc" is not a number',
    );
  });

  it('expands macros in constants', () => {
    const { plan: p } = plan(
      q(
        `<select><constant heading="a" isMacro="true">CURRENT_USER_NAME</constant><constant heading="b" isMacro="true" type="java.sql.Timestamp">CURRENT_DATE</constant><constant heading="c" isMacro="true" type="java.sql.Timestamp">CURRENT_TIME</constant></select>${FROM}`,
      ),
    );
    expect(p.select.map((s) => s.expr)).toEqual([
      { k: 'val', value: 'alice', type: 'string' },
      { k: 'val', value: new Date('2026-05-06T00:00:00Z'), type: 'timestamp' },
      { k: 'val', value: NOW, type: 'timestamp' },
    ]);
  });

  it('splits delimited lists, converting every part', () => {
    const inCond = `<condition><operand>${COL('iterationInfo.identifier.iterationId')}</operand><inOperator type="in"/><inOperand><delimitedList delimiter=";"><constant>1; 2</constant><parameterTarget name="p"/></delimitedList></inOperand></condition>`;
    const { plan: p } = plan(q(where(inCond), '<parameter name="p"/>'), { values: { p: '3;;4' } });
    expect(p.where[3]).toMatchObject({
      k: 'in',
      not: false,
      values: [{ value: 1 }, { value: 2 }, { value: 3 }, { value: 4 }],
    });
  });

  it('puts conditions relating an outer table to its partner into its ON clause', () => {
    const { plan: p } = plan(
      q(`<select>${COL('name')}</select><from><table alias="Doc (wt.doc.WTDocument)">wt.doc.WTDocument</table><table alias="F" outerJoinAlias="Doc (wt.doc.WTDocument)">wt.content.ApplicationData</table></from>
        <where><compositeCondition>${cmp('name', 'equal', '<constant>x</constant>')}<condition><operand><column alias="F">fileName</column></operand><operator type="equal"/><operand>${COL('title')}</operand></condition></compositeCondition></where>
        <linkJoin><join name="wt.content.HolderToContent"><aliasTarget alias="Doc (wt.doc.WTDocument)"/><aliasTarget alias="F"/></join></linkJoin>`),
    );
    expect(p.from.map((t) => [t.alias, t.outer?.on.length ?? null, t.filters.map((f) => f.k)])).toEqual([
      ['t1', null, ['class', 'access', 'working']],
      ['t2', 2, []],
    ]);
    expect(p.where.map((c) => c.k)).toEqual(['class', 'access', 'working', 'cmp']);
  });

  it('keeps the access check of a link whose holder is outer-joined', () => {
    const { plan: p } = plan(
      q(`<select><column alias="L">quantity.amount</column></select><from><table alias="L">wt.part.WTPartUsageLink</table><table alias="P" outerJoinAlias="L">wt.part.WTPart</table></from>
        <referenceJoin><join name="roleAObjectRef"><aliasTarget alias="L"/><aliasTarget alias="P"/></join></referenceJoin>`),
    );
    expect(p.from.map((t) => [t.alias, t.filters.map((f) => f.k)])).toEqual([
      ['t1', ['class', 'access']],
      ['t2', ['class', 'access', 'working']],
    ]);
  });

  it('places outer tables after their partners and rejects cycles', () => {
    const tables =
      '<table alias="A" outerJoinAlias="B">wt.part.WTPart</table><table alias="B" outerJoinAlias="C">wt.part.WTPart</table><table alias="C">wt.part.WTPart</table>';
    const { plan: p } = plan(q(`<select><column alias="A">name</column></select><from>${tables}</from>`));
    expect(p.from.map((t) => t.alias)).toEqual(['t3', 't2', 't1']);
    const cyc =
      '<table alias="A" outerJoinAlias="B">wt.part.WTPart</table><table alias="B" outerJoinAlias="A">wt.part.WTPart</table>';
    expect(reason(() => plan(q(`<select><column alias="A">name</column></select><from>${cyc}</from>`)))).toBe(
      '/qml/statement/query/from/table[1]: every table is outer-joined: one must be joined normally',
    );
  });

  it('groups by the non-aggregate items and orders by group keys to break ties', () => {
    const { plan: p } = plan(
      q(
        `<select group="true">${COL('state.state', 'S')}<function name="COUNT" heading="C"/>${COL('title', 'T')}</select>${FROM}<orderBy><orderByItem type="desc"><columnTarget heading="C"/></orderByItem></orderBy>`,
      ),
    );
    expect(p.groupBy).toEqual([1, 3]);
    expect(p.orderBy).toEqual([
      { by: { ordinal: 2 }, desc: true },
      { by: { ordinal: 1 }, desc: false },
      { by: { ordinal: 3 }, desc: false },
    ]);
  });

  it('orders distinct results by every column', () => {
    const { plan: p } = plan(
      q(
        `<select distinct="true">${COL('state.state', 'S')}${COL('title', 'T')}</select>${FROM}<orderBy><orderByItem><columnTarget heading="T"/></orderByItem></orderBy>`,
      ),
    );
    expect(p.orderBy.map((o) => o.by)).toEqual([{ ordinal: 2 }, { ordinal: 1 }]);
  });

  it('plans functions with their arguments typed', () => {
    const { plan: p } = plan(
      q(`<select group="true"><function name="SUBTRACT" heading="A"><function name="SYSDATE"/><constant>1.5</constant></function>
        <function name="ADD" heading="B"><constant>2</constant>${COL('thePersistInfo.createStamp')}</function>
        <function name="LOWER" heading="C">${COL('iterationInfo.latest')}</function>
        <function name="SUM" heading="D">${COL('iterationInfo.identifier.iterationId')}</function></select>${FROM}`),
    );
    expect(p.select.map((s) => [s.type, s.expr])).toEqual([
      [
        'timestamp',
        {
          k: 'call',
          fn: 'SUBTRACT_DAYS',
          type: 'timestamp',
          args: [
            { k: 'call', fn: 'SYSDATE', args: [], type: 'timestamp' },
            { k: 'val', value: 1.5, type: 'double' },
          ],
        },
      ],
      [
        'timestamp',
        {
          k: 'call',
          fn: 'ADD_DAYS',
          type: 'timestamp',
          args: [
            { k: 'col', alias: 't1', column: 'created_at' },
            { k: 'val', value: 2, type: 'double' },
          ],
        },
      ],
      [
        'string',
        {
          k: 'call',
          fn: 'LOWER',
          type: 'string',
          args: [{ k: 'call', fn: 'TEXT', args: [{ k: 'col', alias: 't1', column: 'latest' }] }],
        },
      ],
      ['long', { k: 'call', fn: 'SUM', type: 'long', args: [{ k: 'col', alias: 't1', column: 'iteration' }] }],
    ]);
  });

  it('plans derived properties through helper joins', () => {
    const { plan: p } = plan(
      q(
        `<select><object alias="Doc (wt.doc.WTDocument)" propertyName="creatorFullName"/><object alias="Doc (wt.doc.WTDocument)" propertyName="modifierEMail"/><object alias="Doc (wt.doc.WTDocument)" propertyName="folderPath"/><object alias="Doc (wt.doc.WTDocument)" propertyName=""/></select>${FROM}`,
      ),
    );
    expect(p.select.map((s) => s.expr)).toEqual([
      { k: 'col', alias: 't1u', column: 'full_name' },
      { k: 'col', alias: 't1v', column: 'email' },
      {
        k: 'computed',
        name: 'folderPath',
        table: expect.objectContaining({ alias: 't1', storage: STORAGES.iteration }),
      },
      { k: 'computed', name: 'oid', table: expect.objectContaining({ alias: 't1', cls: 'wt.doc.WTDocument' }) },
    ]);
    expect([...p.from[0].aux].sort()).toEqual(['container', 'creator', 'master', 'modifier']);
  });
});
