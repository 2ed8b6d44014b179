import { BodyMemoryBudget } from './body-memory-budget.js';

describe('BodyMemoryBudget', () => {
  it('gives bytes while they fit and refuses what does not fit', () => {
    const budget = new BodyMemoryBudget(100);
    const a = budget.reserve(60);
    expect(a).not.toBeNull();
    expect(budget.reserve(41)).toBeNull();
    const b = budget.reserve(40);
    expect(b).not.toBeNull();
    expect(budget.reserve(1)).toBeNull();
    expect(budget.inUse).toBe(100);
    a!();
    expect(budget.inUse).toBe(40);
    expect(budget.reserve(60)).not.toBeNull();
  });

  it('gives bytes back only once, however often the release is called', () => {
    const budget = new BodyMemoryBudget(100);
    const a = budget.reserve(70)!;
    const b = budget.reserve(30)!;
    a();
    a();
    expect(budget.inUse).toBe(30);
    expect(budget.reserve(71)).toBeNull();
    b();
    expect(budget.inUse).toBe(0);
  });

  it('refuses a body larger than the whole budget', () => {
    expect(new BodyMemoryBudget(100).reserve(101)).toBeNull();
  });

  it('admits zero bytes always', () => {
    const budget = new BodyMemoryBudget(1);
    budget.reserve(1);
    expect(budget.reserve(0)).not.toBeNull();
  });
});
