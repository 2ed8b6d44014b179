import { jest } from '@jest/globals';
import { PeriodicTask, type PeriodicTaskOptions } from './periodic-task.js';

/** A run that ends only when told to, and what it was given. */
function controlledRun() {
  const ends: (() => void)[] = [];
  const signals: AbortSignal[] = [];
  const run = jest.fn((signal: AbortSignal) => {
    signals.push(signal);
    return new Promise<void>((resolve) => ends.push(resolve));
  });
  return { run, signals, endRun: (i: number) => ends[i]() };
}

describe('a periodic task', () => {
  const tasks: PeriodicTask[] = [];
  const task = (options: PeriodicTaskOptions) => {
    const t = new PeriodicTask(options);
    tasks.push(t);
    return t;
  };

  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(async () => {
    for (const t of tasks.splice(0)) await t.stop();
    jest.useRealTimers();
  });

  it('runs every interval once started, the first run one interval after the start', async () => {
    const run = jest.fn(() => Promise.resolve());
    const t = task({ name: 'counting', intervalMs: 1000, run });
    await jest.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(0);
    t.start();
    await jest.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('starts one timer however often it is started, and it does not keep the process alive', () => {
    const setInterval = jest.spyOn(globalThis, 'setInterval');
    const t = task({ name: 'unref', intervalMs: 1000, run: () => Promise.resolve() });
    t.start();
    t.start();
    expect(setInterval).toHaveBeenCalledTimes(1);
    expect(jest.getTimerCount()).toBe(1);
    const timer = setInterval.mock.results[0].value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    setInterval.mockRestore();
  });

  it('never runs twice at once: ticks during a run are skipped', async () => {
    const { run, endRun } = controlledRun();
    task({ name: 'slow', intervalMs: 1000, run }).start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(2500); // two ticks while the first run goes on
    expect(run).toHaveBeenCalledTimes(1);
    endRun(0);
    await jest.advanceTimersByTimeAsync(500); // the next tick after the run ended
    expect(run).toHaveBeenCalledTimes(2);
    endRun(1);
  });

  it('is disabled by an interval of 0: no timer, no run', async () => {
    const run = jest.fn(() => Promise.resolve());
    task({ name: 'off', intervalMs: 0, run }).start();
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(run).not.toHaveBeenCalled();
  });

  it('logs a failed run as an error with its stack, throws nothing, and runs again at the next interval', async () => {
    const error = jest.fn();
    const run = jest.fn(() => Promise.reject(new Error('database gone')));
    task({ name: 'sweeping things', intervalMs: 1000, run, logger: { error } }).start();
    await jest.advanceTimersByTimeAsync(2000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledWith('sweeping things failed', expect.stringContaining('Error: database gone'));
  });

  it('also when the run throws at once, and hands the error to onError when given', async () => {
    const onError = jest.fn();
    const failure = new Error('bad');
    const run = jest.fn((): Promise<void> => {
      throw failure;
    });
    task({ name: 'throwing', intervalMs: 1000, run, onError }).start();
    await jest.advanceTimersByTimeAsync(2000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls).toEqual([[failure], [failure]]);
  });

  it('keeps running when onError itself throws', async () => {
    const run = jest.fn(() => Promise.reject(new Error('first')));
    const onError = jest.fn(() => {
      throw new Error('reporting failed');
    });
    task({ name: 'reporting', intervalMs: 1000, run, onError }).start();
    await jest.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(3);
    expect(onError).toHaveBeenCalledTimes(3);
  });

  it('on stop, aborts the signal of the run under way and waits for it; then never runs again', async () => {
    const { run, signals, endRun } = controlledRun();
    const t = task({ name: 'stopping', intervalMs: 1000, run });
    t.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(signals[0].aborted).toBe(false);

    let stopped = false;
    const stopping = t.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(signals[0].aborted).toBe(true);
    expect(stopped).toBe(false);
    endRun(0);
    await stopping;
    expect(stopped).toBe(true);

    expect(jest.getTimerCount()).toBe(0);
    t.start();
    await jest.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('does not report a run that ended by the abort of its signal', async () => {
    const onError = jest.fn();
    const run = (signal: AbortSignal) =>
      new Promise<void>((_, reject) =>
        signal.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError'))),
      );
    const t = task({ name: 'aborted', intervalMs: 1000, run, onError });
    t.start();
    await jest.advanceTimersByTimeAsync(1000);
    await t.stop();
    expect(onError).not.toHaveBeenCalled();
  });

  it('stops at once when it never started or no run is under way', async () => {
    await task({ name: 'idle', intervalMs: 1000, run: () => Promise.resolve() }).stop();
    const started = task({ name: 'idle too', intervalMs: 1000, run: () => Promise.resolve() });
    started.start();
    await started.stop();
    expect(jest.getTimerCount()).toBe(0);
  });
});
