import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startService, waitReady, type ServiceProcess } from '../startup/service-process.js';
import { runDocExamples } from './doc-curl.js';
import { docExamples, type DocExamples } from './doc-examples.js';

const REPO = process.cwd();
/** README first, then the pages under docs/, each on a database of its own. */
const PAGES = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

const parsed = PAGES.map((doc): DocExamples | { doc: string; error: string } => {
  try {
    return docExamples(doc, readFileSync(join(REPO, doc), 'utf8'));
  } catch (e) {
    return { doc, error: (e as Error).message };
  }
});
const pages = parsed.filter((p): p is DocExamples => !('error' in p));
const withExamples = pages.filter((p) => p.steps.some((s) => s.kind === 'curl'));
const skipped = pages.flatMap((p) => p.skipped.map((s) => ({ ...s, doc: p.doc })));

/** Stops the service, at once if SIGTERM did not end it within `ms`. */
async function stop(s: ServiceProcess, ms = 20_000): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), ms);
  await s.exited;
  clearTimeout(timer);
}

/** The service's warnings and errors, which say why an answer was a 5xx. */
function problems(s: ServiceProcess): string {
  return s
    .output()
    .split('\n')
    .filter((l) => /"level":(40|50|60)/.test(l))
    .slice(-20)
    .join('\n');
}

/**
 * Every curl example of README.md and docs/*.md, run with the real curl against the service as
 * `npm start` runs it: `node dist/src/main.js` without DATABASE_URL (the embedded database, with
 * the demo data loaded at its first start), a new DATA_DIR per page, and nothing else of the
 * test's environment. Each page's examples run in page order, as a reader runs them; each answer
 * must be the one the page shows (the conventions: test/docs/doc-examples.ts).
 */
describe('the examples of README.md and docs/*.md, on the embedded database', () => {
  it('show an answer under every curl example (or say why it is not run)', () => {
    expect(parsed.filter((p) => 'error' in p)).toEqual([]);
    expect(withExamples.map((p) => p.doc)).toEqual(expect.arrayContaining(['README.md', 'docs/walkthrough.md']));
  });

  // Listed as skipped tests, so that the run counts them and says why.
  for (const s of skipped) it.skip(`${s.doc}:${s.line}: ${s.examples} example(s) not run: ${s.reason}`, () => {});

  it.each(withExamples.map((page) => ({ page, doc: page.doc })))(
    '$doc answers as it shows',
    async ({ page }) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'pdm-doc-data-'));
      const port = await freePort();
      const service = startService({ DATA_DIR: dataDir, PORT: String(port) }, { clean: true });
      try {
        // PostgreSQL in WebAssembly: the first start (migrations, demo data) takes seconds on an
        // idle machine, longer on a busy one. A deadline, not a measure.
        await waitReady(service, port, '', 120_000);
        const { failures, ran } = await runDocExamples(page, port, REPO);
        expect(ran).toBe(page.steps.filter((s) => s.kind === 'curl').length);
        if (failures.length) {
          const log = problems(service);
          throw new Error(
            `${failures.length} of ${ran} examples of ${page.doc} answer otherwise than shown:\n\n` +
              failures.join('\n\n') +
              (log ? `\n\nthe service's warnings and errors:\n${log}` : ''),
          );
        }
      } finally {
        await stop(service);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    600_000,
  );
});
