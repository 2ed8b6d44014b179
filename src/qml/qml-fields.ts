import type { Catalog } from '../catalog/catalog.js';
import type { Condition, Operand, QmlTemplate, SelectItem, TableDecl } from './validate/ast.js';
import { QmlError } from './qml-error.js';
import { DEFAULT_LIMITS } from './qml-limits.js';
import { PropertyPaths } from './validate/validate-paths.js';

/**
 * Properties of objects named by id, read as a template reads them: each name resolved as
 * `<object propertyName="…">` resolves it against the catalog (a property, a derived property,
 * a path through references, a custom attribute), with the template's access control. The query
 * service uses it for the `fields` a query asks for.
 */

/** The parameter of the ids: a comma-separated list of object ids. */
export const IDS_PARAMETER = 'ids';
const ID_PATH = 'thePersistInfo.theObjectIdentifier.id';
const AT = '/fields';

/** A template selecting the id, then the properties of one class it could resolve. */
export interface FieldsTemplate {
  template: QmlTemplate;
  /** The names the template reads, in select order after the id. */
  read: string[];
  /** The names the class has no property for. */
  missing: string[];
}

/**
 * The template reading `paths` (property paths as `object propertyName` takes them) of objects
 * of `cls`, whose ids the request gives in IDS_PARAMETER; a string saying why when the class is
 * no table.
 */
export function fieldsTemplate(catalog: Catalog, cls: string, paths: readonly string[]): FieldsTemplate | string {
  const tables: TableDecl[] = [];
  const resolver = new PropertyPaths(catalog, tables, DEFAULT_LIMITS.maxTables);
  const table = resolver.table(cls, 'T', `${AT}/from`);
  if (typeof table === 'string') return table;
  tables.push(table);
  const id = resolver.operand(0, ID_PATH, 'column', null, `${AT}/id`);
  const select: SelectItem[] = [{ heading: 'id', expr: id, objectClass: null, path: `${AT}/id` }];
  const read: string[] = [];
  const missing: string[] = [];
  paths.forEach((path, i) => {
    const at = `${AT}/select[${i + 1}]`;
    let expr: Operand;
    try {
      expr = resolver.operand(0, path, 'object', null, at);
    } catch (e) {
      if (!(e instanceof QmlError)) throw e;
      missing.push(path);
      return;
    }
    select.push({ heading: path, expr, objectClass: null, path: at });
    read.push(path);
  });
  resolver.finish();
  const where: Condition = {
    k: 'in',
    not: false,
    operand: id,
    items: [{ source: { k: 'param', name: IDS_PARAMETER, path: `${AT}/ids` }, delimiter: ',' }],
    path: `${AT}/where`,
  };
  const template: QmlTemplate = {
    catalog,
    bypassAccessControl: false,
    parameters: [
      { name: IDS_PARAMETER, declaredType: 'java.lang.Long', hint: 'long', default: null, path: `${AT}/ids` },
    ],
    distinct: false,
    group: false,
    select,
    tables,
    where,
    orderBy: [],
    joins: [],
    warnings: [],
  };
  return { template, read, missing };
}
