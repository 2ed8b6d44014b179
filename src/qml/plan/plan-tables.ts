import type { QmlTemplate } from '../validate/ast.js';
import type { Storage } from '../../catalog/storage.js';
import type { PlannedTable, SqlExpr } from './plan-types.js';

/**
 * The planned tables of a template, one per TableDecl and at the same index: the tables `from`
 * names are t1, t2 …; a table a property path reaches is named after the table it hangs off
 * (t1p1, its own t1p1p1 …) and listed in that table's `paths`; a union of one arm is a table of
 * that arm, of several a subquery whose arms are t1a1, t1a2 ….
 */
export function plannedTables(t: QmlTemplate): PlannedTable[] {
  const out: PlannedTable[] = [];
  const pathCount = new Map<number, number>();
  t.tables.forEach((decl, i) => {
    let alias = `t${i + 1}`;
    if (decl.via) {
      const n = (pathCount.get(decl.via.from) ?? 0) + 1;
      pathCount.set(decl.via.from, n);
      alias = `${out[decl.via.from].alias}p${n}`;
    }
    const arms = decl.union?.arms ?? [];
    let tb: PlannedTable;
    if (arms.length === 0) tb = table(alias, decl.type.storage, decl.cls.name, decl.cls.classValues, [decl.cls.name]);
    else if (arms.length === 1) tb = armTable(alias, arms[0]);
    else {
      tb = table(alias, arms[0].storage, decl.cls.name, [], []);
      const planned = arms.map((a, k) => armTable(`${alias}a${k + 1}`, a));
      tb.union = {
        arms: planned,
        joined: decl.via !== null,
        columns: [
          { name: 'id', exprs: planned.map((a): SqlExpr => ({ k: 'col', alias: a.alias, column: 'id' })) },
          { name: 'u', exprs: planned.map((_, k): SqlExpr => ({ k: 'val', value: k + 1, type: 'long' })) },
        ],
        byKey: new Map(),
      };
    }
    out.push(tb);
    if (decl.via) out[decl.via.from].paths.push({ table: tb, on: [] });
  });
  return out;
}

function table(
  alias: string,
  storage: Storage,
  cls: string,
  classValues: readonly string[],
  labelClasses: readonly string[],
): PlannedTable {
  return {
    alias,
    storage,
    cls,
    classValues,
    labelClasses,
    aux: new Set(),
    filters: [],
    outer: null,
    paths: [],
    union: null,
  };
}

function armTable(alias: string, arm: NonNullable<QmlTemplate['tables'][number]['union']>['arms'][number]) {
  return table(alias, arm.storage, arm.cls.name, arm.classValues, [arm.cls.name, ...arm.classValues]);
}

/**
 * The column of a union's subquery that gives `key` (the same key, the same column): made on
 * first use from each arm's expression. Of a union a path reaches: the value of the one arm
 * that matched (whose id is not null), null where none did.
 */
export function unionColumn(
  tb: PlannedTable,
  key: string,
  expr: (arm: PlannedTable, index: number) => SqlExpr,
): SqlExpr {
  const u = tb.union!;
  if (u.joined) {
    const args = u.arms.flatMap((arm, k): SqlExpr[] => [{ k: 'col', alias: arm.alias, column: 'id' }, expr(arm, k)]);
    return { k: 'call', fn: 'ARM_VALUE', args };
  }
  let name = u.byKey.get(key);
  if (name === undefined) {
    name = `v${u.columns.length - 1}`;
    u.byKey.set(key, name);
    u.columns.push({ name, exprs: u.arms.map(expr) });
  }
  return { k: 'col', alias: tb.alias, column: name };
}
