/** Command-line entry points (bench/run.ts, bench/data/generate.ts) that tests can also import. */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Runs `main` when the module at `moduleUrl` is the script node was started with, not when it
 * is imported; exits with main's code, or with what `onError` makes of a throw (after it
 * printed the message).
 */
export function runIfEntry(moduleUrl: string, main: () => Promise<number>, onError: (e: unknown) => number): void {
  if (process.argv[1] === undefined || realpathSync(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  main().then(
    (code) => process.exit(code),
    (e: unknown) => process.exit(onError(e)),
  );
}
