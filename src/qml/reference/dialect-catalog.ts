import type { Catalog } from '../../catalog/catalog.js';
import { standardCatalog } from '../../catalog/catalog-load.js';
import type { PropertyDef } from '../../catalog/catalog-model.js';
import { STORAGES } from '../../catalog/storage.js';
import type { ValueType } from '../qml-types.js';

/**
 * The classes of the dialect with their properties and references, as plain data: the input of
 * the generated reference (reference.ts), built from the type catalog.
 */
export interface DialectCatalog {
  classes: CatalogClass[];
  links: CatalogLink[];
  interfaces: CatalogInterface[];
}

/** An interface: the classes with objects that implement it, and what it declares they have. */
export interface CatalogInterface {
  name: string;
  about: string;
  classes: string[];
  properties: CatalogProperty[];
  derived: CatalogProperty[];
  references: { name: string; targets: string[] }[];
}

export interface CatalogClass {
  name: string;
  about: string;
  /** The storage kind (iteration, master, object, link …). */
  storage: string;
  /** Column properties (`column` text), in catalog order. */
  properties: CatalogProperty[];
  /** Derived properties (`object propertyName` or a `property` chain); any property path works there too. */
  derived: CatalogProperty[];
  /** Whether `WCTYPE|<class>~IBA|<name>` custom attributes can be read. */
  customAttributes: boolean;
  references: { name: string; targets: string[] }[];
}

export interface CatalogProperty {
  path: string;
  type: ValueType;
  about?: string;
}

export interface CatalogLink {
  name: string;
  roleA: string[];
  roleB: string[];
}

/** The classes, properties, references and link classes of a catalog (the standard one by default). */
export function dialectCatalog(catalog: Catalog = standardCatalog()): DialectCatalog {
  const classes = catalog.listClasses().filter((c) => c.storage !== null && !c.interface);
  const below = (name: string) => [...(catalog.findClass(name)?.descendants ?? [name])];
  const prop = ([path, def]: [string, PropertyDef]): CatalogProperty => ({
    path,
    type: def.type,
    ...(def.about && { about: def.about }),
  });
  // A link that is no table (master-iteration associations) has nothing a template reads.
  const table = (c: (typeof classes)[number]) => !STORAGES[c.storage!].joinOnly;
  return {
    classes: classes.map((c) => ({
      name: c.name,
      about: c.about || c.displayName,
      storage: c.storage!,
      properties: table(c) ? [...c.properties].map(prop) : [],
      derived: table(c) ? [...c.derived].map(prop) : [],
      customAttributes:
        c.storage !== null && ['iteration', 'master', 'object', 'link', 'user', 'container'].includes(c.storage),
      references: table(c) ? [...c.references.values()].map((r) => ({ name: r.name, targets: below(r.target) })) : [],
    })),
    links: classes
      .filter((c) => c.roles && !c.abstract)
      .map((c) => ({ name: c.name, roleA: below(c.roles!.a), roleB: below(c.roles!.b) })),
    interfaces: catalog
      .listClasses()
      .filter((c) => c.interface)
      .map((c) => ({
        name: c.name,
        about: c.about || c.displayName,
        classes: [...catalog.concreteBelow(c.name)],
        properties: [...c.declared!.properties].map(([path, p]) => ({ path, ...p })),
        derived: [...c.declared!.derived].map(([path, p]) => ({ path, ...p })),
        references: [...c.declared!.references].map(([name, r]) => ({ name, targets: below(r.target) })),
      })),
  };
}
