import { Logger } from '@nestjs/common';

export interface PeriodicTaskOptions {
  /** What the task does, for the log line of a failed run: "sweeping expired query sessions". */
  name: string;
  /** Milliseconds from the start of one run to the next; 0: the task never runs by itself. */
  intervalMs: number;
  /** One run. `signal` aborts when the task is stopped: a long run should end at its next step. */
  run: (signal: AbortSignal) => Promise<unknown>;
  /** Where a failed run goes; by default `<name> failed` and the stack are logged as an error. */
  onError?: (error: unknown) => void;
  /** The logger of that default line (the owner's, for its context). */
  logger?: Pick<Logger, 'error'>;
}

/**
 * Periodic background work of a service (sweeps, heartbeats), all run the same way. The owner
 * starts it once the application is up (onApplicationBootstrap: a start that fails leaves no
 * timer behind) and stops it on shutdown (onModuleDestroy, before the pools close). It runs
 * every `intervalMs`, never twice at once (a tick while a run is under way is skipped), on a
 * timer that does not keep the process alive; a failed run is reported, never thrown. `stop()`
 * aborts the signal of a run under way and waits for it to end. An interval of 0 disables it.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly stopping = new AbortController();

  constructor(private readonly options: PeriodicTaskOptions) {}

  /** Starts the timer; the first run comes one interval later. Nothing when disabled or stopped. */
  start(): void {
    if (this.options.intervalMs <= 0 || this.timer || this.stopping.signal.aborted) return;
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run under way, whose signal is aborted. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping.abort();
    await this.running;
  }

  private tick(): Promise<void> {
    if (this.running || this.stopping.signal.aborted) return Promise.resolve();
    const signal = this.stopping.signal;
    this.running = Promise.resolve()
      .then(() => this.options.run(signal))
      .then(
        () => undefined,
        (e: unknown) => this.failed(e, signal),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private failed(error: unknown, signal: AbortSignal): void {
    // A run that ended by the abort of its signal was stopped, it did not fail.
    if (signal.aborted && (error as { name?: unknown } | null)?.name === 'AbortError') return;
    try {
      if (this.options.onError) this.options.onError(error);
      else {
        const logger = this.options.logger ?? new Logger('PeriodicTask');
        logger.error(`${this.options.name} failed`, error instanceof Error ? error.stack : String(error));
      }
    } catch {
      // Reporting must not end the task either.
    }
  }
}
