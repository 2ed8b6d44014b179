/** Presenting results: the console table, bench/results/*.json and docs/benchmarks.md. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { dirname } from 'node:path';
import { serverVersion } from './database.js';
import { describeRun } from './rounds.js';
import type { BenchReport, MachineInfo, MetricResult } from './types.js';

export async function machineInfo(databaseUrl: string, loadBefore: number): Promise<MachineInfo> {
  const cpu = cpus();
  return {
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    postgres: await serverVersion(databaseUrl),
  };
}

/** Load beyond half the cores means other processes competed with the measured ones. */
export function busy(m: MachineInfo): boolean {
  return Math.max(m.loadAverage.before, m.loadAverage.after) > m.cores / 2;
}

function num(n: number | null): string {
  if (n === null || Number.isNaN(n)) return '—';
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  return Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}

const HEADER = ['benchmark', 'metric', 'service (median)', 'baseline (median)', 'ratio', 'target', 'result'];

function rows(report: BenchReport): string[][] {
  return report.benchmarks.flatMap((b) =>
    b.error !== undefined
      ? [[b.name, `FAILED: ${b.error.split('\n')[0].slice(0, 70)}`, '', '', '', '', 'error']]
      : b.metrics.map((m: MetricResult) => [
          b.name,
          `${m.name} (${m.unit}, ${m.direction} is better)`,
          num(m.service.median),
          b.hasBaseline === false ? 'no baseline' : num(m.baseline.median),
          m.ratio === null ? '—' : `${m.ratio.toFixed(2)}×`,
          m.target,
          m.status === 'info' ? '—' : m.status,
        ]),
  );
}

export function consoleTable(report: BenchReport): string {
  const all = [HEADER, ...rows(report)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  return [line(HEADER), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

export function markdown(report: BenchReport): string {
  const m = report.machine;
  const s = report.settings;
  const table = [HEADER, HEADER.map(() => '---'), ...rows(report)].map((r) => `| ${r.join(' | ')} |`).join('\n');
  return [
    `Last run: ${report.date.slice(0, 10)} (\`npm run bench\`, ${describeRun(s.rounds, s.seconds)}, ` +
      `${s.connections} connections, ${s.objects.toLocaleString('en-US')} business objects in the database unless said otherwise below).`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB memory, ${m.os}; Node ${m.node}; PostgreSQL ${m.postgres}; ` +
      `load average ${m.loadAverage.before.toFixed(1)} before and ${m.loadAverage.after.toFixed(1)} after the run` +
      (busy(m) ? ' (**other work was running: expect noise**).' : '.'),
    '',
    table,
    '',
    ...otherRuns(report),
    report.failed.length
      ? `**Failed benchmarks: ${report.failed.join(', ')}.**`
      : report.targetsMet
        ? 'Every target was met.'
        : '**Some targets were missed** (see the result column).',
  ].join('\n');
}

/**
 * A line naming the benchmarks run otherwise than the settings say: single runs, no baseline,
 * other connections, another dataset size.
 */
function otherRuns(report: BenchReport): string[] {
  const s = report.settings;
  const usual = describeRun(s.rounds, s.seconds);
  const notes = report.benchmarks.flatMap((b) => {
    const parts: string[] = [];
    if (b.run !== undefined && b.run !== usual) parts.push(b.run);
    if (b.connections !== undefined && b.connections !== s.connections) parts.push(`${b.connections} connections`);
    if (b.objects !== undefined && b.objects !== s.objects) {
      parts.push(`on ${b.objects.toLocaleString('en-US')} business objects`);
    }
    return parts.length ? [`\`${b.name}\` ${parts.join(', ')}`] : [];
  });
  return notes.length ? [`Run otherwise: ${notes.join('; ')}.`, ''] : [];
}

export function writeJson(file: string, report: BenchReport): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}

export const DOCS_START = '<!-- bench:results:start -->';
export const DOCS_END = '<!-- bench:results:end -->';

/** Replaces the generated section of docs/benchmarks.md, keeping the hand-written text around it. */
export function updateDocs(file: string, report: BenchReport): void {
  const section = `${DOCS_START}\n${markdown(report)}\n${DOCS_END}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(DOCS_START);
  const end = current.indexOf(DOCS_END);
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + section + current.slice(end + DOCS_END.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, next);
}
