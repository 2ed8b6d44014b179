import type { CatalogClass, ClassSpec, InterfaceSpec, PropertyDef } from './catalog-model.js';
import type { StorageKind } from './storage.js';

/** Catalog files with where each came from (catalog-build.ts's CatalogSource). */
interface Source {
  where: string;
  file: { interfaces?: InterfaceSpec[] };
  user?: boolean;
}

type Problem = (where: string, message: string) => void;

/**
 * Interfaces (docs/catalog.md): adds those the sources declare to `classes`, the classes built
 * from the class declarations, and gives each class the interfaces it implements (its own, its
 * ancestors', and those they extend). An interface matches what implements it as a parent class
 * matches its subclasses: its descendants are the interfaces extending it and the classes
 * implementing one of them, with the classes below those, and its storage is theirs when they
 * share one. Every concrete class implementing an interface must have what the interface
 * declares, of the declared type. Problems go to `problem`, each where it was written.
 */
export function addInterfaces(
  sources: readonly Source[],
  classSpecs: ReadonlyMap<string, { spec: ClassSpec; where: string }>,
  classes: Map<string, CatalogClass>,
  problem: Problem,
): void {
  const specs = new Map<string, { spec: InterfaceSpec; where: string; user: boolean }>();
  for (const src of sources) {
    (src.file.interfaces ?? []).forEach((spec, i) => {
      const where = `${src.where}: interfaces[${i}] (${spec.name})`;
      if (specs.has(spec.name))
        problem(where, `interface ${spec.name} is declared twice (also ${specs.get(spec.name)!.where})`);
      else if (classSpecs.has(spec.name)) problem(where, `interface ${spec.name} has the name of a class`);
      else specs.set(spec.name, { spec, where, user: src.user === true });
    });
  }
  const named = (name: string, where: string): boolean => {
    if (specs.has(name)) return true;
    problem(
      where,
      classSpecs.has(name)
        ? `${name} is a class, not an interface (a class names its parent class in "parent")`
        : `unknown interface ${name}`,
    );
    return false;
  };

  // Each interface with those it extends, directly or not.
  const extended = new Map<string, string[]>();
  for (const [name, { spec, where }] of specs) {
    for (const e of spec.extends ?? []) named(e, `${where}.extends`);
    const above = closure(name, specs);
    if (above.includes(name)) problem(where, `interface ${name} extends itself (a cycle of interfaces)`);
    extended.set(name, [name, ...above.filter((e) => e !== name)]);
  }

  // The interfaces of each class: its own and its ancestors', with those they extend.
  for (const { spec, where } of classSpecs.values()) {
    for (const i of spec.interfaces ?? []) named(i, `${where}.interfaces`);
  }
  for (const c of classes.values()) {
    const found = new Set<string>();
    for (let n: string | null = c.name; n; n = classes.get(n)?.parent ?? null) {
      for (const i of classSpecs.get(n)?.spec.interfaces ?? []) for (const e of extended.get(i) ?? []) found.add(e);
    }
    c.interfaces = [...found];
  }

  for (const [name, { spec, user }] of specs) {
    const below = [...specs.keys()].filter((j) => j !== name && extended.get(j)!.includes(name));
    const implementing = [...classes.values()].filter((c) => !c.interface && c.interfaces.includes(name));
    const kinds = new Set(implementing.map((c) => c.storage).filter((s): s is StorageKind => s !== null));
    classes.set(name, {
      name,
      parent: null,
      abstract: true,
      storage: kinds.size === 1 ? [...kinds][0] : null,
      master: null,
      displayName: spec.displayName ?? name.slice(name.lastIndexOf('.') + 1),
      about: spec.about ?? '',
      properties: new Map(),
      derived: new Map(),
      references: new Map(),
      roles: null,
      paths: new Map(),
      descendants: [name, ...below, ...implementing.map((c) => c.name)],
      classValues: [],
      userDeclared: user,
      interface: true,
      interfaces: extended.get(name)!.filter((e) => e !== name),
      declared: {
        properties: new Map(Object.entries(spec.properties ?? {})),
        derived: new Map(Object.entries(spec.derived ?? {})),
        references: new Map(Object.entries(spec.references ?? {})),
      },
    });
  }

  for (const c of classes.values()) {
    if (c.interface || c.abstract) continue;
    const where = classSpecs.get(c.name)?.where ?? c.name;
    for (const i of c.interfaces) checkImplements(c, classes.get(i)!, classes, (m) => problem(where, m));
  }
}

/** The interfaces `name` extends, directly or not (itself too when they form a cycle). */
function closure(name: string, specs: ReadonlyMap<string, { spec: InterfaceSpec }>): string[] {
  const seen: string[] = [];
  const visit = (n: string) => {
    for (const e of specs.get(n)?.spec.extends ?? []) {
      if (seen.includes(e)) continue;
      seen.push(e);
      visit(e);
    }
  };
  visit(name);
  return seen;
}

/** What `c` lacks of what interface `i` declares, each said once. */
function checkImplements(
  c: CatalogClass,
  i: CatalogClass,
  classes: ReadonlyMap<string, CatalogClass>,
  problem: (message: string) => void,
): void {
  const declared = i.declared!;
  const check = (path: string, type: string, def: PropertyDef | undefined, what: string) => {
    if (!def) problem(`${c.name} implements ${i.name} but has no ${what} "${path}" (${type})`);
    else if (def.type !== type) problem(`${what} "${path}" of ${c.name} is ${def.type}; ${i.name} declares ${type}`);
  };
  for (const [path, p] of declared.properties) check(path, p.type, c.properties.get(path), 'property');
  for (const [path, p] of declared.derived)
    check(path, p.type, c.derived.get(path) ?? c.properties.get(path), 'derived property');
  for (const [name, r] of declared.references) {
    const ref = c.references.get(name);
    if (!ref) problem(`${c.name} implements ${i.name} but has no reference "${name}" (to ${r.target})`);
    else if (!(classes.get(r.target)?.descendants.includes(ref.target) ?? false))
      problem(`reference "${name}" of ${c.name} points to ${ref.target}; ${i.name} declares ${r.target} or below`);
  }
}
