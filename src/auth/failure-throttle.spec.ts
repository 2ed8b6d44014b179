import { FailureThrottle } from './failure-throttle.js';

describe('FailureThrottle', () => {
  let now = 0;
  const throttle = () => new FailureThrottle(3, 60_000, 10, () => now);

  beforeEach(() => {
    now = 1_000_000;
  });

  it('allows attempts below the limit and refuses past it until the window ends', () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) expect(t.reserve('alice', '1.2.3.4')).toBe(0);
    expect(t.reserve('alice', '1.2.3.4')).toBe(60);
    expect(t.retryAfter('alice', '1.2.3.4')).toBe(60);
    now += 30_000;
    expect(t.retryAfter('alice', '1.2.3.4')).toBe(30);
    now += 30_000;
    expect(t.reserve('alice', '1.2.3.4')).toBe(0);
  });

  it('counts an attempt when it is reserved, before its outcome is known', () => {
    const t = throttle();
    // Three attempts under way at once, none answered yet: the fourth is refused.
    for (let i = 0; i < 3; i++) expect(t.reserve('alice', '1.2.3.4')).toBe(0);
    expect(t.reserve('alice', '1.2.3.4')).toBeGreaterThan(0);
  });

  it('does not lock the user out at another address', () => {
    const t = throttle();
    for (let i = 0; i < 5; i++) t.reserve('alice', '6.6.6.6');
    expect(t.retryAfter('alice', '6.6.6.6')).toBeGreaterThan(0);
    expect(t.retryAfter('alice', '1.2.3.4')).toBe(0);
  });

  it('limits one address guessing many user names', () => {
    const t = throttle();
    for (let i = 0; i < 30; i++) t.reserve(`user${i}`, '6.6.6.6');
    expect(t.retryAfter('someone-new', '6.6.6.6')).toBeGreaterThan(0);
  });

  it('forgets the pair after a refunded (right) attempt, and gives the address its attempt back', () => {
    const t = throttle();
    for (let i = 0; i < 2; i++) t.reserve('alice', '1.2.3.4');
    t.reserve('alice', '1.2.3.4');
    t.refund('alice', '1.2.3.4');
    expect(t.reserve('alice', '1.2.3.4')).toBe(0);
    // Many right sign-ins from one address (users behind one proxy) never throttle it.
    for (let i = 0; i < 100; i++) {
      expect(t.reserve(`user${i}`, '9.9.9.9')).toBe(0);
      t.refund(`user${i}`, '9.9.9.9');
    }
  });
});
