// Runs `npm run build` when a source differs from what the last complete build was made from
// (build-sources.mjs), and otherwise nothing: `npm start`, `npm run import` and
// `npm run files:migrate` run it before the compiled code. The build's own output is shown only
// when it fails; a line on standard error says why it builds.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason } from './build-sources.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reason = staleReason(root);
if (reason !== null) {
  process.stderr.write(`building first (${reason}): npm run build …\n`);
  const started = Date.now();
  // The npm that runs this script (npm_execpath), else the one on the PATH.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, 'run', 'build']] : ['npm', ['run', 'build']];
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise((resolve) => {
    child.on('error', (e) => {
      output += `${e.message}\n`;
      resolve(1);
    });
    child.on('close', (c) => resolve(c ?? 1));
  });
  if (code !== 0) {
    process.stderr.write(`${output.trimEnd()}\nthe build failed (exit ${code})\n`);
    process.exit(code);
  }
  process.stderr.write(`built in ${Math.round((Date.now() - started) / 1000)} s\n`);
}
