import type { Catalog, TableType } from './catalog.js';
import type {
  CatalogClass,
  CatalogProblem,
  CatalogSoftType,
  PropertyDef,
  PropertyType,
  ReferenceDef,
  TypeInfoDef,
} from './catalog-model.js';

/**
 * Windchill 10 and later keep the local attributes of soft types in columns of their class's
 * table, named by kind and number: `ptc_str_4`, `ptc_lng_2`, `ptc_ref_1` …, read by templates as
 * `typeInfo<Class>.ptc_str_4` (or `WCTYPE|<class>|<type>~MBA|typeInfo<Class>.ptc_str_4`), a
 * reference by its `.key.id` and `.key.classname` and in a referenceJoin of that name. Which
 * attribute a column holds is the soft type's business: a soft type declares it with the
 * attribute (`typeInfoColumn`, and `target` for a reference), and the value is the attribute's,
 * kept as every custom attribute in the JSON column of the table (a reference as its target's id).
 */

/** The value type each column kind holds (a reference: its target's id). */
export const TYPE_INFO_KINDS: Readonly<Record<string, PropertyType>> = {
  str: 'string',
  lng: 'long',
  dbl: 'double',
  bln: 'boolean',
  tms: 'timestamp',
  ref: 'long',
};

/** A column name as a soft type's attribute gives it (JSON Schema pattern). */
export const TYPE_INFO_COLUMN = '^ptc_(str|lng|dbl|bln|tms|ref)_[1-9][0-9]{0,3}$';

const PATH = /^typeInfo([A-Za-z_$][\w$]*)\.(ptc_(str|lng|dbl|bln|tms|ref)_[1-9]\d{0,3})(?:\.key\.(id|classname))?$/;

interface TypeInfoPath {
  /** The class the path names after `typeInfo` (a short name). */
  short: string;
  column: string;
  kind: string;
  key: 'id' | 'classname' | null;
}

function parse(path: string): TypeInfoPath | null {
  const m = PATH.exec(path);
  return m ? { short: m[1], column: m[2], kind: m[3], key: (m[4] as 'id' | 'classname' | undefined) ?? null } : null;
}

/** The attribute a soft type (or one of its parents, the nearest first) keeps in a column. */
function mapped(cat: Catalog, softType: string, column: string): { name: string; target?: string } | null {
  const seen = new Set<string>();
  for (let st = cat.findSoftType(softType); st; st = cat.findSoftType(st.parent)) {
    for (const [name, a] of st.attributes) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (a.typeInfoColumn === column) return { name, target: a.target };
    }
  }
  return null;
}

/**
 * `typeInfo<Class>` names the table's class or a concrete class above it kept alike (Supplier for
 * Manufacturer): interfaces and abstract classes have no table of their own, so no typeInfo.
 */
function ownTypeInfo(cat: Catalog, cls: CatalogClass, short: string): string | null {
  const names: string[] = [];
  for (let c: CatalogClass | undefined = cls; c && c.storage === cls.storage; c = cat.findClass(c.parent ?? '')) {
    if (c.abstract && c !== cls) continue;
    const own = c.name.slice(c.name.lastIndexOf('.') + 1);
    if (own === short) return null;
    names.push(`typeInfo${own}`);
  }
  return `typeInfo${short} is not a typeInfo of ${cls.name} (${names.join(', ')})`;
}

/** The soft types whose rows a path may read: those `named` narrows to (else below its class), within the table's. */
function candidates(cat: Catalog, table: TableType, named: TableType): readonly string[] {
  const all =
    named.softTypes ??
    cat
      .listSoftTypes()
      .filter((st) => cat.isA(st.cls, named.cls.name))
      .map((st) => st.name);
  return table.softTypes ? all.filter((st) => table.softTypes!.includes(st)) : all;
}

interface Case {
  types: string[];
  key: string;
  target?: string;
}

