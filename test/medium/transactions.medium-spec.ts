import { PrismaService } from '../../src/prisma/prisma.service.js';
import { runTransaction } from '../../src/prisma/transactions.js';
import { useServices } from './medium-database.js';

/**
 * The one transaction helper (src/prisma/transactions.ts): every statement made through what
 * `transaction()` hands its work (the transaction's handle `tx.db`, `tx.query`) runs in that
 * transaction, whichever way it is made.
 */
describe('PrismaService.transaction', () => {
  const s = useServices({});
  let db: PrismaService;
  beforeAll(() => {
    db = s.get(PrismaService);
  });

  const txid = async (run: () => Promise<{ t: string }[]>) => (await run())[0].t;
  const roleCount = async (name: string) =>
    Number((await s.pool.query('SELECT count(*) AS n FROM content_roles WHERE name = $1', [name])).rows[0].n);

  it("runs the handle's Prisma model calls, $queryRaw, pg pool and tx.query on one connection in one transaction", async () => {
    const ids = await db.transaction(async (tx) => {
      await tx.db.contentRole.create({ data: { name: 'TX_SAME' } });
      return [
        await txid(() => tx.db.$queryRaw<{ t: string }[]>`SELECT txid_current()::text AS t`),
        await txid(async () => (await tx.db.pgPool.query<{ t: string }>('SELECT txid_current()::text AS t')).rows),
        await txid(() => tx.query<{ t: string }>('SELECT txid_current()::text AS t')),
        await txid(() => tx.query<{ t: string }>('SELECT txid_current()::text AS t', [], 'tx-medium-txid')),
        // A row written by a Prisma call is seen by the others before the commit.
        String(
          (await tx.query<{ n: string }>("SELECT count(*)::text AS n FROM content_roles WHERE name = 'TX_SAME'"))[0].n,
        ),
      ];
    });
    expect(new Set(ids.slice(0, 4)).size).toBe(1);
    expect(ids[4]).toBe('1');
    expect(await roleCount('TX_SAME')).toBe(1);
  });

  it('rolls back every kind of statement when the work throws, and answers with its error', async () => {
    const failure = db.transaction(async (tx) => {
      await tx.db.contentRole.create({ data: { name: 'TX_ROLLED_1' } });
      await tx.db.$executeRaw`INSERT INTO content_roles (name) VALUES ('TX_ROLLED_2')`;
      await tx.query("INSERT INTO content_roles (name) VALUES ('TX_ROLLED_3')");
      throw new Error('changed my mind');
    });
    await expect(failure).rejects.toThrow('changed my mind');
    for (const name of ['TX_ROLLED_1', 'TX_ROLLED_2', 'TX_ROLLED_3']) expect(await roleCount(name)).toBe(0);
  });

  it("nests: a transaction or a Prisma $transaction on the transaction's handle is a savepoint of it", async () => {
    const outer = await db.transaction(async (tx) => {
      const mine = await txid(() => tx.query<{ t: string }>('SELECT txid_current()::text AS t'));
      await tx.db.contentRole.create({ data: { name: 'TX_OUTER' } });
      // A failing inner part rolls back only itself when the caller catches it.
      await tx.db
        .transaction(async (inner) => {
          await inner.db.contentRole.create({ data: { name: 'TX_INNER_FAILED' } });
          throw new Error('inner');
        })
        .catch(() => undefined);
      const inner = await tx.db.transaction(async (t) => {
        expect(t.db).toBe(tx.db);
        return txid(() => t.query<{ t: string }>('SELECT txid_current()::text AS t'));
      });
      const viaPrisma = await tx.db.$transaction(async (p) => {
        await p.contentRole.create({ data: { name: 'TX_PRISMA_NESTED' } });
        return txid(() => p.$queryRaw<{ t: string }[]>`SELECT txid_current()::text AS t`);
      });
      return { mine, inner, viaPrisma };
    });
    expect(outer.inner).toBe(outer.mine);
    expect(outer.viaPrisma).toBe(outer.mine);
    expect(await roleCount('TX_OUTER')).toBe(1);
    expect(await roleCount('TX_INNER_FAILED')).toBe(0);
    expect(await roleCount('TX_PRISMA_NESTED')).toBe(1);
  });

  it("the transaction's handle serves no statement once it has ended; the next transaction reuses it", async () => {
    let kept!: PrismaService;
    await db.transaction(async (tx) => {
      kept = tx.db;
      await tx.db.$queryRaw`SELECT 1`;
    });
    await expect(kept.$queryRaw`SELECT 1`).rejects.toThrow('the transaction has ended');
    await expect(kept.pgPool.query('SELECT 1')).rejects.toThrow('the transaction has ended');
    // Sequential transactions share one handle; simultaneous ones each have their own.
    expect(await db.transaction(async (tx) => tx.db)).toBe(kept);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = db.transaction(async (tx) => {
      await held;
      return txid(() => tx.db.$queryRaw<{ t: string }[]>`SELECT txid_current()::text AS t`);
    });
    const second = db.transaction(async (tx) => {
      release();
      return txid(() => tx.db.$queryRaw<{ t: string }[]>`SELECT txid_current()::text AS t`);
    });
    const [a, b] = await Promise.all([first, second]);
    expect(a).not.toBe(b);
  });

  it("under the tests' check, a statement through the service's handle inside its transaction fails and rolls it back", async () => {
    expect(process.env.DB_CHECK_TRANSACTIONS).toBe('1');
    const outside = db.transaction(async (tx) => {
      await tx.db.contentRole.create({ data: { name: 'TX_CHECKED' } });
      await db.$queryRaw`SELECT 1`;
    });
    await expect(outside).rejects.toThrow(
      /a statement through the service's database handle inside one of its transactions/,
    );
    await expect(db.transaction(() => db.transaction(async () => 1))).rejects.toThrow(/a second transaction/);
    await expect(db.transaction(() => db.pgPool.query('SELECT 1'))).rejects.toThrow(/use the transaction's handle/);
    expect(await roleCount('TX_CHECKED')).toBe(0);
    // Work started in a transaction that runs after it has ended is not inside it any more.
    let ended!: () => void;
    const gate = new Promise<void>((resolve) => (ended = resolve));
    let later: Promise<string> | undefined;
    const during = await db.transaction(async (tx) => {
      later = gate.then(() => txid(() => db.$queryRaw<{ t: string }[]>`SELECT txid_current()::text AS t`));
      return txid(() => tx.query<{ t: string }>('SELECT txid_current()::text AS t'));
    });
    ended();
    expect(await later).not.toBe(during);
  });

  it('starts read-only with its own statement timeout when asked, and refuses a timeout that is not a whole number', async () => {
    const settings = await db.transaction(
      async (tx) =>
        (
          await tx.query<{ ro: string; timeout: string }>(
            "SELECT current_setting('transaction_read_only') AS ro, current_setting('statement_timeout') AS timeout",
          )
        )[0],
      { readOnly: true, statementTimeoutMs: 1234 },
    );
    expect(settings).toEqual({ ro: 'on', timeout: '1234ms' });
    const write = db.transaction((tx) => tx.db.contentRole.create({ data: { name: 'TX_READ_ONLY' } }), {
      readOnly: true,
    });
    await expect(write).rejects.toThrow(/read-only transaction/);
    await expect(db.transaction(async () => 1, { statementTimeoutMs: 1.5 })).rejects.toThrow(
      'statement timeout 1.5 is not a whole number of milliseconds',
    );
    expect(await roleCount('TX_READ_ONLY')).toBe(0);
  });

  it("a transaction on another pool leaves the handle's statements in transactions of their own", async () => {
    const [theirs, mine] = await runTransaction(s.pool, async (tx) => [
      await txid(() => tx.query<{ t: string }>('SELECT txid_current()::text AS t')),
      await txid(() => db.$queryRaw<{ t: string }[]>`SELECT txid_current()::text AS t`),
    ]);
    expect(mine).not.toBe(theirs);
  });

  it('statements outside a transaction run each in their own, as before', async () => {
    const a = await txid(() => db.$queryRaw<{ t: string }[]>`SELECT txid_current()::text AS t`);
    const b = await txid(() => db.$queryRaw<{ t: string }[]>`SELECT txid_current()::text AS t`);
    expect(a).not.toBe(b);
  });
});
