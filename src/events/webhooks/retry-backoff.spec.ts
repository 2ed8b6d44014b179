import fc from 'fast-check';
import { retryDelayMs } from './retry-backoff.js';

describe('the retry backoff', () => {
  const lowest = () => 0;
  const highest = () => 0.999999999;

  it('doubles from the base up to the cap, the lowest draw being half the nominal delay', () => {
    const nominal = [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 300000, 300000, 300000];
    const attempts = nominal.map((_, i) => i + 1);
    expect(attempts.map((a) => retryDelayMs(a, 1000, 300_000, highest))).toEqual(nominal);
    expect(attempts.map((a) => retryDelayMs(a, 1000, 300_000, lowest))).toEqual(nominal.map((n) => n / 2));
    expect(retryDelayMs(3, 1000, 300_000, () => 0.5)).toBe(3000);
  });

  it('stays within half the nominal delay and the nominal delay, whatever is drawn', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 3_600_000 }),
        fc.integer({ min: 1, max: 86_400_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, base, max, draw) => {
          const delay = retryDelayMs(attempt, base, max, () => draw);
          const nominal = Math.max(1, Math.min(max, base * 2 ** (attempt - 1)));
          expect(Number.isInteger(delay)).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(Math.ceil(Math.floor(nominal) / 2));
          expect(delay).toBeLessThanOrEqual(Math.floor(nominal));
        },
      ),
    );
  });

  it('caps where the cap is below the base, and at huge attempt numbers', () => {
    expect(retryDelayMs(1, 5000, 2000, highest)).toBe(2000);
    expect(retryDelayMs(5000, 1000, 300_000, highest)).toBe(300_000);
    expect(retryDelayMs(5000, 1000, 300_000, lowest)).toBe(150_000);
    expect(retryDelayMs(1, 1, 1, highest)).toBe(1);
  });

  it('does not leave the range when the random source does', () => {
    expect(retryDelayMs(2, 1000, 300_000, () => 1)).toBe(2000);
    expect(retryDelayMs(2, 1000, 300_000, () => -3)).toBe(1000);
    expect(retryDelayMs(2, 1000, 300_000, () => NaN)).toBe(1000);
  });

  it('refuses attempts below 1 and non-positive delays', () => {
    expect(() => retryDelayMs(0, 1000, 300_000)).toThrow('attempt is a whole number from 1, not 0');
    expect(() => retryDelayMs(1.5, 1000, 300_000)).toThrow(RangeError);
    expect(() => retryDelayMs(1, 0, 300_000)).toThrow('baseMs and maxMs are positive, not 0 and 300000');
  });
});
