import { buildQuery, compileTemplate, type QmlTemplate } from '../../qml-compiler.js';
import { QmlError } from '../../qml-error.js';
import type { PlanRequest } from '../../plan/plan.js';

/** Documents in the qml/query layout and what they compile to, for the unit tests of query-layout.ts. */

export const req: PlanRequest = {
  values: {},
  user: { id: 2, name: 'alice', admin: false },
  readable: [1, 2],
  now: new Date('2026-05-06T00:00:00Z'),
  limit: 101,
};

/** A `qml/query` document: report attributes, then the rest of the query. */
export const doc = (
  attributes: string,
  rest = '',
  root = '<qml>',
  tables = '<table alias="D">wt.doc.WTDocument</table>',
) =>
  `${root}<query><selectOrConstrain distinct="false" group="false">${attributes}</selectOrConstrain><from>${tables}</from>${rest}</query></qml>`;
/** A reportAttribute the way Query Builder writes it; `over` replaces attributes. */
export const attr = (id: string, inner: string, over: Record<string, string> = {}) => {
  const a: Record<string, string> = {
    heading: id,
    reportAttributeId: id,
    userCanSelect: 'true',
    userCanConstrain: 'true',
    alwaysSelect: 'false',
    defaultValue: '',
    constantValue: '',
    isMacro: 'false',
    ...over,
  };
  const attrs = Object.entries(a)
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ');
  return `<reportAttribute ${attrs}>${inner}</reportAttribute>`;
};
export const NUMBER = attr(
  'Number',
  '<column alias="D" isExternal="false" type="java.lang.String">master&gt;number</column>',
);
export const NAME = attr('Name', '<column alias="D" propertyName="name">name</column>');
export const input = (id: string, over: Record<string, string> = {}) =>
  attr(id, `<parameterValue type="java.lang.String" enumIdentifier="WCTYPE|undefined~MBA|undefined"/>`, {
    userCanSelect: 'false',
    ...over,
  });
export const std = (left: string, op: string, right: string, condAttrs = '') =>
  `<condition${condAttrs}><standardCondition><operand>${left}</operand><operator type="${op}"/><operand>${right}</operand></standardCondition></condition>`;
export const ref = (id: string) => `<reportAttributeReference id="${id}"/>`;

export const compile = (xml: string) => compileTemplate(xml);
export const sql = (t: QmlTemplate | string, values: Record<string, string> = {}) =>
  buildQuery(typeof t === 'string' ? compile(t) : t, { ...req, values }).sql;

export function reason(xml: string, values: Record<string, string> = {}): string {
  try {
    sql(xml, values);
  } catch (e) {
    if (e instanceof QmlError) return e.message;
    throw e;
  }
  throw new Error('accepted');
}
