import type { CatalogSource } from './catalog-build.js';
import { propertyDef, referenceDef, type Problem } from './catalog-defs.js';
import type {
  CatalogClass,
  ClassExtension,
  ClassSpec,
  PropertyDef,
  ReferenceDef,
  SoftTypeSpec,
} from './catalog-model.js';
import { propertySource, referenceSource } from './catalog-view.js';
import { STORAGES, type ColumnRef, type StorageKind } from './storage.js';

/**
 * Users' extensions of standard classes (a dataset's `types.extensions`, rows of kind
 * `extension` in catalog_types): properties, derived properties, references and roles a
 * standard class lacks, added on top of it. An extension never changes what the class has: an
 * entry it gives again must be the same (then it changes nothing), anything else is a clash
 * named with the class and the entry.
 */

/** An extension and where it was given (`types: extensions[0] (wt.part.WTPart)`). */
export interface ExtensionEntry {
  where: string;
  ext: ClassExtension;
}

/** What an extension adds; the rest of a class stays as it is. */
const ADDS = 'an extension adds properties, derived properties, references and roles';

/** Keys of a class declaration that an extension may not give, with why. */
const FIXED: Record<string, (cls: string, storage: StorageKind | null, parent: string | undefined) => string> = {
  name: () => 'an extension names the class it extends in "class"; "name" declares a class of its own',
  parent: (cls, _s, parent) => `cannot change the parent of ${cls} (${parent ?? 'none'}); ${ADDS}`,
  storage: (cls, storage) =>
    `cannot change the storage of ${cls}: it is stored as ${storage ?? 'several storage kinds'}` +
    `${storage ? ` (table ${STORAGES[storage].table})` : ''}; ${ADDS}`,
  abstract: (cls) => `cannot change whether ${cls} is abstract; ${ADDS}`,
  master: (cls) => `cannot change the master class of ${cls}; ${ADDS}`,
  displayName: (cls) => `cannot change the display name of ${cls}; ${ADDS}`,
  about: (cls) => `cannot change the description of ${cls} (give each addition its own "about"); ${ADDS}`,
};

/**
 * The extensions of the sources by the class they extend: only users' (standard files change
 * the class itself), only of standard classes, only additions. Refused ones are reported and
 * left out.
 */
export function collectExtensions(
  sources: readonly CatalogSource[],
  specs: ReadonlyMap<string, { spec: ClassSpec; user: boolean }>,
  softSpecs: ReadonlyMap<string, { spec: SoftTypeSpec }>,
  storageOf: (name: string) => StorageKind | null,
  problem: Problem,
): Map<string, ExtensionEntry[]> {
  const out = new Map<string, ExtensionEntry[]>();
  for (const src of sources) {
    (src.file.extensions ?? []).forEach((ext, i) => {
      const where = `${src.where}: extensions[${i}] (${ext.class})`;
      const cls = specs.get(ext.class);
      let refused = true;
      if (!src.user)
        problem(where, 'extensions are users’ additions (a dataset’s types); a standard file changes the class itself');
      else if (softSpecs.has(ext.class))
        problem(where, `${ext.class} is a soft type, not a class: declare its attributes under "softTypes"`);
      else if (!cls)
        problem(
          where,
          `extends unknown class ${ext.class}: an extension adds to a class of the standard catalog; ` +
            'declare a class of your own under "classes" (with a parent) instead',
        );
      else if (cls.user)
        problem(
          where,
          `${ext.class} is a class users declared: declare it again under "classes" with what it adds ` +
            '(a declaration replaces the earlier one)',
        );
      else refused = false;
      for (const key of Object.keys(FIXED).filter((k) => k in ext)) {
        problem(`${where}.${key}`, FIXED[key](ext.class, storageOf(ext.class), cls?.spec.parent));
        refused = true;
      }
      if (refused) return;
      out.set(ext.class, [...(out.get(ext.class) ?? []), { where, ext }]);
    });
  }
  return out;
}

/**
 * Checks what each extension adds against the class it extends and every class below it, as
 * built: an entry the class had (or an earlier extension added) must be the same, a path must
 * not mean a property and a derived property of other values, a JSON key must keep one type.
 * `origin` holds where each entry an extension added was given.
 */
