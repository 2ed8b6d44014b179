/**
 * Subjects (NATS) and routing keys (AMQP topic exchanges) of change events: both are dot-separated
 * tokens, so one subscription setting, the subject prefix, names where its events go on either
 * kind of broker.
 */

/** The first token of every event type (`pdm.object.created`): the subscription's prefix takes its place. */
const TYPE_ROOT = 'pdm.';

/** Longest subject prefix a subscription may give, in tokens and in characters. */
export const MAX_PREFIX_TOKENS = 16;
export const MAX_PREFIX_LENGTH = 200;

const TOKEN = /^[A-Za-z0-9_-]+$/;

/**
 * The subject an event is published on: the subscription's prefix, then the event type without its
 * leading `pdm.`, so `pdm.erp` and `pdm.object.created` give `pdm.erp.object.created`. The type's
 * own `pdm.` is dropped because the prefix already starts with the root (EVENTS_SUBJECT_ROOT,
 * `pdm` by default) and a consumer filters on `pdm.erp.object.>` rather than `pdm.erp.pdm.object.>`.
 * A type without that first token is appended whole.
 */
export function subjectFor(prefix: string, eventType: string): string {
  const rest = eventType.startsWith(TYPE_ROOT) ? eventType.slice(TYPE_ROOT.length) : eventType;
  return `${prefix}.${rest}`;
}

/**
 * Why `prefix` cannot be a subscription's subject prefix under `root`, or null when it can: tokens of
 * letters, digits, `_` and `-` (no wildcards: a subscription publishes, it does not listen), the
 * first token the root (the stream stores only `<root>.>`), at most MAX_PREFIX_TOKENS tokens and
 * MAX_PREFIX_LENGTH characters.
 */
export function checkSubject(prefix: string, root: string): string | null {
  if (prefix.length === 0) return 'the subject prefix is empty';
  if (prefix.length > MAX_PREFIX_LENGTH)
    return `the subject prefix has ${prefix.length} characters, more than ${MAX_PREFIX_LENGTH}`;
  const tokens = prefix.split('.');
  if (tokens.length > MAX_PREFIX_TOKENS)
    return `the subject prefix has ${tokens.length} tokens, more than ${MAX_PREFIX_TOKENS}`;
  for (const token of tokens) {
    if (token === '')
      return `the subject prefix "${prefix}" has an empty token (a dot at the start or end, or two dots)`;
    if (token.includes('*') || token.includes('>'))
      return `the subject prefix "${prefix}" has a wildcard ("${token}"): a subscription publishes on one subject`;
    if (!TOKEN.test(token))
      return `the subject prefix "${prefix}" has the token "${token}": tokens are letters, digits, _ and -`;
  }
  if (tokens[0] !== root)
    return `the subject prefix "${prefix}" must start with the root "${root}" (as in "${root}.erp")`;
  return null;
}

/**
 * Whether a stream listening on `filters` stores every subject under `root` (`<root>.>`): a filter
 * `<root>.>`, `*.>` or `>` does; `<root>.*` or `<root>.erp.>` stores only some of them.
 */
export function streamCovers(filters: readonly string[], root: string): boolean {
  return filters.some((filter) => filterCovers(filter, `${root}.>`));
}

/** Whether the subject filter `filter` matches every subject the filter `wanted` matches. */
function filterCovers(filter: string, wanted: string): boolean {
  const f = filter.split('.');
  const w = wanted.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return i < w.length;
    if (i >= w.length || w[i] === '>') return false;
    if (f[i] !== '*' && f[i] !== w[i]) return false;
  }
  return f.length === w.length;
}
