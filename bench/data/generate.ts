/**
 * npm run bench:data -- --objects <N> [--files-per-object <k>] [--seed <s>] [--database-url <url>] [--reset]
 * Fills the benchmark database with a synthetic dataset (see bench/README.md).
 */
import { parseArgs } from 'node:util';
import { runIfEntry } from '../harness/entry.js';
import { generateDataset, NotEmptyError, type GenerateSummary } from './dataset.js';

const USAGE =
  'usage: npm run bench:data -- --objects <N> [--files-per-object <k>] [--seed <s>] [--database-url <url>] [--reset]';

function count(raw: string | undefined, name: string, fallback?: number): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  const cleaned = (raw ?? '').replace(/[_,]/g, '');
  if (!/^\d+$/.test(cleaned)) throw new UsageError(`${name} must be a whole number, not "${raw ?? ''}"`);
  return Number(cleaned);
}

class UsageError extends Error {}

export function printSummary(s: GenerateSummary): void {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  console.log(`loaded ${s.database} in ${s.seconds.total} s`);
  console.log(`  load ${s.seconds.load} s, indexes and constraints ${s.seconds.indexes} s, analyze ${s.seconds.analyze} s`);
  const width = Math.max(...Object.keys(s.counts).map((t) => t.length));
  for (const [table, n] of Object.entries(s.counts)) console.log(`  ${table.padEnd(width)}  ${n.toLocaleString('en-US')}`);
  console.log(`  COPY data sent ${mb(s.copyBytes)} (file contents ${mb(s.fileBytes)}), database size ${mb(s.databaseBytes)}`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      objects: { type: 'string' },
      'files-per-object': { type: 'string' },
      seed: { type: 'string' },
      'database-url': { type: 'string' },
      reset: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const summary = await generateDataset({
    objects: count(values.objects, '--objects'),
    filesPerObject: count(values['files-per-object'], '--files-per-object', 1),
    seed: values.seed,
    databaseUrl: values['database-url'],
    reset: values.reset,
    log: (line) => console.log(line),
  });
  printSummary(summary);
  return 0;
}

runIfEntry(import.meta.url, main, (e) => {
  if (e instanceof UsageError || (e instanceof TypeError && 'code' in e)) console.error(`${e.message}\n${USAGE}`);
  else if (e instanceof NotEmptyError) console.error(`refusing to load: ${e.message}`);
  else console.error(`bench:data failed: ${e instanceof Error ? e.message : String(e)}`);
  return e instanceof UsageError || e instanceof TypeError ? 2 : 1;
});
