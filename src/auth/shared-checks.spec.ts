import { HttpException } from '@nestjs/common';
import type { FailureThrottle } from './failure-throttle.js';
import { SharedChecks } from './shared-checks.js';

function throttleWith(waits: Record<string, number>): FailureThrottle {
  return { retryAfter: (_name: string, address: string) => Promise.resolve(waits[address] ?? 0) } as FailureThrottle;
}

describe('SharedChecks', () => {
  it('makes one check for uses that arrive together, and a new one once it is done', async () => {
    const shared = new SharedChecks<string>(throttleWith({}));
    let checks = 0;
    let finish!: (v: string) => void;
    const check = () => {
      checks++;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const answers = [1, 2, 3].map(() => shared.run('k', 'n', 'a', check, () => new Error('throttled')));
    await new Promise((resolve) => setImmediate(resolve));
    finish('user');
    expect(await Promise.all(answers)).toEqual(['user', 'user', 'user']);
    expect(checks).toBe(1);
    const later = shared.run(
      'k',
      'n',
      'a',
      () => Promise.resolve('again'),
      () => new Error('throttled'),
    );
    expect([await later, checks]).toEqual(['again', 1]);
  });

  it("holds a joining use to its own address's limit, and checks anew when the joined check was throttled", async () => {
    const shared = new SharedChecks<string>(throttleWith({ slow: 30 }));
    const throttled = (wait: number) => new HttpException(`wait ${wait}`, 429);
    const first = shared.run('k', 'n', 'a', () => Promise.reject(throttled(5)), throttled);
    const joined = shared.run('k', 'n', 'b', () => Promise.resolve('own check'), throttled);
    const refused = shared.run('k', 'n', 'slow', () => Promise.resolve('never'), throttled);
    await expect(first).rejects.toThrow('wait 5');
    await expect(joined).resolves.toBe('own check');
    await expect(refused).rejects.toThrow('wait 30');
  });
});
