import {
  CatalogError,
  keepsOid,
  type CatalogClass,
  type CatalogFile,
  type CatalogProblem,
  type CatalogSoftType,
  type ClassSpec,
  type ComputedKind,
  type PropertyDef,
  type PropertySpec,
  type ReferenceDef,
  type ReferenceSpec,
  type SoftTypeSpec,
} from './catalog-model.js';
import { columnType, jsonColumn, STORAGES, type Aux, type StorageKind } from './storage.js';
import { masterClassOf } from './standard-classes.js';
import { addInterfaces } from './catalog-interfaces.js';

/** Catalog files with where each came from (a file name, `dataset types`, …). */
export interface CatalogSource {
  where: string;
  file: CatalogFile;
  /** Declared by users (stored in catalog_types): marked so in the catalog. */
  user?: boolean;
}

export interface BuiltCatalog {
  classes: Map<string, CatalogClass>;
  softTypes: Map<string, CatalogSoftType>;
}

/** Computed values that need something of the storage. */
const COMPUTED_NEEDS: Partial<Record<ComputedKind, (k: StorageKind) => boolean>> = {
  iterationDisplay: (k) => k === 'iteration',
  versionReference: (k) => k === 'iteration',
  branchId: (k) => k === 'iteration',
  folderPath: (k) => STORAGES[k].aux.container !== undefined,
  containerName: (k) => STORAGES[k].aux.container !== undefined,
  formatName: (k) => k === 'content',
};

/**
 * Checks the files together (names, parents, cycles, storage columns against the whitelist,
 * reference targets, link roles, soft types) and resolves inheritance. Throws CatalogError with
 * every problem found.
 */
