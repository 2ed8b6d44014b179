import { Turns } from './turns.js';

describe('Turns', () => {
  it('runs at most `max` at once; the others start in order as turns are given back', async () => {
    const turns = new Turns(2);
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    const job = (name: string) =>
      turns.run(
        () =>
          new Promise<string>((resolve) => {
            started.push(name);
            releases.set(name, () => resolve(name));
          }),
      );
    const a = job('a');
    const b = job('b');
    const c = job('c');
    const d = job('d');
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b']);
    releases.get('b')!();
    await expect(b).resolves.toBe('b');
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b', 'c']);
    releases.get('a')!();
    releases.get('c')!();
    await Promise.all([a, c]);
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    releases.get('d')!();
    await expect(d).resolves.toBe('d');
    // Every turn was given back: two start at once again.
    const e = job('e');
    const f = job('f');
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    releases.get('e')!();
    releases.get('f')!();
    await Promise.all([e, f]);
  });

  it('gives the turn back when the work fails', async () => {
    const turns = new Turns(1);
    await expect(turns.run(() => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    await expect(turns.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
