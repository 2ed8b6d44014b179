import type pg from 'pg';
import { loadConfig } from '../config/app-config.js';
import { DatabasePools } from './database-pools.js';

const PRIMARY = 'postgresql://pdm@primary.test/pdm';
const REPLICA = 'postgresql://pdm@replica.test/pdm';
const READ_ONLY = '-c default_transaction_read_only=on';

/** What a pool was made with (pg keeps it as `options`; no connection is opened before a query). */
const settings = (pool: pg.Pool | null) => {
  const o = (pool as unknown as { options: pg.PoolConfig } | null)?.options;
  return o && { url: o.connectionString, max: o.max, timeout: o.statement_timeout, options: o.options };
};

describe('the database pools', () => {
  it('are the primary and a read-only report pool, each of DB_POOL_MAX, without a replica', async () => {
    const pools = new DatabasePools(
      loadConfig({
        DATABASE_URL: PRIMARY,
        DB_POOL_MAX: '4',
        DB_STATEMENT_TIMEOUT_MS: '7000',
        REPORT_TIMEOUT_MS: '900',
      }),
    );
    try {
      expect(settings(pools.primary)).toEqual({ url: PRIMARY, max: 4, timeout: 7000, options: undefined });
      expect(settings(pools.reports)).toEqual({ url: PRIMARY, max: 4, timeout: 900, options: READ_ONLY });
      expect(pools.replica).toBeNull();
      expect(pools.replicaReports).toBeNull();
    } finally {
      await pools.onModuleDestroy();
    }
  });

  it('with a replica, add its read pool and its report pool, both read-only', async () => {
    const pools = new DatabasePools(
      loadConfig({
        DATABASE_URL: PRIMARY,
        DATABASE_REPLICA_URL: REPLICA,
        DB_POOL_MAX: '3',
        DB_STATEMENT_TIMEOUT_MS: '0',
        REPORT_TIMEOUT_MS: '900',
      }),
    );
    try {
      expect(settings(pools.primary)).toEqual({ url: PRIMARY, max: 3, timeout: undefined, options: undefined });
      expect(settings(pools.replica)).toEqual({ url: REPLICA, max: 3, timeout: undefined, options: READ_ONLY });
      expect(settings(pools.replicaReports)).toEqual({ url: REPLICA, max: 3, timeout: 900, options: READ_ONLY });
    } finally {
      await pools.onModuleDestroy();
    }
  });

  it('on a pool of one connection (the embedded database), have no report pool: reports share the primary', async () => {
    const pools = new DatabasePools(loadConfig({ DATABASE_URL: PRIMARY, DB_POOL_MAX: '1' }));
    try {
      expect(settings(pools.primary)).toMatchObject({ url: PRIMARY, max: 1 });
      expect(pools.reports).toBeNull();
    } finally {
      await pools.onModuleDestroy();
    }
  });

  it('send TCP keepalive probes on every connection, so a server gone unseen is noticed', async () => {
    const pools = new DatabasePools(loadConfig({ DATABASE_URL: PRIMARY, DATABASE_REPLICA_URL: REPLICA }));
    try {
      for (const pool of [pools.primary, pools.reports, pools.replica, pools.replicaReports]) {
        expect((pool as unknown as { options: pg.PoolConfig }).options).toMatchObject({
          keepAlive: true,
          keepAliveInitialDelayMillis: 10_000,
        });
      }
    } finally {
      await pools.onModuleDestroy();
    }
  });

  it('close the primary last, once the others are closed: a read failing on the replica is made on the primary', async () => {
    const pools = new DatabasePools(
      loadConfig({ DATABASE_URL: PRIMARY, DATABASE_REPLICA_URL: REPLICA, DB_POOL_MAX: '2' }),
    );
    const ended: string[] = [];
    let releaseReplica!: () => void;
    const replicaEnds = new Promise<void>((resolve) => (releaseReplica = resolve));
    const named = [
      ['primary', pools.primary],
      ['reports', pools.reports],
      ['replica', pools.replica],
      ['replicaReports', pools.replicaReports],
    ] as const;
    for (const [name, pool] of named) {
      const end = pool!.end.bind(pool);
      pool!.end = (async () => {
        // A read still running on the replica holds its pool open for a while.
        if (name === 'replica') await replicaEnds;
        await end();
        ended.push(name);
      }) as pg.Pool['end'];
    }
    const closing = pools.onModuleDestroy();
    // The pools with nothing running end at once; the replica's waits for its read.
    for (let i = 0; i < 1000 && ended.length < 2; i++) await new Promise((r) => setImmediate(r));
    expect([...ended].sort()).toEqual(['replicaReports', 'reports']);
    releaseReplica();
    await closing;
    expect(ended.slice(2)).toEqual(['replica', 'primary']);
  });
});
