import type { Aux, ColumnRef, StorageKind } from './storage.js';

/**
 * The catalog as written in catalog/*.json and in the dataset's `types` (see docs/catalog.md),
 * and as resolved: inherited storage, properties and references, subclasses and soft types.
 */

/** Value types of properties (the dialect's value types without `oid`). */
export type PropertyType = 'string' | 'long' | 'double' | 'boolean' | 'timestamp';
export const PROPERTY_TYPES: readonly PropertyType[] = ['string', 'long', 'double', 'boolean', 'timestamp'];

/** Values computed from a row: the whitelist of derived properties that are not a column. */
export type ComputedKind =
  | 'oid'
  | 'classname'
  | 'iterationDisplay'
  | 'displayType'
  | 'folderPath'
  | 'containerName'
  | 'formatName'
  | 'typeName'
  | 'versionReference'
  | 'branchId'
  | 'identity'
  | 'checkoutState';
export const COMPUTED_KINDS: readonly ComputedKind[] = [
  'oid',
  'classname',
  'iterationDisplay',
  'displayType',
  'folderPath',
  'containerName',
  'formatName',
  'typeName',
  'versionReference',
  'branchId',
  'identity',
  'checkoutState',
];

/** A property as written: a column (of the storage or of a helper join), a JSON key, a computed value. */
export type PropertySpec =
  | { type: PropertyType; column: string; via?: Exclude<Aux, 'self'>; about?: string }
  | { type: PropertyType; json: string; via?: Exclude<Aux, 'self'>; about?: string }
  | { computed: ComputedKind; about?: string };

/** A reference as written: the target class and where the target's id (or OID text) is kept. */
export type ReferenceSpec =
  | { target: string; column: string; via?: Exclude<Aux, 'self'>; about?: string }
  | { target: string; json: string; about?: string }
  | { target: string; oidJson: string; about?: string }
  | { target: string; oidColumns: { class: string; id: string }; about?: string };

export interface ClassSpec {
  name: string;
  parent?: string;
  /** The interfaces it implements (and so its subclasses): see InterfaceSpec. */
  interfaces?: string[];
  abstract?: boolean;
  storage?: StorageKind;
  /** The master class of a versioned class (its name + `Master`). */
  master?: string;
  displayName?: string;
  about?: string;
  properties?: Record<string, PropertySpec>;
  derived?: Record<string, PropertySpec>;
  references?: Record<string, ReferenceSpec>;
  roles?: { a: string; b: string };
  /**
   * Windchill's getters that read through a reference (`productNumber` of a product instance is
   * its part's number): a name for a property path, read as that path (qml/validate/validate-paths.ts).
   */
  paths?: Record<string, string>;
}

export interface AttributeSpec {
  type: PropertyType;
  about?: string;
  /**
   * Windchill 10 and later keep a type's local attributes in columns of its class's table,
   * `typeInfo<Class>.ptc_str_<n>` … (src/catalog/type-info.ts): the column (`ptc_str_4`) templates
   * read this attribute as.
   */
  typeInfoColumn?: string;
  /** For an attribute kept in a `ptc_ref_<n>` column: the class of the objects whose id it holds. */
  target?: string;
}

export interface SoftTypeSpec {
  name: string;
  /** A class, or another soft type. */
  parent: string;
  displayName?: string;
  about?: string;
  attributes?: Record<string, AttributeSpec>;
}

/** What an interface says of a property every implementing class has: its type. */
export interface DeclaredProperty {
  type: PropertyType;
  about?: string;
}

/** What an interface says of a reference every implementing class has: its target. */
export interface DeclaredReference {
  target: string;
  about?: string;
}

/**
 * An interface as written (`interfaces` of a catalog file), like Windchill's
 * `wt.lifecycle.LifeCycleManaged`: no storage of its own, implemented by classes of any storage
 * (their `interfaces`), which it then matches as a parent class matches its subclasses. It
 * declares what every implementing class has, by name and type; each class says where it keeps it.
 */
export interface InterfaceSpec {
  name: string;
  /** The interfaces it extends: what implements it implements those too. */
  extends?: string[];
  displayName?: string;
  about?: string;
  properties?: Record<string, DeclaredProperty>;
  derived?: Record<string, DeclaredProperty>;
  references?: Record<string, DeclaredReference>;
}

/**
 * Additions to a standard class, as a dataset's `types.extensions` gives them: properties,
 * derived properties, references and roles it lacks. What it has stays as it is.
 */
export interface ClassExtension {
  /** The standard class extended. */
  class: string;
  properties?: Record<string, PropertySpec>;
  derived?: Record<string, PropertySpec>;
  references?: Record<string, ReferenceSpec>;
  roles?: { a: string; b: string };
}

