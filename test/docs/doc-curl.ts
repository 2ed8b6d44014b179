import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerDifference, type DocExamples } from './doc-examples.js';

/** The address the pages use; the examples are sent to the service under test instead. */
const DOC_ORIGIN = 'localhost:3000';
/** Longest a curl may take, and the shell around it. */
const CURL_MAX_SECONDS = 30;

export interface DocRun {
  /** One line per example whose answer differs: `docs/x.md:12: <the difference>`. */
  failures: string[];
  /** How many examples ran. */
  ran: number;
}

/**
 * Runs a page's commands in order with bash and the real curl, as a reader pastes them into a
 * shell in a clone of the repository (a folder of its own holding `docs`, so `@docs/examples/…`
 * is found and files the page writes stay there). `localhost:3000` becomes the service's
 * address, and back again in the answers. Every command gets the shell commands before it (their
 * variables and files); curl is given a time limit and its answer's status and body are compared
 * with what the page shows.
 */
export async function runDocExamples(page: DocExamples, port: number, repoDir: string): Promise<DocRun> {
  const work = mkdtempSync(join(tmpdir(), 'pdm-doc-examples-'));
  symlinkSync(join(repoDir, 'docs'), join(work, 'docs'));
  const bodyFile = join(work, '.answer-body');
  const origin = `localhost:${port}`;
  const local = (command: string) => command.replaceAll(DOC_ORIGIN, origin);
  const shell: string[] = [];
  const failures: string[] = [];
  let ran = 0;
  try {
    for (const step of page.steps) {
      if (step.kind === 'shell') {
        shell.push(local(step.command));
        continue;
      }
      ran++;
      rmSync(bodyFile, { force: true });
      // curl as a function: the body goes to a file and the status to stdout, whatever the
      // example's own options (an `-o file` of its own is then left without a URL; the file gets a
      // copy of the body, so later commands of the page read it as a reader's would).
      const script = [
        `curl() { command curl --silent --show-error --max-time ${CURL_MAX_SECONDS} --output "$ANSWER_BODY" --write-out '%{http_code}' "$@"; local rc=$? prev=; for a in "$@"; do case "$prev" in -o|--output) cp "$ANSWER_BODY" "$a" 2>/dev/null;; esac; prev=$a; done; return $rc; }`,
        ...shell,
        local(step.command),
      ].join('\n');
      const res = await bash(script, work, { ANSWER_BODY: bodyFile });
      const where = `${page.doc}:${step.line}`;
      if (res.failed) {
        failures.push(`${where}: the command failed (${res.failed}): ${res.stderr.trim()}`);
        continue;
      }
      let body = '';
      try {
        body = readFileSync(bodyFile, 'utf8');
      } catch {
        // No body (204, 304, HEAD): curl writes no file.
      }
      body = body.replaceAll(`//${origin}`, `//${DOC_ORIGIN}`);
      const status = Number(res.stdout.trim().slice(-3));
      const difference = answerDifference(step, status, body);
      if (difference) failures.push(`${where} (answer shown at line ${step.answerLine}): ${difference}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { failures, ran };
}

/**
 * Runs a script with bash (asynchronously: the service may be in this process), killed when it
 * outlives curl's own time limit.
 */
function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ stdout: string; stderr: string; failed?: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd,
      env: { PATH: process.env.PATH, HOME: cwd, LANG: 'C.UTF-8', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const limit = (CURL_MAX_SECONDS + 10) * 1000;
    const timer = setTimeout(() => child.kill('SIGKILL'), limit);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, failed: e.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const failed = signal ? `killed after ${limit} ms` : code !== 0 ? `exit ${code}` : undefined;
      resolve({ stdout, stderr, failed });
    });
  });
}
