import type { JoinDecl, Operand, TableDecl } from './ast.js';
import { OBJECT_ITSELF, type Catalog, type TableType } from '../../catalog/catalog.js';
import { keepsOid, type CatalogClass, type PropertyDef, type ReferenceDef } from '../../catalog/catalog-model.js';
import type { PropertyType } from '../../catalog/catalog-model.js';
import { STORAGES } from '../../catalog/storage.js';
import { QmlLimitError } from '../qml-error.js';
import { fail } from '../parse/element-rules.js';
import { MAX_PATH_HOPS } from '../qml-limits.js';
import { relatedClasses } from './validate-joins.js';

type Prop = Extract<Operand, { k: 'prop' }>;

/**
 * What a path is read against: a table's class, or each class of a union (an interface, or an
 * abstract class above several storages), whose definitions may differ.
 */
interface Scope {
  cls: CatalogClass;
  types: TableType[];
  union: boolean;
}

/** One reference a path goes through: its name, the rest of the path, its target. */
interface Step {
  name: string;
  rest: string;
  target: CatalogClass;
  /** The reference of each class of the scope. */
  defs: ReferenceDef[];
}

/** A use of a union's paths: the definition in each of its classes, and who takes each arm's. */
interface Use {
  defs: (PropertyDef | ReferenceDef)[];
  sink: (arms: (PropertyDef | ReferenceDef)[]) => void;
}

/** At most this many class names in a message. */
const NAMES_SHOWN = 6;
const names = (list: readonly string[]) =>
  list.slice(0, NAMES_SHOWN).join(', ') + (list.length > NAMES_SHOWN ? ` and ${list.length - NAMES_SHOWN} more` : '');

/**
 * Property paths of the validator (validate.ts). A path names a property of its table's
 * class, or goes through a reference of it to a property of the target (`iterationInfo.creator.name`,
 * `ownership.owner.fullName`, `master>name`), hop by hop up to MAX_PATH_HOPS: each target is
 * a table of the template no `from` names (TableDecl.via), one per table and reference. A table
 * of an interface or of an abstract class above several storages is a union: a path reads the
 * property every class of it has, wherever each keeps it, and finish() groups the classes into
 * arms that keep the template's paths alike.
 */
export class PropertyPaths {
  private readonly hidden = new Map<string, number>();
  private readonly unions = new Map<TableDecl, { types: TableType[]; uses: Use[] }>();

  constructor(
    private readonly catalog: Catalog,
    private readonly tables: TableDecl[],
    private readonly maxTables: number,
    /** Told what a path reads that holds nothing (a typeInfo column no soft type maps). */
    private readonly warn: (path: string, message: string) => void = () => {},
  ) {}

  /** A table `from` names (`text` is its class), not yet added to the tables; or why it names nothing. */
  table(text: string, alias: string, path: string): TableDecl | string {
    const t = text.trim();
    // `WCTYPE|<class>` without a soft type is the class.
    const named = this.catalog.findClass(t.startsWith('WCTYPE|') && !t.slice(7).includes('|') ? t.slice(7) : t);
    if (named && (named.interface || !named.storage)) return this.unionTable(named, alias, path, null);
    const found = this.catalog.resolveTable(text);
    if (typeof found === 'string') return found;
    if (found.cls.interface) {
      // A soft type of an interface: the rows of that soft type, which has a class of its own.
      const st = found.softTypes && this.catalog.findSoftType(found.softTypes[0]);
      if (!st)
        return `soft type ${found.softTypes?.[0]} of interface ${found.cls.name} is not declared: name its class`;
      const cls = this.catalog.findClass(st.cls)!;
      return this.plain(alias, { ...found, cls }, path, null);
    }
    return this.plain(alias, found, path, null);
  }

