import type { Catalog } from './catalog.js';
import type { CatalogSource } from './catalog-build.js';
import type {
  CatalogClass,
  CatalogProblem,
  CatalogSoftType,
  PropertyDef,
  ReferenceDef,
  TypeInfoDef,
} from './catalog-model.js';

/** A catalog class as the API shows it (GET /reports/api/1.0/catalog). */
export interface ClassView {
  name: string;
  parent: string | null;
  abstract: boolean;
  interface: boolean;
  interfaces: string[];
  storage: string | null;
  master: string | null;
  displayName: string;
  about: string;
  oidPrefix: string;
  userDeclared: boolean;
  subclasses: string[];
  softTypes: string[];
  properties: PropertyView[];
  derived: PropertyView[];
  references: { name: string; target: string; keptIn: string }[];
  roles: { a: string; b: string } | null;
}

export interface PropertyView {
  path: string;
  type: string;
  /** `column <name>`, `json <key>`, `computed <kind>` (through a helper join: `master column number`). */
  source: string;
  about?: string;
}

export interface SoftTypeView {
  name: string;
  parent: string;
  class: string;
  displayName: string;
  about: string;
  userDeclared: boolean;
  /** `typeInfoColumn` and `target`: where Windchill 10 and later keep a local attribute. */
  attributes: { name: string; type: string; typeInfoColumn?: string; target?: string }[];
}

/** Where a property's value is: `column number`, `master column number`, `json priority`, `computed oid`. */
export function propertySource(p: PropertyDef): string {
  if ('at' in p) return `${p.at.aux === 'self' ? '' : `${p.at.aux} `}column ${p.at.column}`;
  if ('json' in p) return `${p.json.at.aux === 'self' ? '' : `${p.json.at.aux} `}json ${p.json.key}`;
  if ('typeInfo' in p) return typeInfoSource(p.typeInfo);
  return `computed ${p.computed}`;
}

const property = ([path, p]: [string, PropertyDef]): PropertyView => ({
  path,
  type: p.type,
  source: propertySource(p),
  ...(p.about && { about: p.about }),
});

/** What an interface declares, as properties whose source is each implementing class. */
function declared(c: CatalogClass, kind: 'properties' | 'derived'): PropertyView[] {
  return [...c.declared![kind]].map(([path, p]) => ({
    path,
    type: p.type,
    source: 'each implementing class',
    ...(p.about && { about: p.about }),
  }));
}

export function classView(catalog: Catalog, c: CatalogClass): ClassView {
  if (c.interface) {
    return {
      ...classView(catalog, { ...c, interface: false }),
      interface: true,
      properties: declared(c, 'properties'),
      derived: declared(c, 'derived'),
      references: [...c.declared!.references].map(([name, r]) => ({
        name,
        target: r.target,
        keptIn: 'each implementing class',
      })),
    };
  }
  return {
    name: c.name,
    parent: c.parent,
    abstract: c.abstract,
    interface: false,
    interfaces: [...c.interfaces],
    storage: c.storage,
    master: c.master,
    displayName: c.displayName,
    about: c.about,
    oidPrefix: `OR:${c.name}`,
    userDeclared: c.userDeclared,
    subclasses: c.descendants.filter((d) => d !== c.name),
    softTypes: catalog
      .listSoftTypes()
      .filter((s) => s.cls === c.name)
      .map((s) => s.name),
    properties: [...c.properties].map(property),
    derived: [
      ...[...c.derived].map(property),
      ...[...c.paths].map(([path, to]) => ({ path, type: pathType(catalog, c, to), source: `path ${to}` })),
    ],
    references: [...c.references.values()].map((r) => ({ name: r.name, target: r.target, keptIn: referenceSource(r) })),
    roles: c.roles,
  };
}

/**
 * The type of the value a named path reads (CatalogClass.paths), as the compiler resolves it
 * (qml/validate/validate-paths.ts); `unknown` where it resolves to nothing (a catalog test keeps that out).
 */
export function pathType(catalog: Catalog, c: CatalogClass, path: string, hops = 0): string {
  const own = c.properties.get(path) ?? c.derived.get(path) ?? c.declared?.properties.get(path);
  if (own) return own.type;
  // A reference itself reads as its target's OID.
  if (c.references.has(path)) return 'oid';
  if (hops > 8) return 'unknown';
  const head = path.split('.', 1)[0];
  const named = c.paths.get(path) ?? c.paths.get(head);
  if (named !== undefined)
    return pathType(catalog, c, c.paths.has(path) ? named : named + path.slice(head.length), hops + 1);
  const refs = [...c.references.keys()].filter((r) => path.startsWith(`${r}.`)).sort((x, y) => y.length - x.length);
  const name = refs[0] ?? (c.references.has(`${head}Reference`) ? `${head}Reference` : null);
  if (name === null) return 'unknown';
  const rest = name === refs[0] ? path.slice(name.length + 1) : path.slice(head.length + 1);
  const target = catalog.findClass(name === 'masterReference' && c.master ? c.master : c.references.get(name)!.target);
  return rest === '' ? 'oid' : target ? pathType(catalog, target, rest, hops + 1) : 'unknown';
}

/**
 * The named paths of the sources' classes that resolve to nothing, as problems of the catalog (an
 * abstract link class without roles names its roles' references for the link classes below it).
 */
export function unresolvedPaths(catalog: Catalog, sources: readonly CatalogSource[]): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  for (const src of sources) {
    (src.file.classes ?? []).forEach((spec, i) => {
      const c = catalog.findClass(spec.name);
      if (!c || (c.abstract && c.storage === 'link' && !c.roles)) return;
      for (const [path, to] of Object.entries(spec.paths ?? {})) {
        if (pathType(catalog, c, to) !== 'unknown') continue;
        problems.push({
          where: `${src.where}: classes[${i}] (${spec.name}).paths.${path}`,
          message: `${to} is no property, derived property or reference path of ${spec.name}`,
        });
      }
    });
  }
  return problems;
}

/** Where a reference keeps its target: `column master_id`, `json view`, `json businessObject (OID)`. */
export function referenceSource(r: ReferenceDef): string {
  const f = r.from;
  if ('at' in f) return `column ${f.at.column}`;
  if ('json' in f) return `json ${f.json.key}`;
  if ('oidJson' in f) return `json ${f.oidJson.key} (OID)`;
  if ('typeInfo' in f) return typeInfoSource(f.typeInfo);
  return `columns ${f.oidColumns.cls.column}, ${f.oidColumns.id.column} (OID)`;
}

/** `json plant (soft types com.acme.AssemblySite)`, a case per key. */
function typeInfoSource(d: TypeInfoDef): string {
  return d.cases.map((c) => `json ${c.key} (soft types ${c.types.join(', ')})`).join('; ');
}

export function softTypeView(s: CatalogSoftType): SoftTypeView {
  return {
    name: s.name,
    parent: s.parent,
    class: s.cls,
    displayName: s.displayName,
    about: s.about,
    userDeclared: s.userDeclared,
    attributes: [...s.attributes].map(([name, a]) => ({
      name,
      type: a.type,
      ...(a.typeInfoColumn && { typeInfoColumn: a.typeInfoColumn }),
      ...(a.target && { target: a.target }),
    })),
  };
}