/** What a class declaration and an extension may both give: the entries a class gets. */
export type ClassEntries = Pick<ClassSpec, 'properties' | 'derived' | 'references' | 'roles'>;

export interface CatalogFile {
  classes?: ClassSpec[];
  interfaces?: InterfaceSpec[];
  softTypes?: SoftTypeSpec[];
  /** Users' additions to standard classes (a dataset's `types` and catalog_types only). */
  extensions?: ClassExtension[];
}

/** A resolved property: where its value comes from, and its type. */
export type PropertyDef = (
  | { type: PropertyType; at: ColumnRef }
  | { type: PropertyType; json: { at: ColumnRef; key: string; fallback?: ColumnRef } }
  | { type: PropertyType | 'oid'; computed: ComputedKind }
  | { type: PropertyType; typeInfo: TypeInfoDef }
) & { about?: string };

/**
 * A typeInfo column (`typeInfoWTPart.ptc_str_4`) of a template's table: the soft types that map
 * it to one of their attributes, kept in the table's JSON column under the attribute's name.
 */
export interface TypeInfoDef {
  /** The table's JSON column. */
  at: ColumnRef;
  /** By soft types: the attribute's key, and for `….key.classname` the class it names instead. */
  cases: { types: readonly string[]; key: string; className?: string }[];
  /** Every row of the table has a soft type of the only case: its soft type need not be asked. */
  whole: boolean;
  /**
   * No soft type of the table maps the column (no cases): like Windchill's column where no type
   * keeps an attribute, it reads as null; this says so, for the template's warnings.
   */
  unmapped?: string;
}

/**
 * A resolved reference: the column or JSON key holding the target's id, or its OID as text, or
 * as a class column and an id column (`OR:<class>:<id>`).
 */
export interface ReferenceDef {
  name: string;
  target: string;
  from:
    | { at: ColumnRef }
    | { json: { at: ColumnRef; key: string } }
    | { oidJson: { at: ColumnRef; key: string } }
    | { oidColumns: { cls: ColumnRef; id: ColumnRef } }
    /** A soft type's attribute in a `ptc_ref_<n>` typeInfo column (templates only, never a class's). */
    | { typeInfo: TypeInfoDef };
}

/** Whether a reference keeps the target's OID (and so may point to a class spanning several storages). */
export function keepsOid(ref: ReferenceDef): boolean {
  return 'oidJson' in ref.from || 'oidColumns' in ref.from;
}

export interface CatalogClass {
  name: string;
  parent: string | null;
  abstract: boolean;
  /** null: an abstract class above several storage kinds (only an OID-kept reference may target it). */
  storage: StorageKind | null;
  master: string | null;
  displayName: string;
  about: string;
  /** Own and inherited, in declaration order (own first). */
  properties: ReadonlyMap<string, PropertyDef>;
  derived: ReadonlyMap<string, PropertyDef>;
  references: ReadonlyMap<string, ReferenceDef>;
  roles: { a: string; b: string } | null;
  /** Own and inherited names of property paths (ClassSpec.paths). */
  paths: ReadonlyMap<string, string>;
  /**
   * This class and every class below it; for an interface, every interface extending it and
   * every class implementing one of them, with the classes below those.
   */
  descendants: readonly string[];
  /** The values of the class column its rows have (master storage: the versioned classes). */
  classValues: readonly string[];
  /** Declared by a user (the dataset's `types`). */
  userDeclared: boolean;
  /** An interface (abstract; its storage is its classes' when they share one, else null). */
  interface: boolean;
  /** The interfaces a class implements, its ancestors' and those they extend; an interface's: those it extends. */
  interfaces: readonly string[];
  /** What an interface declares every implementing class has (null for a class). */
  declared: {
    properties: ReadonlyMap<string, DeclaredProperty>;
    derived: ReadonlyMap<string, DeclaredProperty>;
    references: ReadonlyMap<string, DeclaredReference>;
  } | null;
}

export interface CatalogSoftType {
  name: string;
  parent: string;
  /** The class it is a type of. */
  cls: string;
  displayName: string;
  about: string;
  attributes: ReadonlyMap<string, AttributeSpec>;
  /** This soft type and every soft type below it. */
  descendants: readonly string[];
  userDeclared: boolean;
}

/** One problem of a catalog: where (file and JSON path) and what. */
export interface CatalogProblem {
  where: string;
  message: string;
}

/** A catalog that does not hold together: every problem found, not only the first. */
export class CatalogError extends Error {
  constructor(readonly problems: CatalogProblem[]) {
    super(
      `the type catalog has ${problems.length} problem(s):\n` +
        problems.map((p) => `  ${p.where}: ${p.message}`).join('\n'),
    );
    this.name = 'CatalogError';
  }
}
