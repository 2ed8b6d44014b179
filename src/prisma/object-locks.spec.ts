import { loadConfig } from '../config/app-config.js';
import { ObjectLocks } from './object-locks.js';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('ObjectLocks.inTurn', () => {
  const locks = (ms: number) => new ObjectLocks(loadConfig({ DB_LOCK_TIMEOUT_MS: String(ms) }));

  it('runs the changes of one master one at a time, in arrival order; others at once', async () => {
    const l = locks(10_000);
    const log: string[] = [];
    const first = gate();
    const a = l.inTurn(1, async () => {
      log.push('a');
      await first.opened;
      log.push('a done');
    });
    const b = l.inTurn(1, async () => void log.push('b'));
    const c = l.inTurn(1, async () => void log.push('c'));
    await l.inTurn(2, async () => void log.push('other master'));
    expect(log).toEqual(['a', 'other master']);
    first.open();
    await Promise.all([a, b, c]);
    expect(log).toEqual(['a', 'other master', 'a done', 'b', 'c']);
  });

  it('answers 503 with Retry-After to a change that waited DB_LOCK_TIMEOUT_MS; the next keeps its place', async () => {
    const l = locks(50);
    const first = gate();
    const log: string[] = [];
    const a = l.inTurn(1, async () => {
      await first.opened;
      log.push('a');
    });
    await expect(l.inTurn(1, async () => void log.push('b'))).rejects.toMatchObject({
      status: 503,
      message: 'another request is changing the same object; retry shortly',
      headers: { 'Retry-After': '1' },
    });
    const c = l.inTurn(1, async () => void log.push('c'));
    first.open();
    await Promise.all([a, c]);
    expect(log).toEqual(['a', 'c']);
  });

  it('goes on after a change that failed', async () => {
    const l = locks(1000);
    await expect(
      l.inTurn(1, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(l.inTurn(1, async () => 'next')).resolves.toBe('next');
  });
});