export function checkExtensions(
  classes: ReadonlyMap<string, CatalogClass>,
  extensions: ReadonlyMap<string, ExtensionEntry[]>,
  origin: WeakMap<object, string>,
  problem: Problem,
): void {
  const silent: Problem = () => {};
  for (const [name, entries] of extensions) {
    const cls = classes.get(name);
    if (!cls) continue;
    const below = cls.descendants.map((d) => classes.get(d)).filter((d): d is CatalogClass => !!d?.storage);
    for (const { where, ext } of entries) {
      if (ext.roles) {
        const clash = rolesClash(cls, ext.roles);
        if (clash) problem(`${where}.roles`, clash);
      }
      for (const kind of ['properties', 'derived'] as const) {
        for (const [path, spec] of Object.entries(ext[kind] ?? {})) {
          const at = `${where}.${kind}.${path}`;
          for (const d of below) {
            // A definition the storage cannot hold was reported while building.
            const mine = propertyDef(d.storage!, spec, at, silent);
            const clash = mine && propertyClash(d, kind, path, mine, origin);
            if (clash) {
              problem(at, clash);
              break;
            }
          }
        }
      }
      for (const [refName, spec] of Object.entries(ext.references ?? {})) {
        const at = `${where}.references.${refName}`;
        for (const d of below) {
          const mine = referenceDef(d.storage!, refName, spec, at, silent);
          const clash = mine && referenceClash(d, mine, origin);
          if (clash) {
            problem(at, clash);
            break;
          }
        }
      }
    }
  }
}

function rolesClash(cls: CatalogClass, roles: { a: string; b: string }): string | null {
  if (!cls.storage || !STORAGES[cls.storage].roles) {
    return `roles are for link classes; ${cls.name} is stored as ${cls.storage ?? 'several storage kinds'}, which holds no links`;
  }
  if (cls.roles && (cls.roles.a !== roles.a || cls.roles.b !== roles.b)) {
    return `${cls.name} links ${cls.roles.a} (a) and ${cls.roles.b} (b) already; an extension cannot change its roles`;
  }
  return null;
}

const describe = (p: PropertyDef) => `${propertySource(p)} (${p.type})`;
const addedBy = (def: object, origin: WeakMap<object, string>) =>
  origin.has(def) ? ` (added by ${origin.get(def)})` : '';

function sameProperty(a: PropertyDef, b: PropertyDef): boolean {
  return a.type === b.type && propertySource(a) === propertySource(b) && fallbackOf(a) === fallbackOf(b);
}
const fallbackOf = (p: PropertyDef) => ('json' in p && p.json.fallback ? p.json.fallback.column : '');

function propertyClash(
  d: CatalogClass,
  kind: 'properties' | 'derived',
  path: string,
  mine: PropertyDef,
  origin: WeakMap<object, string>,
): string | null {
  const label = kind === 'properties' ? 'property' : 'derived property';
  const held = (kind === 'properties' ? d.properties : d.derived).get(path);
  if (held && !sameProperty(held, mine)) {
    return (
      `${label} ${path} of ${d.name} exists already as ${describe(held)}${addedBy(held, origin)}; ` +
      `an extension cannot change it to ${describe(mine)}`
    );
  }
  // `object propertyName` reads a derived property before a property of the same path.
  const other = (kind === 'properties' ? d.derived : d.properties).get(path);
  if (other && !origin.has(other) && !sameProperty(other, mine)) {
    const otherLabel = kind === 'properties' ? 'derived property' : 'property';
    return (
      `${path} of ${d.name} is a ${otherLabel} already, ${describe(other)}; ` +
      `an extension cannot give the path another value (${describe(mine)})`
    );
  }
  return 'json' in mine ? jsonClash(d, `${label} ${path}`, mine.json.at, mine.json.key, mine.type) : null;
}

function referenceClash(d: CatalogClass, mine: ReferenceDef, origin: WeakMap<object, string>): string | null {
  const held = d.references.get(mine.name);
  if (held && (held.target !== mine.target || JSON.stringify(held.from) !== JSON.stringify(mine.from))) {
    return (
      `reference ${mine.name} of ${d.name} exists already, to ${held.target} kept in ${referenceSource(held)}` +
      `${addedBy(held, origin)}; an extension cannot change it (to ${mine.target} kept in ${referenceSource(mine)})`
    );
  }
  const slot = jsonSlot(mine);
  return slot ? jsonClash(d, `reference ${mine.name}`, slot.at, slot.key, slot.type) : null;
}