  /** The operand a `column` (a property path) or an `object` (a derived property) names. */
  operand(table: number, path: string, kind: 'column' | 'object', hint: PropertyType | null, at: string): Prop {
    const start = this.scope(table);
    const steps: Step[] = [];
    let scope = start;
    let rest = path;
    let renamed = 0;
    for (;;) {
      const named = this.named(scope, rest);
      if (named !== null && renamed++ < MAX_PATH_HOPS) {
        rest = named;
        continue;
      }
      const defs = this.resolve(scope, rest, kind, hint);
      if (typeof defs !== 'string') return this.materialize(table, steps, defs, at);
      const step = this.step(scope, rest);
      if (step === null) {
        const through = steps.map((s) => s.name).join(', ');
        return fail(at, steps.length ? `${defs} (in "${path}" of ${start.cls.name}, through ${through})` : defs);
      }
      if (typeof step === 'string') return fail(at, step);
      if (steps.length === MAX_PATH_HOPS) {
        fail(at, `the path "${path}" of ${start.cls.name} goes through more than ${MAX_PATH_HOPS} references`);
      }
      steps.push(step);
      const next = this.classScope(step.target);
      if (typeof next === 'string')
        return fail(at, `${next} (reference ${step.name} of ${scope.cls.name}, in "${path}")`);
      scope = next;
      rest = step.rest;
    }
  }

  /**
   * The path a class's name for one stands for (CatalogClass.paths: `productNumber` is
   * `partReference.number`), with what follows it; null when `rest` starts with none.
   */
  private named(scope: Scope, rest: string): string | null {
    if (scope.union) return null;
    const head = rest.split('.', 1)[0];
    const to = scope.cls.paths.get(rest) ?? scope.cls.paths.get(head);
    if (to === undefined) return null;
    return scope.cls.paths.has(rest) ? to : `${to}${rest.slice(head.length)}`;
  }

  /** Whether a table is a union (its references are each class's: see referenceJoin). */
  isUnion(table: number): boolean {
    return this.unions.has(this.tables[table]);
  }

  /** `referenceJoin` from a union: the reference each of its classes has, to table `to`. */
  referenceJoin(name: string, from: number, to: number, path: string): JoinDecl {
    const source = this.scope(from);
    const step = this.step(source, name);
    if (step === null || typeof step === 'string' || step.rest !== '') {
      return fail(
        `${path}/@name`,
        typeof step === 'string' ? step : `unknown reference "${name}" of ${source.cls.name}`,
      );
    }
    const target = this.tables[to].cls;
    const related = relatedClasses(this.catalog, target.name, step.target.name);
    const byOid = keepsOid(step.defs[0]);
    if (!related || (!byOid && step.target.storage !== target.storage)) {
      fail(
        path,
        `reference "${name}" of ${source.cls.name} cannot point to ${target.name} (it points to ${step.target.name})`,
      );
    }
    const join: Extract<JoinDecl, { k: 'reference' }> = { k: 'reference', ref: step.defs[0], from, to, path };
    this.use(from, step.defs, (arms) => {
      join.ref = arms[0] as ReferenceDef;
      join.arms = arms as ReferenceDef[];
    });
    return join;
  }

  /**
   * Once every path is read: each union's classes grouped into arms, one per storage and way of
   * keeping what the template reads, and each use given the definition of each arm.
   */
  finish(): void {
    for (const [decl, u] of this.unions) {
      const groups: { key: string; members: number[] }[] = [];
      u.types.forEach((t, i) => {
        const key = [t.storage.kind, ...u.uses.map((use) => defKey(use.defs[i]))].join('\n');
        const group = groups.find((g) => g.key === key);
        if (group) group.members.push(i);
        else groups.push({ key, members: [i] });
      });
      const arms = groups.map((g) => {
        const classes = g.members.map((i) => u.types[i].cls);
        return { storage: u.types[g.members[0]].storage, cls: classes[0], classValues: this.classValues(classes) };
      });
      decl.union = { arms };
      decl.type = { ...decl.type, storage: arms[0].storage };
      for (const use of u.uses) use.sink(groups.map((g) => use.defs[g.members[0]]));
    }
  }

  private plain(alias: string, type: TableType, path: string, via: TableDecl['via']): TableDecl {
    return { alias, cls: type.cls, type, outerJoinTo: null, path, via, union: null };
  }

