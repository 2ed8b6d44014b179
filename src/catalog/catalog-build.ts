import {
  CatalogError,
  keepsOid,
  type CatalogClass,
  type CatalogFile,
  type CatalogProblem,
  type CatalogSoftType,
  type ClassEntries,
  type ClassSpec,
  type PropertyDef,
  type ReferenceDef,
  type SoftTypeSpec,
} from './catalog-model.js';
import { propertyDef, referenceDef } from './catalog-defs.js';
import { checkExtensions, collectExtensions } from './catalog-extend.js';
import { STORAGES, type StorageKind } from './storage.js';
import { masterClassOf } from './standard-classes.js';
import { checkTypeInfoColumns } from './type-info.js';
import { addInterfaces } from './catalog-interfaces.js';

/** Catalog files with where each came from (a file name, `dataset types`, …). */
export interface CatalogSource {
  where: string;
  file: CatalogFile;
  /** Declared by users (stored in catalog_types): marked so in the catalog. */
  user?: boolean;
}

/**
 * Links whose role columns are ids of fixed tables: the storage of their role A and role B
 * classes. A link row (storage `link`) names ends of any storage.
 */
const ROLE_STORAGES: Partial<Record<StorageKind, [StorageKind, StorageKind]>> = {
  usageLink: ['iteration', 'master'],
  holderToContent: ['iteration', 'content'],
  masterIteration: ['master', 'iteration'],
};

export interface BuiltCatalog {
  classes: Map<string, CatalogClass>;
  softTypes: Map<string, CatalogSoftType>;
}

/**
 * Checks the files together (names, parents, cycles, storage columns against the whitelist,
 * reference targets, link roles, soft types), resolves inheritance and applies users' extensions
 * of standard classes on top. Throws CatalogError with every problem found.
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

  // Users' extensions of standard classes, and where each entry they add came from (for messages).
  const extensions = collectExtensions(sources, specs, softSpecs, storageOf, problem);
  const origin = new WeakMap<object, string>();
  // An extension's entry fails alike for every class below the one extended: said once.
  const reported = new Set<string>();
  const once = (at: string, message: string, shown = message) => {
    if (reported.has(`${at}\n${message}`)) return;
    reported.add(`${at}\n${message}`);
    problem(at, shown);
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
    const linkStorage = storage ? STORAGES[storage].roles : null;
    // The class's and its ancestors' declarations first, then the extensions of them: an
    // extension only adds, so what a declaration says is never overridden by one.
    const add = (entries: ClassEntries, here: string, extended: string | null) => {
      const extension = extended !== null;
      const report = !extension
        ? problem
        : (at: string, message: string) => once(at, message, extended === name ? message : `${message} (on ${name})`);
      if (!extension) roles ??= entries.roles ?? null;
      else if (!roles && entries.roles && linkStorage) {
        roles = entries.roles;
        origin.set(roles, `${here}.roles`);
      }
      const mark = <T extends object>(def: T | null, at: string): T | null => {
        if (def && extension) origin.set(def, at);
        return def;
      };
      // An extension's entry is checked even where the class has the path: it may not fit either.
      for (const [path, p] of Object.entries(entries.properties ?? {})) {
        if (properties.has(path) && !extension) continue;
        const at = `${here}.properties.${path}`;
        const def = storage ? mark(propertyDef(storage, p, at, report), at) : null;
        if (def && !properties.has(path)) properties.set(path, def);
      }
      for (const [path, p] of Object.entries(entries.derived ?? {})) {
        if (derived.has(path) && !extension) continue;
        const at = `${here}.derived.${path}`;
        const def = storage ? mark(propertyDef(storage, p, at, report), at) : null;
        if (def && !derived.has(path)) derived.set(path, def);
      }
      for (const [refName, r] of Object.entries(entries.references ?? {})) {
        if (references.has(refName) && !extension) continue;
        const at = `${here}.references.${refName}`;
        const def = storage ? mark(referenceDef(storage, refName, r, at, report), at) : null;
        if (def && !references.has(refName)) references.set(refName, def);
      }
    };
    // Link classes get the references and properties of their roles' ids.
    const addRoleEntries = () => {
      if (!linkStorage || !roles) return;
      for (const [role, column] of [
        ['A', linkStorage.a],
        ['B', linkStorage.b],
      ] as const) {
        const target = role === 'A' ? roles.a : roles.b;
        const key = `role${role}ObjectRef`;
        if (!references.has(key)) {
          const def: ReferenceDef = { name: key, target, from: { at: { aux: 'self', column } } };
          references.set(key, def);
          if (origin.has(roles)) origin.set(def, origin.get(roles)!);
        }
        if (!properties.has(`${key}.key.id`))
          properties.set(`${key}.key.id`, { type: 'long', at: { aux: 'self', column } });
      }
    };
    for (const n of ancestors(name)) add(specs.get(n)!.spec, specs.get(n)!.where, null);
    addRoleEntries();
    const paths = new Map<string, string>();
    for (const n of ancestors(name)) {
      for (const [path, to] of Object.entries(specs.get(n)!.spec.paths ?? {})) {
        if (properties.has(path) || derived.has(path) || references.has(path))
          problem(
            `${specs.get(n)!.where}.paths.${path}`,
            `${path} is a property, derived property or reference already`,
          );
        else if (!paths.has(path)) paths.set(path, to);
      }
    }
    for (const n of ancestors(name)) for (const e of extensions.get(n) ?? []) add(e.ext, e.where, n);
    addRoleEntries();
    if (linkStorage && !roles && !spec.abstract)
      problem(where, `a link class (storage ${storage}) needs roles a and b`);
    if (!linkStorage && spec.roles)
      problem(where, `roles are for link classes; storage ${storage ?? 'none'} holds no links`);
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
      paths,
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

  // References and roles: known targets, kept where the target's ids live. Those an extension
  // added are reported where the extension gives them, once.
  for (const c of classes.values()) {
    if (c.interface) continue;
    const where = specs.get(c.name)!.where;
    const report = (of: object, message: string) => {
      const at = origin.get(of);
      if (at) once(at, message);
      else problem(where, message);
    };
    for (const r of c.references.values()) {
      const t = classes.get(r.target);
      if (!t) report(r, `reference ${r.name}: unknown target class ${r.target}`);
      else if (!t.storage && !keepsOid(r))
        report(
          r,
          `reference ${r.name}: target ${r.target} spans several storage kinds; keep its OID (oidJson or oidColumns)`,
        );
    }
    if (c.roles) {
      const ends = c.storage ? ROLE_STORAGES[c.storage] : undefined;
      [c.roles.a, c.roles.b].forEach((role, i) => {
        const t = classes.get(role);
        if (!t) report(c.roles!, `unknown role class ${role}`);
        else if (!t.storage) report(c.roles!, `role class ${role} spans several storage kinds: name one stored class`);
        else if (ends && t.storage !== ends[i])
          report(
            c.roles!,
            `role ${i ? 'B' : 'A'} of a ${c.storage} link is stored as ${ends[i]}: ${role} is stored as ${t.storage}`,
          );
      });
    }
  }
  checkExtensions(classes, extensions, origin, problem);

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

  problems.push(...checkTypeInfoColumns(softTypes, (name) => softSpecs.get(name)!.where, classes));

  if (problems.length) throw new CatalogError(problems);
  return { classes, softTypes };
}