/** The JSON key a reference keeps its target in, and what it keeps there: an id or an OID. */
function jsonSlot(r: ReferenceDef): { at: ColumnRef; key: string; type: string } | null {
  if ('json' in r.from) return { ...r.from.json, type: 'long' };
  if ('oidJson' in r.from) return { ...r.from.oidJson, type: 'string' };
  return null;
}

/** Another entry of the class keeping a value of another type in the same JSON key. */
function jsonClash(d: CatalogClass, what: string, at: ColumnRef, key: string, type: string): string | null {
  const slots: { what: string; at: ColumnRef; key: string; type: string }[] = [
    ...[...d.properties].map(([p, def]) => ({ what: `property ${p}`, def })),
    ...[...d.derived].map(([p, def]) => ({ what: `derived property ${p}`, def })),
  ].flatMap(({ what: w, def }) =>
    'json' in def ? [{ what: w, at: def.json.at, key: def.json.key, type: def.type }] : [],
  );
  for (const r of d.references.values()) {
    const slot = jsonSlot(r);
    if (slot) slots.push({ what: `reference ${r.name}`, ...slot });
  }
  const other = slots.find(
    (s) => s.what !== what && s.at.aux === at.aux && s.at.column === at.column && s.key === key && s.type !== type,
  );
  if (!other) return null;
  const kept = (t: string) => (t === 'long' && other.what.startsWith('reference') ? 'an id (long)' : `a ${t}`);
  return `${what} of ${d.name} would keep a ${type} in JSON key ${key}, where ${other.what} keeps ${kept(other.type)}`;
}

/** An entry given for a class again: the same apart from its `about` (and the order of its keys, which jsonb changes). */
function sameEntry(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    typeof v === 'object' && v !== null
      ? Object.entries(v)
          .filter(([k]) => k !== 'about')
          .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
          .map(([k, x]) => [k, canonical(x)])
      : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** An entry as written, in the words of the messages: `json acmeCost (double)`, `a reference to <class> kept in json s`. */
function specText(spec: unknown): string {
  const s = spec as Record<string, unknown>;
  const via = typeof s.via === 'string' ? `${s.via} ` : '';
  if ('target' in s) {
    const kept = Object.entries(s).find(([k]) => k !== 'target' && k !== 'about' && k !== 'via');
    const where = kept ? `${kept[0]} ${typeof kept[1] === 'string' ? kept[1] : JSON.stringify(kept[1])}` : '?';
    return `a reference to ${String(s.target)} kept in ${via}${where}`;
  }
  if ('computed' in s) return `computed ${String(s.computed)}`;
  const at = 'column' in s ? `column ${String(s.column)}` : `json ${String(s.json)}`;
  return `${via}${at} (${String(s.type)})`;
}

/**
 * A stored extension of a class with a later one of the same class merged in: the entries of
 * both, each given once. `clashes` names each entry the later one gives otherwise than the
 * stored one (the caller refuses it: a clash that the catalog check could not see because
 * the stored row changed since).
 */
export function mergeExtension(
  stored: ClassExtension,
  added: ClassExtension,
): { merged: ClassExtension; clashes: string[] } {
  const clashes: string[] = [];
  const merged: ClassExtension = { class: stored.class };
  for (const kind of ['properties', 'derived', 'references'] as const) {
    // A Map, not an object: a path is data (even `__proto__`).
    const entries = new Map<string, unknown>(Object.entries(stored[kind] ?? {}));
    for (const [path, spec] of Object.entries(added[kind] ?? {})) {
      if (entries.has(path) && !sameEntry(entries.get(path), spec)) {
        const what = { properties: 'property', derived: 'derived property', references: 'reference' }[kind];
        clashes.push(
          `${what} ${path} of ${stored.class} was added by another import meanwhile, as ${specText(entries.get(path))}; ` +
            `an extension cannot change it to ${specText(spec)}`,
        );
      } else entries.set(path, spec);
    }
    if (entries.size) (merged as unknown as Record<string, unknown>)[kind] = Object.fromEntries(entries);
  }
  const roles = stored.roles ?? added.roles;
  if (stored.roles && added.roles && !sameEntry(stored.roles, added.roles)) {
    clashes.push(
      `roles of ${stored.class} were added by another import meanwhile, as ${stored.roles.a} (a) and ` +
        `${stored.roles.b} (b); an extension cannot change them`,
    );
  }
  if (roles) merged.roles = roles;
  return { merged, clashes };
}
