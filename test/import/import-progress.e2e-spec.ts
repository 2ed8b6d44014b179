import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';

const CLI = join(process.cwd(), 'dist/src/import/import.cli.js');
const OBJECTS = 520;

/**
 * `npm run import` of thousands of documents ran for minutes without a sign of life. Off a
 * terminal (a log, a pipe) it writes plain lines to standard error: what the dataset holds, then
 * how far it is every 250 objects (and every 5 s between); its summary stays on standard output.
 */
describe('npm run import off a terminal', () => {
  let db: ScratchDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await scratchDatabase({ demo: true });
    dir = mkdtempSync(join(tmpdir(), 'pdm-import-progress-'));
  });
  afterAll(async () => {
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says what it stores as it goes', async () => {
    const file = join(dir, 'many.json');
    const objects = Array.from({ length: OBJECTS }, (_, i) => ({
      class: 'wt.doc.WTDocument',
      number: `PROGRESS-${String(i).padStart(4, '0')}`,
      name: `Document ${i}`,
      container: 'Drive Unit',
      files: [{ role: 'PRIMARY', filename: 'notes.txt', mimetype: 'text/plain', text: 'x'.repeat(100) }],
    }));
    writeFileSync(file, JSON.stringify({ format: 'pdm-dataset/1', objects }));

    // Standard error is a pipe here, as in a log: plain lines.
    const child = spawn(process.execPath, [CLI, file], {
      env: { ...process.env, DATABASE_URL: db.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the import did not end within 240 s; stderr:\n${stderr}`));
      }, 240_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });

    expect({ code, stdout: stdout.replace(/\(\d+\.\d s\)/, '(…)') }).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        new RegExp(
          `^imported ${file}: \\d+ roles, 0 users, 0 containers, 0 workspaces, 0 types, ` +
            `${OBJECTS} objects, ${OBJECTS} files, 0 links, 0 reports \\(…\\)\n$`,
        ),
      ),
    });
    // 100 bytes a file: 50.8 KiB in all.
    const lines = stderr.split('\n');
    expect(lines[0]).toBe(`importing ${file}: ${OBJECTS} objects, ${OBJECTS} files (50.8 KiB), 0 links`);
    expect(lines.at(-1)).toBe('');
    expect(lines).toEqual(
      expect.arrayContaining([
        `stored 250 of ${OBJECTS} objects, 250 of ${OBJECTS} files (24.4 KiB of 50.8 KiB), 0 of 0 links`,
        `stored 500 of ${OBJECTS} objects, 500 of ${OBJECTS} files (48.8 KiB of 50.8 KiB), 0 of 0 links`,
      ]),
    );
    // Others only after 5 s without a line, on a slow machine.
    for (const line of lines.slice(1, -1)) {
      expect(line).toMatch(
        new RegExp(
          `^stored \\d+ of ${OBJECTS} objects, \\d+ of ${OBJECTS} files \\(.+ of 50\\.8 KiB\\), 0 of 0 links$`,
        ),
      );
    }
  }, 300_000);
});
