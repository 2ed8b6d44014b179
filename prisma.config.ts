// Prisma CLI configuration: the JavaScript schema engine over the pg driver adapter,
// so no engine binary is ever downloaded.
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

// --- Workarounds for two defects of @prisma/adapter-pg 6.19 (fixed in adapter-pg 7). ---
// Delete this block when moving to a Prisma release that needs neither a download nor these.
//
// 1. prisma/prisma#27403: the schema engine reads catalog columns of type `name` (OID 19) and
//    `"char"` (OID 18), which adapter-pg 6.19 cannot deserialize. Report them as text (OID 25).
//    This patch lives in the CLI config only; the running service does not load it.
type PgField = { dataTypeID: number };
const resultProto = pg.Result.prototype as unknown as { addFields(fields: PgField[]): void };
const addFields = resultProto.addFields;
resultProto.addFields = function (this: unknown, fields: PgField[]) {
  for (const f of fields) if (f.dataTypeID === 19 || f.dataTypeID === 18) f.dataTypeID = 25;
  return addFields.call(this, fields);
};

// 2. prisma/prisma#28145: connectToShadowDb() drops its temporary database before closing the
//    pool that uses it, and a connectionString overrides the database it picks. Create a uniquely
//    named shadow database ourselves, and on dispose close the pool first, then drop it.
class ShadowSafePg extends PrismaPg {
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
// --- end of workarounds ---

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pdm';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations', seed: 'node dist/prisma/seed.js' },
  adapter: async () => new ShadowSafePg(url),
});
