import { readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { scratchDatabase } from '../helpers/scratch-database.js';
import { createTestApp } from '../helpers/test-app.js';
import { startEmbeddedService, stopService } from '../startup/service-process.js';

const DOC = new URL('../../docs/walkthrough.md', import.meta.url);
const DOC_BASE = 'http://localhost:3000';

interface Step {
  args: string[];
  status: number;
  /** A JSON object the answer must contain, or the exact text of the answer. */
  expected: Record<string, unknown> | string | null;
}

/** Splits a command line as the shell does for the quoting this page uses ('…' and plain words). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1] ?? m[2]);
  return out;
}

/** Every `sh` block of the page: one curl command and the `# →` line with what it answers. */
function steps(markdown: string): Step[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => {
    const [command, answer] = block.split(/^# → /m);
    if (!answer) throw new Error(`a block of walkthrough.md has no "# →" line:\n${block}`);
    const [, status, rest] = /^(\d{3}) ?(.*)\n?$/s.exec(answer)!;
    const text = rest.trim();
    return {
      args: words(command.replace(/\\\n/g, ' ')),
      status: Number(status),
      expected: text === '' ? null : text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : text,
    };
  });
}

/** What curl would send for the options this page uses: -s -u -X -H -d --data-binary and the URL. */
function toRequest(args: string[], base: string): { url: string; init: RequestInit } {
  if (args[0] !== 'curl') throw new Error(`not a curl command: ${args.join(' ')}`);
  const headers: Record<string, string> = {};
  let method: string | undefined;
  let body: string | undefined;
  let url: string | undefined;
  for (let i = 1; i < args.length; i++) {
    const a = args[i];
    if (a === '-s') continue;
    else if (a === '-u') headers.Authorization = `Basic ${Buffer.from(args[++i]).toString('base64')}`;
    else if (a === '-X') method = args[++i];
    else if (a === '-H') {
      const [name, ...value] = args[++i].split(':');
      headers[name.trim()] = value.join(':').trim();
    } else if (a === '-d' || a === '--data-binary') body = args[++i];
    else if (a.startsWith(DOC_BASE)) url = base + a.slice(DOC_BASE.length);
    else throw new Error(`the walkthrough test does not know the curl option ${a}`);
  }
  if (!url) throw new Error(`no URL in: ${args.join(' ')}`);
  return { url, init: { method: method ?? (body === undefined ? 'GET' : 'POST'), headers, body } };
}

/** The service the page's commands are sent to, on a database of its own. */
interface Target {
  base: string;
  close(): Promise<void>;
}

/** The longest one command may take before the test says the service hangs. */
const ANSWER_MS = 60_000;

const TARGETS: [string, () => Promise<Target>][] = [
  [
    'on a PostgreSQL server',
    async () => {
      // A database of its own: the page creates a user, a container and a rule of fixed names.
      const db = await scratchDatabase({ demo: true });
      const t = await createTestApp({ DATABASE_URL: db.url });
      await t.app.listen(0, '127.0.0.1');
      return {
        base: `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`,
        close: async () => {
          await t.close();
          await db.drop();
        },
      };
    },
  ],
  [
    // What a new user runs the page on: `npm start`, no DATABASE_URL, a new DATA_DIR.
    'on the embedded database, as `npm start` runs it',
    async () => {
      const e = await startEmbeddedService();
      return {
        base: e.base,
        close: async () => {
          try {
            expect(await stopService(e.service)).toBe(0);
          } finally {
            rmSync(e.dataDir, { recursive: true, force: true });
          }
        },
      };
    },
  ],
];

describe.each(TARGETS)('docs/walkthrough.md %s', (_where, open) => {
  let target: Target;

  beforeAll(async () => {
    target = await open();
  }, 240_000);
  afterAll(() => target?.close(), 60_000);

  it('answers every command of the page as the page says, in order', async () => {
    const all = steps(readFileSync(DOC, 'utf8'));
    expect(all.length).toBeGreaterThanOrEqual(10);
    for (const step of all) {
      const { url, init } = toRequest(step.args, target.base);
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_MS) }).catch((e: Error) => {
        throw new Error(
          `${init.method} ${url}: ${e.name === 'TimeoutError' ? `no answer within ${ANSWER_MS} ms` : e.message}`,
        );
      });
      const text = await res.text();
      const seen = { step: `${init.method} ${url}`, status: res.status, body: text };
      expect({ ...seen, status: step.status }).toEqual(seen);
      if (typeof step.expected === 'string') expect(text).toBe(step.expected);
      else if (step.expected) expect(JSON.parse(text)).toMatchObject(step.expected);
    }
  }, 180_000);
});
