// Writes build-info.json (build number and date of the version record) before compiling.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

let build = Number(process.env.BUILD_NUMBER ?? NaN);
if (!Number.isSafeInteger(build)) {
  try {
    build = Number(execFileSync('git', ['rev-list', '--count', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
  } catch {
    build = 0;
  }
}
if (!Number.isSafeInteger(build)) build = 0;
const date = new Date().toISOString().slice(0, 10);
writeFileSync(new URL('../build-info.json', import.meta.url), JSON.stringify({ build, date }) + '\n');
