import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The project root: the folder holding prisma.config.ts. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'prisma.config.ts'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('prisma.config.ts not found');
    dir = parent;
  }
  return dir;
}

// `prisma migrate deploy` prints one of these when it is done. The WebAssembly schema engine of
// Prisma 6.19 then leaves a 10-second timer running, so the process lingers although its work is
// committed: once the line is out (and stderr is quiet), the process is stopped instead of waited for.
const DONE = /All migrations have been successfully applied\.|No pending migrations to apply\./;

/** Applies pending migrations with `prisma migrate deploy` (the JavaScript schema engine). */
export async function applyMigrations(databaseUrl: string): Promise<void> {
  const root = projectRoot();
  const cli = createRequire(join(root, 'package.json')).resolve('prisma/build/index.js');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let done = false;
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (!done && DONE.test(output)) {
        done = true;
        setTimeout(() => child.kill(), 300).unref();
      }
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 || done
        ? resolve()
        : reject(new Error(`prisma migrate deploy failed (exit ${code}):\n${output.trim()}`)),
    );
  });
}