export function buildCatalog(sources: CatalogSource[]): BuiltCatalog {
  const problems: CatalogProblem[] = [];
  const problem = (where: string, message: string) => problems.push({ where, message });
  const specs = new Map<string, { spec: ClassSpec; where: string; user: boolean }>();
  const softSpecs = new Map<string, { spec: SoftTypeSpec; where: string; user: boolean }>();
  for (const src of sources) {
    (src.file.classes ?? []).forEach((spec, i) => {
      const where = `${src.where}: classes[${i}] (${spec.name})`;
      if (specs.has(spec.name))
        problem(where, `class ${spec.name} is declared twice (also ${specs.get(spec.name)!.where})`);
      else specs.set(spec.name, { spec, where, user: src.user === true });
    });
    (src.file.softTypes ?? []).forEach((spec, i) => {
      const where = `${src.where}: softTypes[${i}] (${spec.name})`;
      if (softSpecs.has(spec.name) || specs.has(spec.name))
        problem(where, `${spec.name} is declared twice (a soft type needs a name of its own)`);
      else softSpecs.set(spec.name, { spec, where, user: src.user === true });
    });
  }
  for (const [name] of softSpecs) {
    if (specs.has(name)) problem(softSpecs.get(name)!.where, `soft type ${name} has the name of a class`);
  }

  // Parents and cycles.
  const chain = (name: string): string[] | null => {
    const seen: string[] = [];
    for (let n: string | undefined = name; n; n = specs.get(n)?.spec.parent) {
      if (seen.includes(n)) return null;
      if (!specs.has(n)) return seen;
      seen.push(n);
    }
    return seen;
  };
  const ok = new Set<string>();
  for (const [name, { spec, where }] of specs) {
    if (spec.parent && !specs.has(spec.parent)) problem(where, `unknown parent class ${spec.parent}`);
    else if (chain(name) === null) problem(where, `class ${name} is its own ancestor (a cycle of parents)`);
    else ok.add(name);
  }
  const ancestors = (name: string) => chain(name) ?? [name];

  const storageOf = (name: string): StorageKind | null => {
    for (const n of ancestors(name)) {
      const s = specs.get(n)?.spec.storage;
      if (s) return s;
    }
    return null;
  };

  const classes = new Map<string, CatalogClass>();
  const descendants = new Map<string, string[]>();
  for (const name of specs.keys()) descendants.set(name, []);
  for (const name of ok) for (const a of ancestors(name)) descendants.get(a)?.push(name);

  for (const [name, { spec, where, user }] of specs) {
    if (!ok.has(name)) continue;
    const storage = storageOf(name);
    const parentStorage = spec.parent ? storageOf(spec.parent) : null;
    if (spec.storage && parentStorage && spec.storage !== parentStorage) {
      problem(
        where,
        `storage ${spec.storage} differs from its parent's (${parentStorage}): a subclass is stored as its parent`,
      );
    }
    if (!storage && !spec.abstract)
      problem(where, 'a class that is not abstract needs a storage kind (its own or a parent’s)');
    const properties = new Map<string, PropertyDef>();
    const derived = new Map<string, PropertyDef>();
    const references = new Map<string, ReferenceDef>();
    let roles: { a: string; b: string } | null = null;
    for (const n of ancestors(name)) {
      const s = specs.get(n)!;
      const here = s.where;
      roles ??= s.spec.roles ?? null;
      for (const [path, p] of Object.entries(s.spec.properties ?? {})) {
        if (properties.has(path)) continue;
        const def = storage ? propertyDef(storage, p, `${here}.properties.${path}`, problem) : null;
        if (def) properties.set(path, def);
      }
      for (const [path, p] of Object.entries(s.spec.derived ?? {})) {
        if (derived.has(path)) continue;
        const def = storage ? propertyDef(storage, p, `${here}.derived.${path}`, problem) : null;
        if (def) derived.set(path, def);
      }
      for (const [refName, r] of Object.entries(s.spec.references ?? {})) {
        if (references.has(refName)) continue;
        const def = storage ? referenceDef(storage, refName, r, `${here}.references.${refName}`, problem) : null;
        if (def) references.set(refName, def);
      }
    }
    const linkStorage = storage ? STORAGES[storage].roles : null;
    if (linkStorage && !roles && !spec.abstract)
      problem(where, `a link class (storage ${storage}) needs roles a and b`);
    if (!linkStorage && spec.roles)
      problem(where, `roles are for link classes; storage ${storage ?? 'none'} holds no links`);
    if (linkStorage && roles) {
      for (const [role, column] of [
        ['A', linkStorage.a],
        ['B', linkStorage.b],
      ] as const) {
        const target = role === 'A' ? roles.a : roles.b;
        const key = `role${role}ObjectRef`;
        if (!references.has(key)) references.set(key, { name: key, target, from: { at: { aux: 'self', column } } });
        if (!properties.has(`${key}.key.id`))
          properties.set(`${key}.key.id`, { type: 'long', at: { aux: 'self', column } });
      }
    }
    if (storage === 'iteration' && !spec.abstract) {
      if (spec.master !== masterClassOf(name))
        problem(where, `a versioned class names its master class ${masterClassOf(name)}`);
      else if (!specs.has(spec.master)) problem(where, `master class ${spec.master} is not declared`);
      else if (storageOf(spec.master) !== 'master') problem(where, `master class ${spec.master} needs storage master`);
    } else if (spec.master) problem(where, 'only versioned classes (storage iteration) have a master class');
    classes.set(name, {
      name,
      parent: spec.parent ?? null,
      abstract: spec.abstract === true,
      storage,
      master: spec.master ?? null,
      displayName: spec.displayName ?? name.slice(name.lastIndexOf('.') + 1),
      about: spec.about ?? '',
      properties,
      derived,
      references,
      roles,
      descendants: descendants.get(name) ?? [name],
      classValues: [],
      userDeclared: user,
      interface: false,
      interfaces: [],
      declared: null,
    });
  }
  addInterfaces(sources, specs, classes, problem);

  // Class column values: the classes themselves, and for masters the versioned classes they serve.
  for (const c of classes.values()) {
    if (c.storage === 'master') {
      const masters = new Set(c.descendants);
      c.classValues = [...classes.values()]
        .filter((v) => v.storage === 'iteration' && !v.abstract && v.master && masters.has(v.master))
        .map((v) => v.name);
    } else {
      c.classValues = c.descendants.filter((d) => classes.get(d)?.storage === c.storage && !classes.get(d)?.abstract);
    }
  }

  // References and roles: known targets, kept where the target's ids live.
  for (const c of classes.values()) {
    if (c.interface) continue;
    const where = specs.get(c.name)!.where;
    for (const r of c.references.values()) {
      const t = classes.get(r.target);
      if (!t) problem(where, `reference ${r.name}: unknown target class ${r.target}`);
      else if (!t.storage && !keepsOid(r))
        problem(
          where,
          `reference ${r.name}: target ${r.target} spans several storage kinds; keep its OID (oidJson or oidColumns)`,
        );
    }
    if (c.roles) {
      for (const role of [c.roles.a, c.roles.b]) {
        const t = classes.get(role);
        if (!t) problem(where, `unknown role class ${role}`);
        else if (!t.storage) problem(where, `role class ${role} spans several storage kinds: name one stored class`);
      }
    }
  }

  // Soft types: a parent chain ending at a class that keeps soft types.
  const softTypes = new Map<string, CatalogSoftType>();
  for (const [name, { spec, where, user }] of softSpecs) {
    const seen = [name];
    let p = spec.parent;
    while (softSpecs.has(p) && !seen.includes(p)) {
      seen.push(p);
      p = softSpecs.get(p)!.spec.parent;
    }
    if (seen.includes(p)) {
      problem(where, `soft type ${name} is its own ancestor (a cycle of parents)`);
      continue;
    }
    const cls = classes.get(p);
    if (!cls) {
      problem(where, `unknown parent ${spec.parent} (neither a class nor a soft type)`);
      continue;
    }
    if (!cls.storage || !STORAGES[cls.storage].softTypeColumn) {
      problem(where, `class ${p} keeps no soft types (storage ${cls.storage ?? 'none'})`);
      continue;
    }
    softTypes.set(name, {
      name,
      parent: spec.parent,
      cls: p,
      displayName: spec.displayName ?? name.slice(name.lastIndexOf('.') + 1),
      about: spec.about ?? '',
      attributes: new Map(Object.entries(spec.attributes ?? {})),
      descendants: [name],
      userDeclared: user,
    });
  }
  for (const st of softTypes.values()) {
    for (let p = st.parent; softTypes.has(p); p = softTypes.get(p)!.parent) {
      (softTypes.get(p)!.descendants as string[]).push(st.name);
    }
  }

  if (problems.length) throw new CatalogError(problems);
  return { classes, softTypes };
}

