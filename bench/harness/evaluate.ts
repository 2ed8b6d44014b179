/** Medians, ratios and target checks: from per-round samples to one result per metric. */
import type { MetricResult, MetricSpec, Target } from './types.js';

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function describeTarget(t: Target | undefined): string {
  if (!t) return '—';
  const what = t.kind === 'ratio' ? (n: number) => `${n}× baseline` : (n: number) => String(n);
  const parts: string[] = [];
  if (t.min !== undefined) parts.push(`≥ ${what(t.min)}`);
  if (t.max !== undefined) parts.push(`≤ ${what(t.max)}`);
  return parts.join(', ');
}

function meets(t: Target, value: number | null): boolean {
  if (value === null || Number.isNaN(value)) return false;
  return (t.min === undefined || value >= t.min) && (t.max === undefined || value <= t.max);
}

export function evaluate(spec: MetricSpec, service: number[], baseline: number[]): MetricResult {
  const s = median(service);
  const b = median(baseline);
  const ratio = b === 0 || Number.isNaN(b) ? null : s / b;
  const target = spec.target;
  const status = !target ? 'info' : meets(target, target.kind === 'ratio' ? ratio : s) ? 'pass' : 'fail';
  return {
    name: spec.name,
    unit: spec.unit,
    direction: spec.direction,
    service: { median: s, samples: service },
    baseline: { median: b, samples: baseline },
    ratio,
    target: describeTarget(target),
    status,
  };
}
