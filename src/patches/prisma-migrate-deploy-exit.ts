/**
 * Patch of the prisma CLI, written for 6.19.3 (accepted on 6.19.x: see versions.ts).
 *
 * Touches: what `prisma migrate deploy` prints when it is done ("All migrations have been
 * successfully applied." or "No pending migrations to apply."): text for people, not an
 * interface. It is read only to know when to stop the process; whether the migrations were
 * applied is read from the database (src/prisma/migrate.ts).
 *
 * Why: the WebAssembly schema engine of Prisma 6.19 leaves a 10-second timer running once
 * `migrate deploy` has done its work (committed), so the process lingers that long. Once the line
 * is out, the process is stopped 300 ms later instead of waited for.
 *
 * Remove when: `npx prisma migrate deploy` on an up-to-date database exits at once (in well under
 * 10 s). Without the patch the start takes 10 s longer, and nothing else changes.
 */
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

const DONE = /All migrations have been successfully applied\.|No pending migrations to apply\./;

/** The prisma CLI process, run with its standard output piped. */
type Cli = ChildProcessByStdio<null, Readable, Readable>;

/** Stops `child` (prisma migrate deploy) shortly after it printed that it is done. */
export function stopWhenDone(child: Cli): void {
  let printed = '';
  let done = false;
  child.stdout.on('data', (d: Buffer) => {
    printed += d.toString();
    if (!done && DONE.test(printed)) {
      done = true;
      setTimeout(() => child.kill(), 300).unref();
    }
  });
}
