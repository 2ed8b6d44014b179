import { FailureThrottle } from './failure-throttle.js';

describe('FailureThrottle', () => {
  let now = 0;
  const throttle = () => new FailureThrottle(3, 60_000, 10, () => now);

  beforeEach(() => {
    now = 1_000_000;
  });

  it('allows attempts below the limit and refuses past it until the window ends', () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) {
      expect(t.retryAfter('alice', '1.2.3.4')).toBe(0);
      t.recordFailure('alice', '1.2.3.4');
    }
    expect(t.retryAfter('alice', '1.2.3.4')).toBe(60);
    now += 30_000;
    expect(t.retryAfter('alice', '1.2.3.4')).toBe(30);
    now += 30_000;
    expect(t.retryAfter('alice', '1.2.3.4')).toBe(0);
  });

  it('does not lock the user out at another address', () => {
    const t = throttle();
    for (let i = 0; i < 5; i++) t.recordFailure('alice', '6.6.6.6');
    expect(t.retryAfter('alice', '6.6.6.6')).toBeGreaterThan(0);
    expect(t.retryAfter('alice', '1.2.3.4')).toBe(0);
  });

  it('limits one address guessing many user names', () => {
    const t = throttle();
    for (let i = 0; i < 30; i++) t.recordFailure(`user${i}`, '6.6.6.6');
    expect(t.retryAfter('someone-new', '6.6.6.6')).toBeGreaterThan(0);
  });

  it('forgets the pair after a success', () => {
    const t = throttle();
    for (let i = 0; i < 2; i++) t.recordFailure('alice', '1.2.3.4');
    t.recordSuccess('alice', '1.2.3.4');
    t.recordFailure('alice', '1.2.3.4');
    expect(t.retryAfter('alice', '1.2.3.4')).toBe(0);
  });
});
