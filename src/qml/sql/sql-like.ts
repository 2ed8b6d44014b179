import { likePrefixRange } from '../../common/wildcard.js';
import type { Plan, SqlCond } from '../plan/plan-types.js';

type LikeCond = Extract<SqlCond, { k: 'like' }>;

/**
 * The byte range a column matched by LIKE lies in, from the pattern's literal prefix, rendered
 * beside the LIKE: PostgreSQL turns a known pattern's prefix into an index range itself, but only
 * when it plans for the value; with the range as conditions of their own, a plan made once for
 * every value (a prepared statement's generic plan) uses the index as well.
 */
export function likeRange(c: LikeCond): { lo: string; hi: string } | null {
  if (c.not || c.left.k !== 'col' || c.right.k !== 'val' || typeof c.right.value !== 'string') return null;
  return likePrefixRange(c.right.value);
}

/**
 * Whether a plan made once for every value serves this query as well as one made for its values:
 * not when a LIKE has a literal prefix that got no range (see likeRange), which only a plan for
 * the value could turn into an index range.
 */
export function genericPlanFits(plan: Plan): boolean {
  const fits = (c: SqlCond): boolean => {
    if (c.k === 'and' || c.k === 'or') return c.parts.every(fits);
    if (c.k !== 'like' || c.not || c.left.k !== 'col' || c.right.k !== 'val') return true;
    const pattern = c.right.value;
    return typeof pattern !== 'string' || !prefixed(pattern) || likeRange(c) !== null;
  };
  const outer = plan.from.flatMap((t) => (t.outer ? [...t.outer.on, ...t.filters] : []));
  return [...plan.where, ...outer].every(fits);
}

function prefixed(pattern: string): boolean {
  return pattern !== '' && pattern[0] !== '%' && pattern[0] !== '_';
}

/**
 * What of a LIKE pattern decides the SQL text and genericPlanFits: whether it has a literal
 * prefix, and whether that gives a range (the range's bounds are bound values).
 */
export function likeShape(pattern: string): string {
  return `${prefixed(pattern)}/${likePrefixRange(pattern) !== null}`;
}