  private unionTable(cls: CatalogClass, alias: string, path: string, via: TableDecl['via']): TableDecl | string {
    const types = this.classTypes(cls);
    if (typeof types === 'string') return types;
    const decl: TableDecl = {
      alias,
      cls,
      type: { cls, storage: types[0].storage, softTypes: null, warning: null },
      outerJoinTo: null,
      path,
      via,
      union: { arms: [] },
    };
    this.unions.set(decl, { types, uses: [] });
    return decl;
  }

  /** The table type of each class with objects below `cls` (its implementing classes for an interface). */
  private classTypes(cls: CatalogClass): TableType[] | string {
    // A class over a join-only storage (a master and its iterations) has no rows to match.
    const classes = this.catalog
      .concreteBelow(cls.name)
      .map((n) => this.catalog.findClass(n)!)
      .filter((c) => !STORAGES[c.storage!].joinOnly);
    if (classes.length === 0) {
      return `${cls.name} has no class with objects (${cls.interface ? 'no class implements it' : 'every class below it is abstract'})`;
    }
    return classes.map((c) => ({ cls: c, storage: STORAGES[c.storage!], softTypes: null, warning: null }));
  }

  private scope(table: number): Scope {
    const decl = this.tables[table];
    const u = this.unions.get(decl);
    return { cls: decl.cls, types: u ? u.types : [decl.type], union: u !== undefined };
  }

  private classScope(cls: CatalogClass): Scope | string {
    if (!cls.interface && cls.storage) {
      return { cls, types: [{ cls, storage: STORAGES[cls.storage], softTypes: null, warning: null }], union: false };
    }
    const types = this.classTypes(cls);
    return typeof types === 'string' ? types : { cls, types, union: true };
  }

  /** The property `rest` names in each class of the scope, or why it names none. */
  private resolve(
    scope: Scope,
    rest: string,
    kind: 'column' | 'object',
    hint: PropertyType | null,
  ): PropertyDef[] | string {
    const defs: PropertyDef[] = [];
    const lacking: string[] = [];
    let why = '';
    for (const t of scope.types) {
      const found =
        rest === ''
          ? OBJECT_ITSELF
          : kind === 'column'
            ? this.catalog.resolveProperty(t, rest, hint)
            : this.catalog.resolveDerived(t, rest);
      if (typeof found === 'string') {
        lacking.push(t.cls.name);
        why ||= found;
      } else defs.push(found);
    }
    if (!scope.union) return lacking.length ? why : defs;
    const what = kind === 'column' ? 'property' : 'derived property';
    if (defs.length === 0) return `unknown ${what} "${rest}" of ${scope.cls.name} (none of its classes has it)`;
    if (lacking.length) {
      return `${what} "${rest}" of ${scope.cls.name}: its classes ${names(lacking)} have no such ${what} (every class it matches must)`;
    }
    const types = [...new Set(defs.map((d) => d.type))];
    if (types.length > 1)
      return `${what} "${rest}" of ${scope.cls.name} has a different type in its classes (${types.join(', ')})`;
    return defs;
  }

