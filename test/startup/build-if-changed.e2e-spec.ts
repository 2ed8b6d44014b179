import { spawn } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { staleReason } from '../../scripts/build-sources.mjs';
import { DEMO_DATASET } from '../../src/import/demo-seed.js';
import { testDatabaseUrl } from '../helpers/test-database.js';

const MAIN = join(process.cwd(), 'dist/src/main.js');

/** Runs `npm run --silent <script> -- <args>`, with `stdin` piped in; fails after `ms`. */
function npmRun(script: string, args: string[], env: NodeJS.ProcessEnv, stdin?: string, ms = 120_000) {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    env: { ...process.env, ...env },
    stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  if (stdin) createReadStream(stdin).pipe(child.stdin!);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm run ${script} did not end within ${ms} ms; stdout:\n${stdout}\nstderr:\n${stderr}`));
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * `npm start`, `npm run import` and `npm run files:migrate` build only when a source changed since
 * the last complete build (scripts/build-if-changed.mjs); they rebuilt everything at every call,
 * which took a minute. The tests run on a project `npm run build` has just built.
 */
describe('the commands that build first, on a built project', () => {
  let builtAt: number;
  beforeAll(() => {
    const reason = staleReason(process.cwd());
    if (reason !== null) throw new Error(`run \`npm run build\` first (as npm test does): ${reason}`);
    builtAt = statSync(MAIN).mtimeMs;
  });
  /** Nothing was built again. */
  const notRebuilt = () => expect(statSync(MAIN).mtimeMs).toBe(builtAt);

  it('npm run import imports without building, printing only its own lines', async () => {
    const res = await npmRun('import', ['-'], { DATABASE_URL: testDatabaseUrl() }, DEMO_DATASET);
    expect({ ...res, stdout: res.stdout.replace(/\(\d+\.\d s\)/, '(…)') }).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^imported standard input: \d+ roles, 4 users, 3 containers, .*\(…\)\n$/),
      // Only the import's own progress (off a terminal: what the dataset holds).
      stderr: expect.stringMatching(/^importing standard input: \d+ objects, \d+ files \([^)]+\), \d+ links\n$/),
    });
    notRebuilt();
  });

  it('npm run files:migrate and npm start run at once', async () => {
    const migrate = await npmRun('files:migrate', [], {});
    expect(migrate).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^--to is required\nusage: npm run files:migrate -- --to /),
    });
    const start = await npmRun('start', [], { PORT: 'abc' });
    expect(start).toEqual({
      code: 1,
      stdout: '',
      stderr: 'invalid configuration:\n  PORT: "abc" is not an integer\n',
    });
    notRebuilt();
  });
});
