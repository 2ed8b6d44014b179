import { readdirSync, readFileSync } from 'node:fs';
import { attr, doc, input, NAME, NUMBER, ref, std } from './layouts/query/query-layout.fixtures.js';

/**
 * Templates for the tests of QueryCache: the examples, the demo reports, query-layout fixtures
 * and documents written to reach every request input the planner reads (unset parameters,
 * in-lists, like with and without a literal prefix, conversions, macros, the caller).
 */

const examples = readdirSync(new URL('../../docs/examples/', import.meta.url))
  .filter((f) => f.endsWith('.qml'))
  .map((f) => readFileSync(new URL(`../../docs/examples/${f}`, import.meta.url), 'utf8'));

const demo = (
  JSON.parse(readFileSync(new URL('../../prisma/demo-dataset.json', import.meta.url), 'utf8')) as {
    reports: { qml: string }[];
  }
).reports.map((r) => r.qml);

const q = (body: string, params = '', root = '<qml>') =>
  `${root}${params}<statement><query>${body}</query></statement></qml>`;
const FROM = '<from><table alias="D">wt.doc.WTDocument</table></from>';
const COL = (path: string, heading = 'H') => `<column alias="D" heading="${heading}">${path}</column>`;
const SELECT = `<select>${COL('master>number', 'N')}${COL('name', 'Name')}</select>`;
const where = (c: string, select = SELECT) => `${select}${FROM}<where>${c}</where>`;
const cmp = (path: string, op: string, operand: string) =>
  `<condition><operand>${COL(path)}</operand><operator type="${op}"/><operand>${operand}</operand></condition>`;
const all = (...c: string[]) => `<compositeCondition type="and">${c.join('')}</compositeCondition>`;
const param = (name: string, inner = '', type = 'java.lang.String') =>
  `<parameter name="${name}" type="${type}">${inner}</parameter>`;
const target = (name: string) => `<parameterTarget name="${name}"/>`;
const list = (items: string, delimiter = ',') =>
  `<inOperand><delimitedList delimiter="${delimiter}">${items}</delimitedList></inOperand>`;
const inCond = (path: string, items: string, op = 'in', delimiter = ',') =>
  `<condition><operand>${COL(path)}</operand><inOperator type="${op}"/>${list(items, delimiter)}</condition>`;

const written = [
  // A long compared with a parameter: an integer, a decimal (a double), or not a number.
  q(where(cmp('iterationInfo.identifier.iterationId', 'greaterThan', target('n'))), param('n')),
  // A timestamp and a boolean, with defaults (one a macro).
  q(
    where(
      all(
        cmp('thePersistInfo.modifyStamp', 'lessThanOrEqual', target('d')),
        cmp('iterationInfo.latest', 'equal', target('b')),
      ),
    ),
    param('d', '<parameterDefault isMacro="true">CURRENT_TIME</parameterDefault>') +
      param('b', '<parameterDefault>1</parameterDefault>'),
  ),
  // Working copies asked for: the caller's (their id a bound value), with a state from a parameter.
  q(where(cmp('checkoutInfo.state', 'equal', target('s'))), param('s', '<parameterDefault>wrk</parameterDefault>')),
  // In-lists of a long and of texts (case-insensitive), a parameter and constants.
  q(
    where(
      all(
        inCond('iterationInfo.identifier.iterationId', `${target('ids')}<constant>7</constant>`),
        inCond('state.state', `${target('states')}<constant>INWORK;RELEASED</constant>`, 'notIn', ';'),
      ),
    ),
    param('ids', '<parameterDefault>1,2</parameterDefault>') + param('states'),
    '<qml caseInsensitive="true">',
  ),
  // Like with a parameter: a literal prefix (a range) or none, and a NOT LIKE.
  q(
    where(
      all(
        cmp('master>number', 'like', target('pat')),
        cmp('name', 'notLike', target('not')),
        cmp('master>name', 'like', '<constant>*x</constant>'),
      ),
    ),
    param('pat', '<parameterDefault>*</parameterDefault>') + param('not', '<parameterDefault>%tmp%</parameterDefault>'),
  ),
  // Arithmetic on parameters: the types follow the values.
  q(
    `<select><function name="ADD" heading="A"><column alias="D">iterationInfo.identifier.iterationId</column>${target('k')}</function><function name="SUBTRACT" heading="B">${target('k')}<constant>1</constant></function><function name="ADD" heading="C"><column alias="D">thePersistInfo.createStamp</column>${target('days')}</function></select>${FROM}`,
    param('k', '<parameterDefault>2</parameterDefault>') + param('days', '<parameterDefault>0.5</parameterDefault>'),
  ),
  // Macros: the caller and the clock.
  q(
    where(
      all(
        cmp('iterationInfo.creator.key.id', 'equal', '<constant isMacro="true">CURRENT_USER</constant>'),
        cmp('thePersistInfo.createStamp', 'lessThan', '<constant isMacro="true">CURRENT_DATE</constant>'),
        cmp('name', 'equal', target('who')),
      ),
      `<select><constant heading="Me" isMacro="true">CURRENT_USER_NAME</constant>${COL('name')}</select>`,
    ),
    param('who', '<parameterDefault isMacro="true">CURRENT_USER_NAME</parameterDefault>'),
  ),
  // Administrators read every row here; others their containers.
  q(
    where(cmp('master>number', 'like', target('p'))),
    param('p', '<parameterDefault>0*</parameterDefault>'),
    '<qml bypassAccessControl="true">',
  ),
];

const queryLayout = [
  doc(NUMBER + NAME),
  doc(NUMBER + attr('Name', '<column alias="D">name</column>', { defaultValue: 'Drive*' })),
  doc(NUMBER + input('Pattern'), `<where>${std('<column alias="D">name</column>', 'like', ref('Pattern'))}</where>`),
  doc(
    NUMBER + input('P', { heading: 'Name is', defaultValue: 'D' }),
    `<where>${std('<column alias="D">name</column>', 'equal', ref('P'))}</where>`,
  ),
  doc(
    NUMBER +
      attr('Creator', '<column alias="D">name</column>', {
        defaultValue: 'CURRENT_USER_NAME',
        isMacro: 'true',
      }),
  ),
];

export const CACHE_TEMPLATES: string[] = [...examples, ...demo, ...written, ...queryLayout];

/** Values drawn for parameters: few, so that shapes repeat; valid and invalid for each type. */
export const CACHE_VALUES = [
  '',
  ' ',
  '*',
  '0000*',
  '%x',
  'A?',
  'Drive*',
  '12',
  '-3',
  '2.5',
  '1e3',
  'x',
  'OR:wt.doc.WTDocument:5',
  '2026-01-02',
  '2026-02-30',
  'true',
  '0',
  '1,2',
  '1, 2, 3',
  '1,x',
  'a;b;c',
  'admin; bob',
  'INWORK',
  '12345678901234567890',
  '\u{10FFFF}*',
  'ab\\',
];
