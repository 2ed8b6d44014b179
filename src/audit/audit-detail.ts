/**
 * Keeps the `detail` of audit events small: texts are clipped and only so many names of a
 * change are kept (with how many more there were), so an event stays a few hundred bytes
 * whatever the request carried.
 */

/** Longest text kept of one value. */
export const DETAIL_TEXT_MAX = 200;
/** Most names of one change kept. */
export const DETAIL_NAMES_MAX = 50;

export type DetailValue = string | number | boolean | null;

/** A value as an event keeps it: texts past DETAIL_TEXT_MAX clipped with an ellipsis. */
export function small(value: unknown): DetailValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.length > DETAIL_TEXT_MAX ? `${value.slice(0, DETAIL_TEXT_MAX)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return small(JSON.stringify(value));
}

/**
 * A change of named values (custom attributes): `{ attributes: { before, after } }` for the
 * names the change gives (null: absent or removed), at most DETAIL_NAMES_MAX of them and
 * `more` counting the rest.
 */
export function attributeChange(
  stored: unknown,
  change: Readonly<Record<string, unknown>>,
): { attributes: { before: Record<string, DetailValue>; after: Record<string, DetailValue>; more?: number } } {
  const old = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const names = Object.keys(change).sort();
  const kept = names.slice(0, DETAIL_NAMES_MAX);
  // fromEntries: a name such as __proto__ stays a key of its own.
  const before = Object.fromEntries(kept.map((n) => [n, small(Object.hasOwn(old, n) ? old[n] : null)]));
  const after = Object.fromEntries(kept.map((n) => [n, small(change[n])]));
  const more = names.length - kept.length;
  return { attributes: { before, after, ...(more > 0 && { more }) } };
}
