/**
 * The CloudEvents `type` of each audit action: `pdm.` and what happened to what, in the past
 * tense (`objects.state` → `pdm.object.state-changed`). An action not listed here (a later one)
 * gets `pdm.<action>`, so nothing is ever left without a type. docs/events.md lists them all.
 */
export const EVENT_TYPES: Readonly<Record<string, string>> = {
  'objects.create': 'pdm.object.created',
  'objects.update': 'pdm.object.updated',
  'objects.iterate': 'pdm.object.iterated',
  'objects.revise': 'pdm.object.revised',
  'objects.state': 'pdm.object.state-changed',
  'objects.delete': 'pdm.object.deleted',
  'objects.checkout': 'pdm.object.checked-out',
  'objects.checkin': 'pdm.object.checked-in',
  'objects.undo-checkout': 'pdm.object.checkout-undone',
  'objects.break-checkout': 'pdm.object.checkout-broken',
  'objects.links.add': 'pdm.link.added',
  'objects.links.remove': 'pdm.link.removed',
  'objects.uses.add': 'pdm.usage.added',
  'objects.uses.update': 'pdm.usage.updated',
  'objects.uses.remove': 'pdm.usage.removed',
  'files.upload': 'pdm.file.created',
  'files.replace': 'pdm.file.updated',
  'files.delete': 'pdm.file.deleted',
  'numbers.generate': 'pdm.numbers.generated',
  'numbers.attributes': 'pdm.cad.attributes-changed',
  'numbers.link': 'pdm.cad.link-changed',
  'numbers.used': 'pdm.cad.links-numbered',
  'reports.put': 'pdm.report.saved',
  'reports.delete': 'pdm.report.deleted',
  import: 'pdm.dataset.imported',
};

/** The type of an action's events. */
export function eventType(action: string): string {
  return EVENT_TYPES[action] ?? `pdm.${action}`;
}

/**
 * The actions a subscription may name, besides administration's (`admin.*`, `auth.*`,
 * `events.*`, which are matched by their prefix): what every service records.
 */
export const KNOWN_ACTION_PREFIXES: readonly string[] = [
  'objects',
  'files',
  'numbers',
  'reports',
  'admin',
  'auth',
  'events',
  'import',
];

const PATTERN = /^(\*|[a-z]+(\.[a-z-]+)*(\.\*)?)$/;

/**
 * Why an action pattern is refused, or null: an action (`objects.state`), a prefix ending in `.*`
 * (`objects.*`, `objects.uses.*`) or `*`; an action of the services must be one they record.
 */
export function actionPatternProblem(pattern: string): string | null {
  if (!PATTERN.test(pattern))
    return `"${pattern}" is not an action or a prefix ending in .* (objects.state, objects.*, *)`;
  if (pattern === '*') return null;
  const first = pattern.split('.')[0];
  if (!KNOWN_ACTION_PREFIXES.includes(first)) {
    return `"${pattern}": no action starts with ${first} (${KNOWN_ACTION_PREFIXES.map((p) => `${p}.*`).join(', ')})`;
  }
  if (pattern.endsWith('.*') || ['admin', 'auth', 'events'].includes(first)) return null;
  if (pattern in EVENT_TYPES) return null;
  const known = Object.keys(EVENT_TYPES).filter((a) => a.startsWith(`${first}.`));
  return `unknown action ${pattern}; the ${first} actions are ${known.join(', ')}`;
}

/** Whether an action matches a pattern (an action, a prefix ending in `.*`, or `*`). */
export function actionMatches(pattern: string, action: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return action.startsWith(pattern.slice(0, -1));
  return pattern === action;
}
