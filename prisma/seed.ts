// `npx prisma db seed`: loads the demo data into DATABASE_URL (idempotent); file bytes go to FILES_STORE.
import { loadConfig } from '../src/config/app-config.js';
import { seedDemoData } from '../src/import/demo-seed.js';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set');
  process.exit(1);
}
await seedDemoData(url, { files: loadConfig() });
console.log('demo data loaded');
