/**
 * Patch of @prisma/adapter-pg, written for 6.19.3 (accepted on 6.19.x: see versions.ts), for the
 * Prisma CLI only: prisma.config.ts uses it; the running service never loads it.
 *
 * Touches: PrismaPg's connectToShadowDb() (part of the adapter factory's interface, but its
 * behaviour is what is fixed here) is overridden, and the dispose() of the adapter it returns is
 * replaced on that instance.
 *
 * Why: prisma/prisma#28145: connectToShadowDb() drops its temporary database before closing the
 * pool that uses it (the DROP fails, as the database is in use), and a connectionString
 * overrides the database it picks. Here a uniquely named shadow database is created, and on
 * dispose the pool is closed first, then the database dropped.
 *
 * Remove when: on a Prisma release whose adapter-pg closes the shadow database's pool before it
 * drops the database (fixed in adapter-pg 7), `npx prisma migrate dev` (which uses a shadow
 * database) leaves no `prisma_migrate_shadow_db_*` database behind without it;
 * test/patches/adapter-pg.e2e-spec.ts shows what it must do.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PatchError } from './patch-error.js';

const PATCH = 'adapter-pg-shadow-database';

if (typeof (PrismaPg.prototype as Partial<PrismaPg>).connectToShadowDb !== 'function')
  throw new PatchError(PATCH, 'PrismaPg has no connectToShadowDb() to override');

/** PrismaPg on `url` (a pool of one), whose shadow database is dropped after its pool is closed. */
export class ShadowSafePg extends PrismaPg {
  constructor(private readonly url: string) {
    super({ connectionString: url, max: 1 });
  }

  override async connectToShadowDb() {
    const name = `prisma_shadow_${process.pid}_${Date.now()}`;
    await runAdmin(this.url, `CREATE DATABASE "${name}"`);
    const shadowUrl = new URL(this.url);
    shadowUrl.pathname = `/${name}`;
    const adapter = await new PrismaPg({ connectionString: shadowUrl.toString(), max: 1 }).connect();
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await runAdmin(this.url, `DROP DATABASE IF EXISTS "${name}"`);
    };
    return adapter;
  }
}

async function runAdmin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