/** The cases of a column: by attribute key (and target), the soft types that map it. */
function cases(
  cat: Catalog,
  types: readonly string[],
  column: string,
  keep: (target: string | undefined) => boolean = () => true,
): Case[] {
  const out: Case[] = [];
  for (const st of types) {
    const m = mapped(cat, st, column);
    if (!m || !keep(m.target)) continue;
    const same = out.find((c) => c.key === m.name && c.target === m.target);
    if (same) same.types.push(st);
    else out.push({ types: [st], key: m.name, ...(m.target && { target: m.target }) });
  }
  return out;
}

/** The column on a table: `className` reads the target class where the reference is set. */
function def(table: TableType, found: Case[], className = false): TypeInfoDef {
  const only = found.length === 1 ? found[0] : null;
  return {
    at: table.storage.iba!,
    cases: found.map((c) => ({ types: c.types, key: c.key, ...(className && { className: c.target }) })),
    whole: !!only && table.softTypes !== null && table.softTypes.every((st) => only.types.includes(st)),
  };
}

const declare = (column: string, kind: string) =>
  `map it in the soft type's declaration ("attributes": { "<name>": { "type": "${TYPE_INFO_KINDS[kind]}", "typeInfoColumn": "${column}"${kind === 'ref' ? ', "target": "<class>"' : ''} } })`;

/**
 * A typeInfo column as a property of a template's table, or why it names nothing; null when the
 * path is no typeInfo column. With `named` (the type of a `WCTYPE|…~MBA|` path) a column no soft
 * type maps is null too: it is then read, as before, as the custom attribute of that name.
 */
export function typeInfoProperty(
  cat: Catalog,
  table: TableType,
  path: string,
  named: TableType | null = null,
): PropertyDef | string | null {
  const p = parse(path);
  if (!p) return null;
  const problem = (why: string) => (named ? null : why);
  const wrongClass = ownTypeInfo(cat, (named ?? table).cls, p.short);
  if (wrongClass) return problem(wrongClass);
  const name = `typeInfo${p.short}.${p.column}`;
  if (p.kind === 'ref' && !p.key) {
    return problem(
      `${name} is a reference: read its ${name}.key.id (or .key.classname), or join it in a referenceJoin`,
    );
  }
  if (p.kind !== 'ref' && p.key) return problem(`${name} holds a ${TYPE_INFO_KINDS[p.kind]}: it has no key`);
  if (!table.storage.iba || !table.storage.softTypeColumn) {
    return problem(`${table.cls.name} keeps no soft types' attributes (storage ${table.cls.storage})`);
  }
  const types = candidates(cat, table, named ?? table);
  const found = cases(cat, types, p.column);
  if (found.length === 0) {
    if (named) return null;
    // Windchill has the column on every row; where no type keeps an attribute in it, it is null.
    const which = types.length ? `none of its soft types (${types.join(', ')})` : 'it has no soft types declared';
    const unmapped = `${name} of ${table.cls.name} holds no attribute (${which} keeps one in ${p.column}), so it reads as null; ${declare(p.column, p.kind)}`;
    const type = p.key === 'classname' ? 'string' : TYPE_INFO_KINDS[p.kind];
    return { type, typeInfo: { at: table.storage.iba, cases: [], whole: false, unmapped } };
  }
  if (p.key === 'classname') return { type: 'string', typeInfo: def(table, found, true) };
  return { type: TYPE_INFO_KINDS[p.kind], typeInfo: def(table, found) };
}

/**
 * A referenceJoin named by a `ptc_ref_<n>` typeInfo column (`typeInfoPlantFunctionalData.ptc_ref_1`)
 * from a table to another, or why it cannot join them; null when the name is no typeInfo column.
 * Only the soft types whose attribute targets the other table's class (and storage) take part.
 */
