import { buildCatalog, type CatalogSource } from './catalog-build.js';
import {
  CatalogError,
  type CatalogClass,
  type CatalogSoftType,
  type PropertyDef,
  type PropertyType,
  type ReferenceDef,
} from './catalog-model.js';
import { unresolvedPaths } from './catalog-view.js';
import { STORAGES, type Storage, type StorageKind } from './storage.js';
import { typeInfoProperty } from './type-info.js';

/** A table of a template: a class, and the soft types it is narrowed to (null: all). */
export interface TableType {
  cls: CatalogClass;
  storage: Storage;
  /** Soft types the rows must have; null: the class and its subclasses with any soft type. */
  softTypes: readonly string[] | null;
  /** Set when the named soft type is not declared (it then matches exactly that type). */
  warning: string | null;
}

/** The value a property path of `object` names when it is empty: the object itself (its OID). */
export const OBJECT_ITSELF: PropertyDef = { type: 'oid', computed: 'oid' };

const CLASS_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
/** Custom attributes: `WCTYPE|<class>[|<soft type>…]~IBA|<name>` (or `~MBA|`). */
const ATTRIBUTE_RE = /^WCTYPE\|([^~]+)~(IBA|MBA)\|([A-Za-z_][\w.-]{0,99})$/;

/**
 * The type catalog: classes with their storage, properties, references and link roles, and the
 * soft types below them. Immutable; a catalog with user-declared types is a new Catalog.
 */
export class Catalog {
  private readonly classes: Map<string, CatalogClass>;
  private readonly softTypes: Map<string, CatalogSoftType>;
  private readonly concrete = new Map<string, readonly string[]>();

  /** Throws CatalogError listing every problem of the sources. */
  constructor(
    readonly sources: readonly CatalogSource[],
    /** Changes whenever the declared types change: caches key on it. */
    readonly version: string = 'standard',
  ) {
    const built = buildCatalog([...sources]);
    this.classes = built.classes;
    this.softTypes = built.softTypes;
    const unresolved = unresolvedPaths(this, sources);
    if (unresolved.length) throw new CatalogError(unresolved);
  }

  /** The same catalog with further sources (user-declared types); throws CatalogError. */
  extend(more: readonly CatalogSource[], version: string): Catalog {
    return new Catalog([...this.sources, ...more], version);
  }

  findClass(name: string): CatalogClass | undefined {
    return this.classes.get(name);
  }

  findSoftType(name: string): CatalogSoftType | undefined {
    return this.softTypes.get(name);
  }

  listClasses(): CatalogClass[] {
    return [...this.classes.values()];
  }

  listSoftTypes(): CatalogSoftType[] {
    return [...this.softTypes.values()];
  }

  /**
   * The concrete classes of a storage kind, in catalog order: `iteration` for the versioned
   * objects' classes (documents, parts, change objects …, and those users declared), `object`
   * for the plain ones'.
   */
  concreteClasses(storage: 'iteration' | 'object'): readonly string[] {
    let found = this.concrete.get(storage);
    if (!found) {
      found = [...this.classes.values()].filter((c) => c.storage === storage && !c.abstract).map((c) => c.name);
      this.concrete.set(storage, found);
    }
    return found;
  }

  /**
   * The classes below `root` (itself included) that objects can have (not abstract), of one
   * storage kind when given, in the order of the root's descendants; none when `root` is unknown.
   */
  concreteBelow(root: string, storage?: StorageKind): readonly string[] {
    return (this.classes.get(root)?.descendants ?? []).filter((name) => {
      const cls = this.classes.get(name)!;
      return !cls.abstract && (storage === undefined || cls.storage === storage);
    });
  }

  /** The classes a container's numbering rule may number: the versioned ones, then the plain ones. */
  numberedClasses(): readonly string[] {
    return [...this.concreteClasses('iteration'), ...this.concreteClasses('object')];
  }

  /** Whether `cls` is one of concreteBelow(root): at or below `root`, and not abstract. */
  isConcreteBelow(cls: string, root: string): boolean {
    return this.isA(cls, root) && this.classes.get(cls)?.abstract === false;
  }

  /** Whether `sub` is `sup` or below it. */
  isA(sub: string, sup: string): boolean {
    return this.classes.get(sup)?.descendants.includes(sub) ?? false;
  }

  /** A table's text (`wt.part.WTPart`, `WCTYPE|wt.part.WTPart|com.acme.SoftwarePart`) or why it names nothing. */
  resolveTable(text: string): TableType | string {
    const t = text.trim();
    const parts = t.startsWith('WCTYPE|') ? t.slice(7).split('|') : [t];
    const base = parts[0];
    const soft = parts.length > 1 ? parts[parts.length - 1] : null;
    const cls = this.classes.get(base);
    if (!cls) {
      const st = this.softTypes.get(base);
      if (st && parts.length === 1) return this.softTable(st, this.classes.get(st.cls)!);
      return this.unknownClass(base, soft);
    }
    if (!cls.storage) {
      return `${cls.name} spans several storage kinds: name one of its subclasses (${cls.descendants.filter((d) => this.classes.get(d)?.storage).join(', ')})`;
    }
    const storage = STORAGES[cls.storage];
    if (storage.joinOnly) {
      return `${cls.name} is no table: ${storage.joinOnly}; name it in a linkJoin of ${cls.roles?.a ?? 'a master'} and ${cls.roles?.b ?? 'an iteration'}`;
    }
    if (soft === null) return { cls, storage, softTypes: null, warning: null };
    if (!CLASS_NAME.test(soft)) return `"${soft}" is not a soft type name (like com.acme.SoftwarePart)`;
    if (!storage.softTypeColumn) return `${cls.name} has no soft types (storage ${cls.storage})`;
    const st = this.softTypes.get(soft);
    if (st) {
      if (!this.isA(st.cls, cls.name)) return `soft type ${soft} is a type of ${st.cls}, not of ${cls.name}`;
      return this.softTable(st, cls);
    }
    if (this.classes.has(soft)) {
      const sub = this.classes.get(soft)!;
      if (!this.isA(soft, cls.name)) return `${soft} is a class, and not below ${cls.name}`;
      return { cls: sub, storage: STORAGES[sub.storage ?? cls.storage], softTypes: null, warning: null };
    }
    return {
      cls,
      storage,
      softTypes: [soft],
      warning: `soft type ${soft} of ${cls.name} is not declared: only objects of exactly that type match (declare it in the dataset's types to add its attributes and subtypes)`,
    };
  }

