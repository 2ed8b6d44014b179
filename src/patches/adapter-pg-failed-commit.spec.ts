import { PrismaPg } from '@prisma/adapter-pg';
import { releaseOnFailedCommit, transactionInternals } from './adapter-pg-failed-commit.js';

// What the patch does on a real connection: test/patches/adapter-pg.e2e-spec.ts.
describe('releaseOnFailedCommit (src/patches/adapter-pg-failed-commit.ts)', () => {
  it("finds startTransaction() on the installed adapter-pg's adapter, which it wraps", async () => {
    const factory = releaseOnFailedCommit(new PrismaPg({ connectionString: 'postgresql://nobody@127.0.0.1:1/none' }));
    const adapter = await factory.connect(); // makes a pool; connects nothing yet
    try {
      expect(Object.hasOwn(adapter, 'startTransaction')).toBe(true);
      expect(typeof adapter.startTransaction).toBe('function');
    } finally {
      await adapter.dispose();
    }
  });

  it('says which internal is missing from a transaction, naming the package and version', () => {
    expect(() => transactionInternals({ executeRaw: async () => 0 })).toThrow(
      'src/patches/adapter-pg-failed-commit.ts, written for @prisma/adapter-pg 6.19.3, cannot work: ' +
        'the transaction has no `client` with release().',
    );
    expect(() => transactionInternals({})).toThrow(/cannot work: the transaction has no executeRaw\(\)/);
    const tx = { executeRaw: async () => 0, client: { release: () => undefined }, cleanup: () => undefined };
    expect(transactionInternals(tx)).toBe(tx);
  });
});
