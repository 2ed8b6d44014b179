import type { Condition, Operand, QmlTemplate } from '../validate/ast.js';
import type { PropertyDef } from '../../catalog/catalog-model.js';
import type { SqlCond, SqlExpr } from './plan-types.js';

/**
 * Working copies of check-outs in reports (docs/reports.md, "Check-out and working copies").
 * While an object is checked out, everybody, its holder too, reads its latest checked-in
 * iteration; the working copy is the holder's draft, not one of the object's iterations. So a
 * table of iterations has no working copies among its rows, and a table of rows kept on an
 * iteration (files, usage links) none of a working copy's, unless the template asks for them: a
 * condition of its `where` on the table's `checkoutInfo.state` (such as `= 'wrk'`) makes the
 * table give the working copies the caller holds, never another user's (the objects service
 * answers another's 404), and the condition decides which of them are rows.
 */

/** The tables (their indexes) whose `checkoutInfo.state` a condition of the template's `where` tests. */
export function tablesAskingForWorkingCopies(t: QmlTemplate): Set<number> {
  const out = new Set<number>();
  const isState = (p: PropertyDef) => 'computed' in p && p.computed === 'checkoutState';
  const operand = (o: Operand): void => {
    if (o.k === 'prop' && (isState(o.prop) || (o.arms ?? []).some(isState))) out.add(o.table);
    else if (o.k === 'fn') o.args.forEach(operand);
  };
  const walk = (c: Condition): void => {
    switch (c.k) {
      case 'and':
      case 'or':
        c.parts.forEach(walk);
        break;
      case 'cmp':
        operand(c.left);
        operand(c.right);
        break;
      default:
        operand(c.operand);
    }
  };
  if (t.where) walk(t.where);
  return out;
}

/**
 * Whether a condition of WHERE keeps only latest iterations of table `alias` (`latest = true`):
 * a working copy is never latest (the check-out makes it with latest false, the check-in sets
 * both flags at once), so its working filter would repeat the condition and cost a look at each
 * row where an index of latest iterations alone would do. `isTrue` tells whether a bound value
 * is true (of a request's value, a shape question: the SQL text depends on it).
 */
export function keepsOnlyLatest(c: SqlCond, alias: string, isTrue: (e: SqlExpr) => boolean): boolean {
  if (c.k === 'and') return c.parts.some((p) => keepsOnlyLatest(p, alias, isTrue));
  if (c.k !== 'cmp' || c.op !== '=') return false;
  const latest = (e: SqlExpr) => e.k === 'col' && e.alias === alias && e.column === 'latest';
  return (latest(c.left) && isTrue(c.right)) || (latest(c.right) && isTrue(c.left));
}