  private softTable(st: CatalogSoftType, cls: CatalogClass): TableType {
    return { cls, storage: STORAGES[cls.storage!], softTypes: st.descendants, warning: null };
  }

  private unknownClass(name: string, soft: string | null): string {
    const declare = `declare it in the dataset's "types" (docs/catalog.md)`;
    if (soft !== null)
      return `unknown class ${name} (the base of soft type ${soft}): ${declare} as a class with parent and storage`;
    const dot = name.lastIndexOf('.');
    const pkg = dot > 0 ? name.slice(0, dot) : '';
    const siblings = [...this.classes.keys()].filter((c) => c.slice(0, c.lastIndexOf('.')) === pkg);
    if (siblings.length) {
      return `unknown class ${name}: package ${pkg} is known (${siblings.slice(0, 6).join(', ')}${siblings.length > 6 ? ', …' : ''}) but not this class; ${declare} as a class with a parent there`;
    }
    return `unknown class ${name}: neither it nor its package ${pkg || '(none)'} is in the catalog; ${declare} as a class (or as a soft type of a known class)`;
  }

  /** A property path of `column` text, a custom attribute, or why it names nothing. */
  resolveProperty(table: TableType, path: string, typeHint: PropertyType | null): PropertyDef | string {
    const p = table.cls.properties.get(path);
    if (p) return p;
    const typeInfo = typeInfoProperty(this, table, path);
    if (typeInfo !== null) return typeInfo;
    const attr = ATTRIBUTE_RE.exec(path);
    if (attr) return this.attribute(table, attr[1], attr[2] as 'IBA' | 'MBA', attr[3], typeHint);
    return `unknown property "${path}" of ${table.cls.name}`;
  }

  /** A derived property (`object propertyName` or a property chain), else any property path. */
  resolveDerived(table: TableType, path: string): PropertyDef | string {
    if (path === '') return OBJECT_ITSELF;
    const d = table.cls.derived.get(path);
    if (d) return d;
    const p = this.resolveProperty(table, path, null);
    return typeof p === 'string' ? `unknown derived property "${path}" of ${table.cls.name}` : p;
  }

  private attribute(
    table: TableType,
    typePath: string,
    kind: 'IBA' | 'MBA',
    name: string,
    typeHint: PropertyType | null,
  ): PropertyDef | string {
    const named = this.resolveTable(`WCTYPE|${typePath}`);
    if (typeof named === 'string') return `custom attribute ${name}: ${named}`;
    if (named.cls.storage !== table.cls.storage && !(kind === 'MBA' && table.cls.storage === 'iteration')) {
      return `custom attribute of ${named.cls.name} cannot be read on ${table.cls.name}`;
    }
    const at = kind === 'IBA' ? table.storage.iba : table.storage.mba;
    if (!at) return `${table.cls.name} keeps no custom attributes (storage ${table.cls.storage})`;
    // A typeInfo column a soft type maps (`~MBA|typeInfoWTPart.ptc_str_4`): the attribute it holds.
    const typeInfo = typeInfoProperty(this, table, name, named);
    if (typeInfo !== null) return typeInfo;
    let type: PropertyType | null = null;
    for (const st of named.softTypes ?? []) {
      const declared = this.declaredAttribute(st, name);
      if (declared) type = declared;
      break;
    }
    type ??=
      typeHint === 'long' || typeHint === 'double' || typeHint === 'boolean' || typeHint === 'timestamp'
        ? typeHint
        : 'string';
    // Master attributes of versioned objects: the master's, else (as before masters kept any) the iteration's.
    const fallback = kind === 'MBA' && table.cls.storage === 'iteration' ? (table.storage.iba ?? undefined) : undefined;
    return { type, json: { at, key: name, ...(fallback && { fallback }) } };
  }

  /** The declared type of a soft type's attribute (or of one of its parents). */
  private declaredAttribute(softType: string, name: string): PropertyType | null {
    for (let st = this.softTypes.get(softType); st; st = this.softTypes.get(st.parent)) {
      const a = st.attributes.get(name);
      if (a) return a.type;
    }
    return null;
  }

  findReference(cls: CatalogClass, name: string): ReferenceDef | undefined {
    return cls.references.get(name);
  }

  /** A link class (`linkJoin name`): a class with roles A and B. */
  findLink(name: string): CatalogClass | undefined {
    const c = this.classes.get(name);
    return c?.roles ? c : undefined;
  }
}