export function typeInfoReference(
  cat: Catalog,
  from: TableType,
  name: string,
  to: TableType,
): ReferenceDef | string | null {
  const p = parse(name);
  if (!p || p.key) return null;
  if (p.kind !== 'ref') return `${name} holds a ${TYPE_INFO_KINDS[p.kind]}, not a reference`;
  // The checks of the column as a property (its class, the table's soft types, a mapping) first.
  const checked = typeInfoProperty(cat, from, `${name}.key.id`);
  if (typeof checked === 'string' || checked === null) return checked;
  // A column no soft type maps points nowhere: the join finds no target.
  if ('typeInfo' in checked && checked.typeInfo.unmapped) {
    return { name, target: to.cls.name, from: { typeInfo: checked.typeInfo } };
  }
  const related = (x: string, y: string) => cat.isA(x, y) || cat.isA(y, x);
  const fits = (target: string | undefined) => {
    const t = cat.findClass(target ?? '');
    return !!t && t.storage === to.cls.storage && related(t.name, to.cls.name);
  };
  const types = candidates(cat, from, from);
  const fitting = cases(cat, types, p.column, fits);
  if (fitting.length === 0) {
    const targets = [...new Set(cases(cat, types, p.column).map((c) => c.target))].join(', ');
    return `reference ${name} of ${from.cls.name} cannot point to ${to.cls.name} (it points to ${targets})`;
  }
  return { name, target: fitting[0].target!, from: { typeInfo: def(from, fitting) } };
}

/**
 * The checks of soft types' typeInfo columns, with the catalog's classes: a column of the kind of
 * the attribute's type, a reference column with a target class kept in one storage, and one
 * attribute per column in a soft type (with those it inherits).
 */
export function checkTypeInfoColumns(
  softTypes: ReadonlyMap<string, CatalogSoftType>,
  whereOf: (softType: string) => string,
  classes: ReadonlyMap<string, CatalogClass>,
): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const reported = new Set<string>();
  for (const st of softTypes.values()) {
    for (const [name, a] of st.attributes) {
      const where = `${whereOf(st.name)}.attributes.${name}`;
      const problem = (message: string) => problems.push({ where, message });
      const kind = a.typeInfoColumn ? a.typeInfoColumn.split('_')[1] : null;
      if (a.target && kind !== 'ref') problem('"target" is for an attribute kept in a ptc_ref_<n> column');
      if (!kind) continue;
      if (TYPE_INFO_KINDS[kind] !== a.type)
        problem(`typeInfoColumn ${a.typeInfoColumn} holds a ${TYPE_INFO_KINDS[kind]}, not a ${a.type}`);
      if (kind !== 'ref') continue;
      const target = classes.get(a.target ?? '');
      if (!a.target)
        problem(`a reference (${a.typeInfoColumn}) names the class of the objects it points to in "target"`);
      else if (!target) problem(`unknown target class ${a.target}`);
      else if (!target.storage) problem(`target ${a.target} spans several storage kinds: name one stored class`);
    }
    // The attributes it has, its own over its parents' of the same name: one per column.
    const byColumn = new Map<string, string>();
    const seen = new Set<string>();
    for (let s: CatalogSoftType | undefined = st; s; s = softTypes.get(s.parent)) {
      for (const [name, a] of s.attributes) {
        if (seen.has(name)) continue;
        seen.add(name);
        const other = a.typeInfoColumn ? byColumn.get(a.typeInfoColumn) : undefined;
        if (a.typeInfoColumn && !other) byColumn.set(a.typeInfoColumn, name);
        const clash = `${a.typeInfoColumn} ${[name, other].sort().join(' ')}`;
        if (other && !reported.has(clash)) {
          reported.add(clash);
          problems.push({
            where: whereOf(st.name),
            message: `attributes ${[other, name].sort().join(' and ')} of soft type ${st.name} are both kept in ${a.typeInfoColumn}: a column holds one attribute`,
          });
        }
      }
    }
  }
  return problems;
}
