import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stopWhenDone } from './prisma-migrate-deploy-exit.js';

// The real CLI, stopped so on every start: test/startup/migrate.e2e-spec.ts.
describe('stopWhenDone (src/patches/prisma-migrate-deploy-exit.ts)', () => {
  it('the installed prisma CLI prints the lines it waits for', () => {
    const cli = readFileSync(createRequire(import.meta.url).resolve('prisma/build/index.js'), 'utf8');
    expect(cli).toContain('All migrations have been successfully applied.');
    expect(cli).toContain('No pending migrations to apply.');
  });

  it('stops a process that lingers after printing that it is done', async () => {
    // Prints the line, then would wait ten minutes.
    const child = spawn(
      process.execPath,
      ['-e', "console.log('No pending migrations to apply.'); setTimeout(() => {}, 600000)"],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    stopWhenDone(child);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) =>
      child.on('exit', (c, s) => r([c, s])),
    );
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('leaves a process alone that has not said so', async () => {
    const child = spawn(process.execPath, ['-e', "console.log('Applying migration `1_init`'); process.exitCode = 3"], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stopWhenDone(child);
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(3);
  });
});
