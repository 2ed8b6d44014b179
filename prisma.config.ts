// Prisma CLI configuration: the JavaScript schema engine over the pg driver adapter,
// so no engine binary is ever downloaded.
import { defineConfig } from 'prisma/config';
import { ShadowSafePg } from './src/patches/adapter-pg-shadow-database.js';
import { nameTypesAsText } from './src/patches/pg-name-types-as-text.js';
import { checkPatchedVersionsOf } from './src/patches/versions.js';

// Workarounds for two defects of @prisma/adapter-pg 6.19 (fixed in adapter-pg 7), in src/patches:
// each file says what it touches and when it can go. The CLI fails at once on other versions.
checkPatchedVersionsOf('pg-name-types-as-text', 'adapter-pg-shadow-database');
nameTypesAsText();

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pdm';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations', seed: 'node dist/prisma/seed.js' },
  adapter: async () => new ShadowSafePg(url),
});