  /**
   * The reference `rest` goes through: the longest reference name it starts with (followed by
   * `.` or ending there; `master>` is `masterReference.`, `x.` is `xReference.`), which every class of the scope has,
   * to the same target and kept alike (an id, or an OID). Null when it starts with none.
   */
  private step(scope: Scope, rest: string): Step | string | null {
    const refNames = new Set(scope.types.flatMap((t) => [...t.cls.references.keys()]));
    let name = [...refNames]
      .filter((n) => rest === n || rest.startsWith(`${n}.`))
      .reduce<string | null>((a, b) => (a !== null && a.length >= b.length ? a : b), null);
    let after = name === null ? '' : rest.slice(name.length + 1);
    if (name === null && rest.startsWith('master>') && refNames.has('masterReference')) {
      name = 'masterReference';
      after = rest.slice('master>'.length);
    }
    if (name === null) {
      // Windchill's getter of a reference `xReference` is `x` (`effContext`, `container`): the same path.
      const head = rest.split('.', 1)[0];
      if (refNames.has(`${head}Reference`)) {
        name = `${head}Reference`;
        after = rest.slice(head.length + 1);
      }
    }
    if (name === null) return null;
    const defs: ReferenceDef[] = [];
    const lacking: string[] = [];
    for (const t of scope.types) {
      const r = t.cls.references.get(name);
      if (r) defs.push(r);
      else lacking.push(t.cls.name);
    }
    if (lacking.length) {
      return `reference "${name}" of ${scope.cls.name}: its classes ${names(lacking)} have no such reference (every class it matches must)`;
    }
    const targets = [...new Set(defs.map((d) => d.target))];
    if (targets.length > 1) {
      return `reference "${name}" of ${scope.cls.name} points to different classes in its classes (${names(targets)})`;
    }
    if (new Set(defs.map(keepsOid)).size > 1) {
      return `reference "${name}" of ${scope.cls.name} keeps an id in some of its classes and an OID in others`;
    }
    // A versioned class's master is its master class (a part's: WTPartMaster), with its properties.
    const master = name === 'masterReference' && !scope.union ? scope.cls.master : null;
    const target = this.catalog.findClass(master ?? targets[0])!;
    return { name, rest: after, target, defs };
  }

  /** The tables of the steps (made once per table and reference), then the operand. */
  private materialize(table: number, steps: Step[], defs: PropertyDef[], at: string): Prop {
    let from = table;
    for (const step of steps) from = this.target(from, step, at);
    for (const d of defs) if ('typeInfo' in d && d.typeInfo.unmapped) this.warn(at, d.typeInfo.unmapped);
    const op: Prop = { k: 'prop', table: from, prop: defs[0], path: at };
    this.use(from, defs, (arms) => {
      op.prop = arms[0] as PropertyDef;
      op.arms = arms as PropertyDef[];
    });
    return op;
  }

  /** The table a reference of table `from` reaches, LEFT-joined to it. */
  private target(from: number, step: Step, at: string): number {
    const key = `${from}\n${step.name}`;
    const known = this.hidden.get(key);
    if (known !== undefined) return known;
    if (this.tables.length >= this.maxTables) {
      throw new QmlLimitError(
        at,
        `the tables and the references property paths go through make more than ${this.maxTables} tables (the limit)`,
        'maxTables',
      );
    }
    const alias = `${this.tables[from].alias}.${step.name}`;
    const via: NonNullable<TableDecl['via']> = { from, ref: step.defs[0] };
    const t = step.target;
    const decl =
      t.interface || !t.storage
        ? (this.unionTable(t, alias, at, via) as TableDecl)
        : this.plain(alias, { cls: t, storage: STORAGES[t.storage], softTypes: null, warning: null }, at, via);
    this.use(from, step.defs, (arms) => {
      via.ref = arms[0] as ReferenceDef;
      via.arms = arms as ReferenceDef[];
    });
    this.tables.push(decl);
    this.hidden.set(key, this.tables.length - 1);
    return this.tables.length - 1;
  }

  /** Records what a union reads (nothing to do for other tables). */
  private use(table: number, defs: Use['defs'], sink: Use['sink']): void {
    this.unions.get(this.tables[table])?.uses.push({ defs, sink });
  }

  /** The values of the class column the rows of these classes have (a master's: its versioned classes). */
  private classValues(classes: CatalogClass[]): string[] {
    const values = new Set<string>();
    for (const c of classes) {
      if (c.storage !== 'master') values.add(c.name);
      else for (const v of this.catalog.listClasses()) if (v.master === c.name && !v.abstract) values.add(v.name);
    }
    return [...values];
  }
}

/** What makes two definitions read alike (where the value is kept, not what it is called). */
function defKey(d: PropertyDef | ReferenceDef): string {
  if ('from' in d) return JSON.stringify(d.from);
  const { about: _about, ...rest } = d;
  return JSON.stringify(rest);
}
