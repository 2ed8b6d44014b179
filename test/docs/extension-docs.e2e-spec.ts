import { readFileSync } from 'node:fs';
import request from 'supertest';
import { importFile } from '../../src/import/import-file.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { useTestApp } from '../helpers/use-test-app.js';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/**
 * The fenced blocks of a page marked `<!-- test: <name> -->`, by name. A block marked
 * `<!-- test: <name> (<file>) -->` shows that file of the repository, exactly.
 */
function blocks(page: string): Map<string, string> {
  const out = new Map<string, string>();
  const marked = /<!-- test: ([\w-]+)(?: \(([\w./-]+)\))? -->\n```\w*\n([\s\S]*?)```/g;
  for (const [, name, file, body] of read(`docs/${page}`).matchAll(marked)) {
    if (file) expect({ file, body }).toEqual({ file, body: read(file) });
    out.set(name, body);
  }
  return out;
}

function block(all: Map<string, string>, name: string): string {
  const found = all.get(name);
  if (found === undefined) throw new Error(`no block marked "test: ${name}"`);
  return found;
}

/** What a page's `curl -u <user>:<password> … --data-binary @<file> …/reports` sends, and as whom. */
function curl(commands: string): { user: [string, string]; qml: string } {
  const m = /^curl -u (\w+):(\S+) .*--data-binary @(\S+) \S+\/reports$/m.exec(commands);
  if (!m) throw new Error(`no curl -u … --data-binary @… /reports line in:\n${commands}`);
  return { user: [m[1], m[2]], qml: read(m[3]) };
}

/** The dataset a page's `npm run import -- <file>` line loads. */
function importedFile(commands: string): string {
  const m = /^npm run import -- (\S+)$/m.exec(commands);
  if (!m) throw new Error(`no npm run import line in:\n${commands}`);
  return new URL(m[1], root).pathname;
}

/** An answer as a page shows it: `…` in a string stands for any text (request ids, long lists). */
function shown(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shown);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shown(x)]));
  if (typeof v !== 'string' || !v.includes('…')) return v;
  const pattern = v
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return expect.stringMatching(new RegExp(`^${pattern}$`));
}

/**
 * The examples of docs/catalog.md (extending a standard class) and docs/migrating-templates.md
 * (a template as Windchill exports it, its 400, the extension that makes it run) do what the
 * pages say, with the commands they show, on a database of their own: the extensions change the
 * catalog of every reader.
 */
describe('the extension examples of the documentation', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await scratchDatabase({ demo: true });
  });
  afterAll(() => scratch?.drop());
  const t = useTestApp(() => ({ DATABASE_URL: scratch.url, CATALOG_CHECK_INTERVAL_MS: '0' }));

  const run = ({ user, qml }: { user: [string, string]; qml: string }) =>
    request(t.http)
      .post('/reports')
      .auth(...user)
      .set('Content-Type', 'text/xml')
      .send(qml);
  const answered = (body: unknown, shownAnswer: string) =>
    expect(body).toEqual({ ...(shown(JSON.parse(shownAnswer)) as object), _runtime: expect.any(Number) });

  it('docs/catalog.md: a document property modeled over a custom attribute, read by a template', async () => {
    const doc = blocks('catalog.md');
    const commands = block(doc, 'extension-run');
    const sent = curl(commands);
    expect(sent.qml).toBe(block(doc, 'extension-template'));
    const before = await run(sent);
    expect([before.status, before.body.message]).toEqual([
      400,
      expect.stringContaining('unknown property "acmeLanguage" of wt.doc.WTDocument'),
    ]);
    expect(read(importedFile(commands))).toBe(block(doc, 'extension-dataset'));
    await importFile(importedFile(commands), scratch.url);
    const res = await run(sent);
    expect(res.status).toBe(200);
    answered(res.body, block(doc, 'extension-answer'));
  });

  it('docs/migrating-templates.md: the 400 of an exported template, then its rows once the site declares its additions', async () => {
    const doc = blocks('migrating-templates.md');
    const first = curl(block(doc, 'first-run'));
    expect(first.qml).toBe(block(doc, 'exported-template'));
    const refused = await run(first);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(shown(JSON.parse(block(doc, 'first-answer'))));
    const dataset = importedFile(block(doc, 'import-run'));
    expect(read(dataset)).toBe(block(doc, 'site-dataset'));
    await importFile(dataset, scratch.url);
    for (const step of ['second', 'third']) {
      const res = await run(curl(block(doc, `${step}-run`)));
      expect(res.status).toBe(200);
      answered(res.body, block(doc, `${step}-answer`));
    }
  });
});
