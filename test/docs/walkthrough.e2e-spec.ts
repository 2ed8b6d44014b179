import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

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

describe('docs/walkthrough.md', () => {
  let db: ScratchDatabase;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    // A database of its own: the page creates a user, a container and a rule of fixed names.
    db = await scratchDatabase({ demo: true });
    t = await createTestApp({ DATABASE_URL: db.url });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('answers every command of the page as the page says, in order', async () => {
    const all = steps(readFileSync(DOC, 'utf8'));
    expect(all.length).toBeGreaterThanOrEqual(10);
    for (const step of all) {
      const { url, init } = toRequest(step.args, base);
      const res = await fetch(url, init);
      const text = await res.text();
      const seen = { step: `${init.method} ${url}`, status: res.status, body: text };
      expect({ ...seen, status: step.status }).toEqual(seen);
      if (typeof step.expected === 'string') expect(text).toBe(step.expected);
      else if (step.expected) expect(JSON.parse(text)).toMatchObject(step.expected);
    }
  });
});
