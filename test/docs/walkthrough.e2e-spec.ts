import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { runDocExamples } from './doc-curl.js';
import { docExamples } from './doc-examples.js';

const DOC = 'docs/walkthrough.md';

/**
 * The walkthrough on a PostgreSQL server (doc-examples.e2e-spec.ts runs it, with every other
 * page, on the embedded database): every command in order, each answer as the page shows it.
 */
describe('docs/walkthrough.md', () => {
  let db: ScratchDatabase;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    // A database of its own: the page creates a user, a container and a rule of fixed names.
    db = await scratchDatabase({ demo: true });
    t = await createTestApp({ DATABASE_URL: db.url });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('answers every command of the page as the page says, in order', async () => {
    const page = docExamples(DOC, readFileSync(DOC, 'utf8'));
    const { failures, ran } = await runDocExamples(page, port, process.cwd());
    expect(ran).toBeGreaterThanOrEqual(10);
    expect(failures).toEqual([]);
  });
});
