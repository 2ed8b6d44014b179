/**
 * How long to wait before trying an event again after `attempt` attempts failed (1: the first
 * one): exponential, `baseMs × 2^(attempt−1)` capped at `maxMs`, with "equal jitter": half of
 * that fixed, the other half random. `random` returns a number in [0, 1) (Math.random's contract),
 * so a test can make the result deterministic.
 *
 * Why equal jitter rather than full jitter (a random delay between 0 and the cap): the jitter is
 * there so that subscriptions failing together (one receiver down, one network problem) do not
 * retry in step, and half the delay is enough for that. Full jitter spreads load a little better
 * but may retry almost at once; attempts are counted (EVENTS_MAX_ATTEMPTS) before an event goes to
 * the dead letters, so delays near zero could use them all up within seconds of an outage. With
 * equal jitter the time an event is given to get through is at least half the nominal schedule.
 */
export function retryDelayMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  if (!Number.isInteger(attempt) || attempt < 1)
    throw new RangeError(`attempt is a whole number from 1, not ${attempt}`);
  if (!(baseMs > 0) || !(maxMs > 0)) throw new RangeError(`baseMs and maxMs are positive, not ${baseMs} and ${maxMs}`);
  // 2^(attempt−1) overflows to Infinity for large attempts, which the cap turns back into maxMs.
  const cap = Math.max(1, Math.floor(Math.min(maxMs, baseMs * 2 ** (attempt - 1))));
  const low = Math.ceil(cap / 2);
  const drawn = random();
  const r = drawn > 0 ? Math.min(drawn, 1) : 0;
  return Math.min(cap, low + Math.floor(r * (cap - low + 1)));
}
