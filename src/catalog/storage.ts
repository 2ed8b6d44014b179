import { MASTER_SUFFIX } from './standard-classes.js';

/**
 * The storage kinds of the catalog: which table holds the objects of a class, its columns, the
 * helper joins reachable from it, where its class, soft type, custom attributes and container
 * are kept, and how its OID is formed. This whitelist is the only source of SQL identifiers of
 * the compilers: the catalog files name storage kinds and columns, and are checked against it.
 */

/** Value types a column or a JSON key can hold (the dialect's value types without `oid`). */
export type ColumnType = 'string' | 'long' | 'double' | 'boolean' | 'timestamp' | 'json';

export type StorageKind =
  | 'iteration'
  | 'master'
  | 'usageLink'
  | 'content'
  | 'holderToContent'
  | 'masterIteration'
  | 'container'
  | 'user'
  | 'template'
  | 'object'
  | 'link'
  | 'audit';

export const STORAGE_KINDS: readonly StorageKind[] = [
  'iteration',
  'master',
  'usageLink',
  'content',
  'holderToContent',
  'masterIteration',
  'container',
  'user',
  'template',
  'object',
  'link',
  'audit',
];

/** A table joined to a FROM entry on demand; `self` is the entry itself. */
export type Aux = 'self' | 'master' | 'container' | 'creator' | 'modifier';
export const AUX_NAMES: readonly Aux[] = ['self', 'master', 'container', 'creator', 'modifier'];

/** The columns of each table a storage kind reads, with their types. */
export const TABLE_COLUMNS: Readonly<Record<string, Readonly<Record<string, ColumnType>>>> = {
  iterations: {
    id: 'long',
    master_id: 'long',
    version: 'string',
    iteration: 'long',
    latest: 'boolean',
    working: 'boolean',
    state: 'string',
    title: 'string',
    description: 'string',
    attributes: 'json',
    created_by: 'long',
    modified_by: 'long',
    created_at: 'timestamp',
    modified_at: 'timestamp',
  },
  masters: {
    id: 'long',
    class: 'string',
    subtype: 'string',
    soft_type: 'string',
    number: 'string',
    name: 'string',
    container_id: 'long',
    attributes: 'json',
    created_at: 'timestamp',
    modified_at: 'timestamp',
    checked_out_by: 'long',
    checked_out_at: 'timestamp',
  },
  usage_links: {
    id: 'long',
    class: 'string',
    parent_id: 'long',
    child_id: 'long',
    quantity: 'double',
    unit: 'string',
    line_number: 'long',
    created_at: 'timestamp',
    modified_at: 'timestamp',
  },
  content_items: {
    id: 'long',
    iteration_id: 'long',
    role: 'string',
    file_name: 'string',
    mime_type: 'string',
    size: 'long',
    message: 'string',
    created_at: 'timestamp',
    modified_at: 'timestamp',
  },
  containers: {
    id: 'long',
    class: 'string',
    name: 'string',
    description: 'string',
    created_at: 'timestamp',
    attributes: 'json',
  },
  users: {
    id: 'long',
    name: 'string',
    full_name: 'string',
    email: 'string',
    disabled: 'boolean',
    created_at: 'timestamp',
    attributes: 'json',
  },
  report_templates: {
    id: 'long',
    name: 'string',
    container_id: 'long',
    description: 'string',
    created_at: 'timestamp',
    modified_at: 'timestamp',
  },
  objects: {
    id: 'long',
    class: 'string',
    soft_type: 'string',
    number: 'string',
    name: 'string',
    state: 'string',
    container_id: 'long',
    created_by: 'long',
    modified_by: 'long',
    created_at: 'timestamp',
    modified_at: 'timestamp',
    props: 'json',
  },
  links: {
    id: 'long',
    class: 'string',
    soft_type: 'string',
    role_a_id: 'long',
    role_b_id: 'long',
    container_id: 'long',
    created_at: 'timestamp',
    modified_at: 'timestamp',
    props: 'json',
  },
  audit_events: {
    id: 'long',
    at: 'timestamp',
    user_id: 'long',
    user_name: 'string',
    action: 'string',
    object_class: 'string',
    object_id: 'long',
    object_number: 'string',
    container_id: 'long',
  },
};

