/**
 * The lifecycle of documents, parts and CAD documents: which state may follow which. Configured
 * by OBJECTS_LIFECYCLE, a JSON object of state → the states it may go to; the first state is the
 * one new objects and new revisions start in. Checked at start-up (every problem listed).
 */
export interface Lifecycle {
  /** Where new objects and new revisions start. */
  initial: string;
  /** Every state, in the order configured, with the states it may go to. */
  transitions: ReadonlyMap<string, readonly string[]>;
}

export const DEFAULT_LIFECYCLE_JSON = JSON.stringify({
  INWORK: ['UNDERREVIEW'],
  UNDERREVIEW: ['RELEASED', 'INWORK'],
  RELEASED: ['OBSOLETE'],
  OBSOLETE: [],
});

/** State names: upper-case letters, digits and _, starting with a letter, at most 64 characters. */
export const STATE_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/** Reads OBJECTS_LIFECYCLE; throws an Error naming every problem. */
export function parseLifecycle(raw: string): Lifecycle {
  let table: unknown;
  try {
    table = JSON.parse(raw);
  } catch {
    throw new Error('is not JSON: give an object of state → the states it may go to');
  }
  if (table === null || typeof table !== 'object' || Array.isArray(table)) {
    throw new Error(
      'must be a JSON object of state → the states it may go to, e.g. {"INWORK":["RELEASED"],"RELEASED":[]}',
    );
  }
  const entries = Object.entries(table as Record<string, unknown>);
  if (entries.length === 0) throw new Error('names no state: the first state is where new objects start');
  const states = new Set(entries.map(([s]) => s));
  const problems: string[] = [];
  const transitions = new Map<string, readonly string[]>();
  for (const [from, to] of entries) {
    if (!STATE_NAME.test(from)) problems.push(`"${from}" is not a state name (A-Z, 0-9, _, starting with a letter)`);
    if (!Array.isArray(to) || !to.every((s) => typeof s === 'string')) {
      problems.push(`${from}: must be a list of states`);
      continue;
    }
    const targets = to as string[];
    for (const [i, s] of targets.entries()) {
      if (!states.has(s)) problems.push(`${from}: "${s}" is not one of the states (${[...states].join(', ')})`);
      else if (s === from) problems.push(`${from}: a state cannot go to itself`);
      else if (targets.indexOf(s) !== i) problems.push(`${from}: "${s}" is listed twice`);
    }
    transitions.set(from, targets);
  }
  if (problems.length) throw new Error(problems.join('; '));
  return { initial: entries[0][0], transitions };
}

/**
 * OBJECTS_RELEASED_STATES: comma-separated state names (none: empty). Their objects are released:
 * they get no new iteration, only a new revision. Checked against the lifecycle at start-up.
 */
export function parseStateList(raw: string): ReadonlySet<string> {
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = names.filter((s) => !STATE_NAME.test(s));
  if (bad.length) throw new Error(`${bad.map((s) => `"${s}"`).join(', ')}: not state names (A-Z, 0-9, _)`);
  return new Set(names);
}

/** Why `from` may not go to `to`, or null when it may. */
export function transitionProblem(lifecycle: Lifecycle, from: string, to: string): string | null {
  const allowed = lifecycle.transitions.get(from);
  if (allowed === undefined) {
    return `state ${from} is not in the lifecycle (${[...lifecycle.transitions.keys()].join(', ')}): no transition leaves it`;
  }
  if (allowed.includes(to)) return null;
  const next = allowed.length ? `from ${from} the lifecycle allows ${allowed.join(', ')}` : `${from} is a final state`;
  return `cannot go from ${from} to ${to}: ${next}`;
}
