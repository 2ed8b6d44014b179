/** Memory of a child process, read from /proc (Linux): resident set size and its peak. */
import { readFileSync, writeFileSync } from 'node:fs';

export interface MemoryStatus {
  /** VmRSS: resident now. */
  rssKb: number;
  /** VmHWM: the peak resident set ("high water mark") since start or the last reset. */
  hwmKb: number;
}

export function memoryStatus(pid: number): MemoryStatus {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
}

/**
 * Resets VmHWM to the current RSS (writing 5 to clear_refs, Linux 4.0+), so a peak measured
 * afterwards belongs to the coming load, not to an earlier benchmark. False if not allowed.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples VmRSS periodically; VmHWM alone would miss nothing, but is not resettable everywhere. */
export class RssSampler {
  private maxKb = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 100,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  private sample(): void {
    try {
      this.maxKb = Math.max(this.maxKb, memoryStatus(this.pid).rssKb);
    } catch {
      // The process ended; the caller notices through its own checks.
    }
  }

  /** Stops sampling; the peak in MiB, including VmHWM when the kernel kept it. */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    let peak = this.maxKb;
    try {
      peak = Math.max(peak, memoryStatus(this.pid).hwmKb);
    } catch {
      // as above
    }
    return peak / 1024;
  }
}
