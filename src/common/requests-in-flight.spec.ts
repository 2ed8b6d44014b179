import { RequestsInFlight } from './requests-in-flight.js';

describe('requests in flight', () => {
  it('averages the requests in flight over about the last second, not counting those that wait', () => {
    let now = 0;
    const r = new RequestsInFlight(() => now);
    expect(r.load()).toBe(0);
    for (let i = 0; i < 8; i++) r.enter();
    now = 10_000;
    expect(r.load()).toBeCloseTo(8, 1);
    // Six are answered: after a second the average is most of the way down to two.
    for (let i = 0; i < 6; i++) r.leave();
    now = 11_000;
    expect(r.load()).toBeGreaterThan(2);
    expect(r.load()).toBeLessThan(5);
    now = 21_000;
    expect(r.load()).toBeCloseTo(2, 1);
    // A long poll waiting counts for nothing until it resumes (once, however often it is called).
    const resume = r.waiting();
    now = 31_000;
    expect(r.load()).toBeCloseTo(1, 1);
    resume();
    resume();
    now = 41_000;
    expect(r.load()).toBeCloseTo(2, 1);
  });

  it('never counts below none', () => {
    let now = 0;
    const r = new RequestsInFlight(() => now);
    r.leave();
    r.enter();
    now = 10_000;
    expect(r.load()).toBeCloseTo(1, 1);
  });
});