/** A column of the entry or of one of its helper joins. */
export interface ColumnRef {
  aux: Aux;
  column: string;
}

/** A helper join: `<table> <alias><suffix>` on its id = the `from` column. */
export interface AuxJoin {
  table: string;
  suffix: string;
  from: ColumnRef;
  /** Inner join (the row always exists) or left join (it may not). */
  inner: boolean;
}

export type AccessRule =
  /** readable when the container column is one the caller may read (null: when `nullReadable`) */
  | { k: 'container'; at: ColumnRef; nullReadable: boolean }
  /** readable when its holder iteration is (links and files) */
  | { k: 'holder'; column: string }
  /** every signed-in user reads it */
  | { k: 'all' };

export interface Storage {
  kind: StorageKind;
  table: string;
  aux: Partial<Record<Exclude<Aux, 'self'>, AuxJoin>>;
  /** Where the class name is kept; null when the table holds one class. */
  classColumn: ColumnRef | null;
  softTypeColumn: ColumnRef | null;
  /** JSON columns of `~IBA|` and `~MBA|` attributes and of JSON-kept properties. */
  iba: ColumnRef | null;
  mba: ColumnRef | null;
  access: AccessRule;
  /** `OR:<class>:<id>`: the class from the class column (with a suffix), or the catalog class. */
  oid: { classAt: ColumnRef; suffix: string } | 'catalogClass';
  /**
   * For link storages: the columns of role A and role B, and whether a unique key allows one row
   * per class and pair of ends (then a join through one class can repeat no row). `rowIsB`: the
   * link has no row of its own, its role B row holds role A's id (a file its holder's, an
   * iteration its master's), so a link join is `b.<a> = a.id`.
   */
  roles: { a: string; b: string; unique?: boolean; rowIsB?: boolean } | null;
  /**
   * Set where the link is no table a template can list (Windchill's foreign-key associations,
   * such as masters and their iterations): only `linkJoin` names it; says why.
   */
  joinOnly?: string;
}

const MASTER: AuxJoin = { table: 'masters', suffix: 'm', from: { aux: 'self', column: 'master_id' }, inner: true };
const users = (suffix: string, column: string): AuxJoin => ({
  table: 'users',
  suffix,
  from: { aux: 'self', column },
  inner: false,
});
const container = (aux: Aux): AuxJoin => ({
  table: 'containers',
  suffix: 'c',
  from: { aux, column: 'container_id' },
  inner: false,
});
const self = (column: string): ColumnRef => ({ aux: 'self', column });