type Problem = (where: string, message: string) => void;

function propertyDef(kind: StorageKind, p: PropertySpec, where: string, problem: Problem): PropertyDef | null {
  const storage = STORAGES[kind];
  if ('computed' in p) {
    const needs = COMPUTED_NEEDS[p.computed];
    if (needs && !needs(kind)) {
      problem(where, `computed ${p.computed} is not available on storage ${kind}`);
      return null;
    }
    const type = p.computed === 'oid' ? 'oid' : p.computed === 'branchId' ? 'long' : 'string';
    return { type, computed: p.computed, about: p.about };
  }
  const aux: Aux = p.via ?? 'self';
  if (aux !== 'self' && !storage.aux[aux]) {
    problem(where, `storage ${kind} has no ${aux} to read through`);
    return null;
  }
  if ('column' in p) {
    const t = columnType(storage, { aux, column: p.column });
    if (!t) {
      problem(
        where,
        `column ${p.column} is not a column of ${aux === 'self' ? kind : aux} (see src/catalog/storage.ts)`,
      );
      return null;
    }
    const fits = t === p.type || (t === 'long' && p.type === 'double');
    if (!fits) {
      problem(where, `column ${p.column} holds ${t}, not ${p.type}`);
      return null;
    }
    return { type: p.type, at: { aux, column: p.column }, about: p.about };
  }
  const json = jsonColumn(storage, aux);
  if (!json) {
    problem(where, `storage ${kind} keeps no JSON properties${aux === 'self' ? '' : ` on its ${aux}`}`);
    return null;
  }
  return { type: p.type, json: { at: json, key: p.json }, about: p.about };
}

function referenceDef(
  kind: StorageKind,
  name: string,
  r: ReferenceSpec,
  where: string,
  problem: Problem,
): ReferenceDef | null {
  const storage = STORAGES[kind];
  if ('oidColumns' in r) {
    const cls = { aux: 'self' as const, column: r.oidColumns.class };
    const id = { aux: 'self' as const, column: r.oidColumns.id };
    if (columnType(storage, cls) !== 'string') {
      problem(where, `column ${cls.column} is not a text column of ${kind} (the class of the OID)`);
      return null;
    }
    if (columnType(storage, id) !== 'long') {
      problem(where, `column ${id.column} is not an id column of ${kind} (the id of the OID)`);
      return null;
    }
    return { name, target: r.target, from: { oidColumns: { cls, id } } };
  }
  if ('column' in r) {
    const aux: Aux = r.via ?? 'self';
    const t = columnType(storage, { aux, column: r.column });
    if (t !== 'long') {
      problem(where, `column ${r.column} is not an id column of ${aux === 'self' ? kind : aux}`);
      return null;
    }
    return { name, target: r.target, from: { at: { aux, column: r.column } } };
  }
  const json = jsonColumn(storage, 'self');
  if (!json) {
    problem(where, `storage ${kind} keeps no JSON properties`);
    return null;
  }
  return 'json' in r
    ? { name, target: r.target, from: { json: { at: json, key: r.json } } }
    : { name, target: r.target, from: { oidJson: { at: json, key: r.oidJson } } };
}
