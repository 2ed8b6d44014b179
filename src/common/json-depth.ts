/**
 * JSON bodies may nest at most this deep. The parser itself copes with any depth, but
 * everything after it (class-transformer in the validation pipe, JSON.stringify in messages)
 * recurses, and a body of a few thousand `[` would otherwise overflow the stack: a 500.
 * Real request bodies of these services nest less than ten levels.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether arrays and objects in `value` nest deeper than `max`, checked without recursion. */
export function jsonDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