export const STORAGES: Readonly<Record<StorageKind, Storage>> = {
  iteration: {
    kind: 'iteration',
    table: 'iterations',
    aux: {
      master: MASTER,
      container: container('master'),
      creator: users('u', 'created_by'),
      modifier: users('v', 'modified_by'),
    },
    classColumn: { aux: 'master', column: 'class' },
    softTypeColumn: { aux: 'master', column: 'soft_type' },
    iba: self('attributes'),
    mba: { aux: 'master', column: 'attributes' },
    access: { k: 'container', at: { aux: 'master', column: 'container_id' }, nullReadable: false },
    oid: { classAt: { aux: 'master', column: 'class' }, suffix: ':' },
    roles: null,
  },
  master: {
    kind: 'master',
    table: 'masters',
    aux: { container: container('self') },
    classColumn: self('class'),
    softTypeColumn: self('soft_type'),
    iba: self('attributes'),
    mba: self('attributes'),
    access: { k: 'container', at: self('container_id'), nullReadable: false },
    oid: { classAt: self('class'), suffix: `${MASTER_SUFFIX}:` },
    roles: null,
  },
  usageLink: {
    kind: 'usageLink',
    table: 'usage_links',
    aux: {},
    classColumn: self('class'),
    softTypeColumn: null,
    iba: null,
    mba: null,
    access: { k: 'holder', column: 'parent_id' },
    oid: { classAt: self('class'), suffix: ':' },
    roles: { a: 'parent_id', b: 'child_id' },
  },
  content: {
    kind: 'content',
    table: 'content_items',
    aux: {},
    classColumn: null,
    softTypeColumn: null,
    iba: null,
    mba: null,
    access: { k: 'holder', column: 'iteration_id' },
    oid: 'catalogClass',
    roles: null,
  },
  holderToContent: {
    kind: 'holderToContent',
    table: 'content_items',
    aux: {},
    classColumn: null,
    softTypeColumn: null,
    iba: null,
    mba: null,
    access: { k: 'holder', column: 'iteration_id' },
    oid: 'catalogClass',
    roles: { a: 'iteration_id', b: 'id', rowIsB: true },
  },
  // Windchill's master-iteration associations (wt.vc.MasterIteration and the classes' own, such as
  // PlantFunctionalDataMasterIteration): the iteration's master reference, no row of its own.
  masterIteration: {
    kind: 'masterIteration',
    table: 'iterations',
    aux: { master: MASTER, container: container('master') },
    classColumn: null,
    softTypeColumn: null,
    iba: null,
    mba: null,
    access: { k: 'container', at: { aux: 'master', column: 'container_id' }, nullReadable: false },
    oid: 'catalogClass',
    roles: { a: 'master_id', b: 'id', rowIsB: true },
    joinOnly: 'it joins a master to its iterations through their master reference and has no rows of its own',
  },
  container: {
    kind: 'container',
    table: 'containers',
    aux: {},
    classColumn: self('class'),
    softTypeColumn: null,
    iba: self('attributes'),
    mba: self('attributes'),
    access: { k: 'container', at: self('id'), nullReadable: false },
    oid: { classAt: self('class'), suffix: ':' },
    roles: null,
  },
  user: {
    kind: 'user',
    table: 'users',
    aux: {},
    classColumn: null,
    softTypeColumn: null,
    iba: self('attributes'),
    mba: self('attributes'),
    access: { k: 'all' },
    oid: 'catalogClass',
    roles: null,
  },
  template: {
    kind: 'template',
    table: 'report_templates',
    aux: { container: container('self') },
    classColumn: null,
    softTypeColumn: null,
    iba: null,
    mba: null,
    access: { k: 'container', at: self('container_id'), nullReadable: false },
    oid: 'catalogClass',
    roles: null,
  },
  object: {
    kind: 'object',
    table: 'objects',
    aux: { container: container('self'), creator: users('u', 'created_by'), modifier: users('v', 'modified_by') },
    classColumn: self('class'),
    softTypeColumn: self('soft_type'),
    iba: self('props'),
    mba: self('props'),
    access: { k: 'container', at: self('container_id'), nullReadable: true },
    oid: { classAt: self('class'), suffix: ':' },
    roles: null,
  },
  link: {
    kind: 'link',
    table: 'links',
    aux: { container: container('self') },
    classColumn: self('class'),
    softTypeColumn: self('soft_type'),
    iba: self('props'),
    mba: self('props'),
    access: { k: 'container', at: self('container_id'), nullReadable: true },
    oid: { classAt: self('class'), suffix: ':' },
    roles: { a: 'role_a_id', b: 'role_b_id', unique: true },
  },
  // The services' audit trail (src/audit): events of objects in containers the caller reads;
  // events without a container (users, content roles) only for administrators.
  audit: {
    kind: 'audit',
    table: 'audit_events',
    aux: { container: container('self'), creator: users('u', 'user_id') },
    classColumn: null,
    softTypeColumn: null,
    iba: null,
    mba: null,
    access: { k: 'container', at: self('container_id'), nullReadable: false },
    oid: 'catalogClass',
    roles: null,
  },
};

/** The table a column reference of a storage reads, or null when the storage has no such join. */
export function tableOf(storage: Storage, aux: Aux): string | null {
  if (aux === 'self') return storage.table;
  return storage.aux[aux]?.table ?? null;
}

/** The type of a column reference, or null when the whitelist does not hold it. */
export function columnType(storage: Storage, ref: ColumnRef): ColumnType | null {
  const table = tableOf(storage, ref.aux);
  if (!table) return null;
  return TABLE_COLUMNS[table]?.[ref.column] ?? null;
}

/** The JSON column a storage keeps further properties in (`props`, `attributes`), if any. */
export function jsonColumn(storage: Storage, aux: Aux): ColumnRef | null {
  if (aux === 'self') return storage.iba && storage.iba.aux === 'self' ? storage.iba : null;
  const table = tableOf(storage, aux);
  if (!table) return null;
  return TABLE_COLUMNS[table].attributes === 'json' ? { aux, column: 'attributes' } : null;
}
