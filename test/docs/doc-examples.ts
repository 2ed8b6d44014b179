import { exampleCell } from '../../src/qml/reference/reference.js';
import { jsonDifference, readShownJson, textMatches } from './doc-answers.js';

/**
 * The curl examples of a Markdown page and the answers it shows for them.
 *
 * - An example is a `curl` command in a ```sh block (continued over lines by `\` or an open
 *   quote). The other commands of such a block (`B=…`, `printf … > report.pdf`) are run too, in
 *   page order, before the examples after them. Comment lines are left out, except:
 * - `# → <status> <answer>` on the line after a command: what it answers. The answer is JSON when
 *   it starts with `{` or `[`, else text; with none, the body is empty, or, for the last command
 *   of its block, the block that follows it: a fenced block (`json`, `jsonc`: JSON; others: text)
 *   or a Markdown table (the rows of a report: `items`, each value as docs/qml-reference.md
 *   shows it). `…` stands for what the page leaves out (see doc-answers.ts).
 * - `<!-- not run: <why> -->` right before a ```sh block (or before the `<!-- test: … -->` mark
 *   another test names the block by): its commands are not run (they need what the test cannot
 *   give, such as a second machine); they are counted and listed.
 * Every example has an answer line or a not-run mark; a page that breaks this is refused.
 */

export type ShownAnswer =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'rows'; rows: string[][] };

export interface Example {
  kind: 'curl';
  line: number;
  command: string;
  status: number;
  answer: ShownAnswer;
  /** The line where the answer is shown. */
  answerLine: number;
}

export interface ShellStep {
  kind: 'shell';
  line: number;
  command: string;
}

export interface Skipped {
  line: number;
  reason: string;
  examples: number;
}

export interface DocExamples {
  doc: string;
  steps: (Example | ShellStep)[];
  skipped: Skipped[];
}

interface Command {
  line: number;
  text: string;
  answer?: { line: number; text: string };
}

const FENCE = /^\s*```(\S*)\s*$/;
const NOT_RUN = /^<!-- not run: (.+) -->$/;
const TEST_MARK = /^<!-- test: .+ -->$/;
const ANSWER = /^#\s*→\s*(.*)$/;

/** Splits the lines of a sh block into commands (as the shell joins them) and answer lines. */
function commands(lines: string[], firstLine: number, doc: string): Command[] {
  const out: Command[] = [];
  let current: Command | null = null;
  let quote: "'" | '"' | null = null;
  for (const [k, line] of lines.entries()) {
    const at = firstLine + k;
    if (!current) {
      const trimmed = line.trim();
      if (trimmed === '') continue;
      const answer = ANSWER.exec(trimmed);
      if (answer) {
        const last = out.at(-1);
        if (!last || last.answer) throw new Error(`${doc}:${at}: an answer line under no command`);
        last.answer = { line: at, text: answer[1].trim() };
        continue;
      }
      if (trimmed.startsWith('#')) continue;
      current = { line: at, text: '' };
      out.push(current);
    }
    current.text += (current.text ? '\n' : '') + line;
    let escaped = false;
    for (const c of line) {
      if (escaped) escaped = false;
      else if (c === '\\' && quote !== "'") escaped = true;
      else if (quote) {
        if (c === quote) quote = null;
      } else if (c === "'" || c === '"') quote = c;
    }
    // A line ending in `\` outside quotes goes on; so does an open quote.
    if (!quote && !escaped) current = null;
  }
  if (quote) throw new Error(`${doc}:${out.at(-1)?.line}: a quote left open at the end of the block`);
  return out;
}

function readAnswer(doc: string, at: number, text: string): { status: number; answer: ShownAnswer | null } {
  const m = /^(\d{3})(?:\s+([\s\S]*))?$/.exec(text);
  if (!m) throw new Error(`${doc}:${at}: an answer line starts with the status: "# → 200 …", not "# → ${text}"`);
  const body = (m[2] ?? '').trim();
  if (body === '') return { status: Number(m[1]), answer: null };
  if (/^[{[]/.test(body)) {
    try {
      return { status: Number(m[1]), answer: { kind: 'json', value: readShownJson(body) } };
    } catch (e) {
      throw new Error(`${doc}:${at}: ${(e as Error).message}`, { cause: e });
    }
  }
  return { status: Number(m[1]), answer: { kind: 'text', text: body } };
}

function tableRows(lines: string[]): string[][] {
  const cells = (row: string) =>
    row
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  // Heading and separator first.
  return lines.slice(2).map(cells);
}

/** The examples of one page, in page order. */
export function docExamples(doc: string, markdown: string): DocExamples {
  const lines = markdown.split('\n');
  const out: DocExamples = { doc, steps: [], skipped: [] };
  let i = 0;
  const nextNonBlank = (from: number) => {
    while (from < lines.length && lines[from].trim() === '') from++;
    return from;
  };
  while (i < lines.length) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      i++;
      continue;
    }
    const start = i;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
    const body = lines.slice(start + 1, end);
    i = end + 1;
    if (!['sh', 'bash', 'shell'].includes(open[1])) continue;
    const cmds = commands(body, start + 2, doc);
    const curls = cmds.filter((c) => /^\s*curl\s/.test(c.text));
    if (curls.length === 0) continue;
    let before = start - 1;
    // Blank lines and the markers another page test names its blocks by (`<!-- test: … -->`) may stand between.
    while (before >= 0 && (lines[before].trim() === '' || TEST_MARK.test(lines[before].trim()))) before--;
    const notRun = before >= 0 ? NOT_RUN.exec(lines[before].trim()) : null;
    if (notRun) {
      out.skipped.push({ line: start + 2, reason: notRun[1], examples: curls.length });
      continue;
    }
    for (const [k, c] of cmds.entries()) {
      if (!curls.includes(c)) {
        if (c.answer) throw new Error(`${doc}:${c.answer.line}: an answer line under a command that is not curl`);
        out.steps.push({ kind: 'shell', line: c.line, command: c.text });
        continue;
      }
      if (!c.answer) {
        throw new Error(
          `${doc}:${c.line}: a curl example without a "# → <status> <answer>" line under it ` +
            '(or a "<!-- not run: why -->" line before its block)',
        );
      }
      const { status, answer } = readAnswer(doc, c.answer.line, c.answer.text);
      let shown: ShownAnswer = answer ?? { kind: 'empty' };
      let answerLine = c.answer.line;
      if (!answer && k === cmds.length - 1) {
        // The answer may be the block or table that follows the example's block.
        const n = nextNonBlank(i);
        const fence = n < lines.length ? FENCE.exec(lines[n]) : null;
        if (fence && !['sh', 'bash', 'shell'].includes(fence[1])) {
          let close = n + 1;
          while (close < lines.length && !/^\s*```\s*$/.test(lines[close])) close++;
          const text = lines.slice(n + 1, close).join('\n');
          shown = /^jsonc?$/.test(fence[1])
            ? { kind: 'json', value: readShownJsonAt(doc, n + 2, text) }
            : { kind: 'text', text };
          answerLine = n + 2;
          i = close + 1;
        } else if (n < lines.length && lines[n].trimStart().startsWith('|')) {
          let last = n;
          while (last < lines.length && lines[last].trimStart().startsWith('|')) last++;
          shown = { kind: 'rows', rows: tableRows(lines.slice(n, last)) };
          answerLine = n + 1;
          i = last;
        }
      }
      out.steps.push({ kind: 'curl', line: c.line, command: c.text, status, answer: shown, answerLine });
    }
  }
  return out;
}

function readShownJsonAt(doc: string, line: number, text: string): unknown {
  try {
    return readShownJson(text);
  } catch (e) {
    throw new Error(`${doc}:${line}: ${(e as Error).message}`, { cause: e });
  }
}

const brief = (s: string) => (s.length > 400 ? `${s.slice(0, 400)}…(${s.length} characters)` : s);

/** How a real answer differs from the example's shown one, or null when it does not. */
export function answerDifference(example: Example, status: number, body: string): string | null {
  const { answer } = example;
  if (status !== example.status)
    return `status: shown ${example.status}, got ${status} with ${brief(body) || 'no body'}`;
  const text = body.replace(/\s+$/, '');
  switch (answer.kind) {
    case 'empty':
      return text === '' ? null : `shown no body, got ${brief(text)}`;
    case 'text':
      return textMatches(answer.text.replace(/\s+$/, ''), text)
        ? null
        : `body: shown\n${brief(answer.text)}\ngot\n${brief(text)}`;
    case 'json':
    case 'rows': {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return `shown JSON, got ${brief(text)}`;
      }
      if (answer.kind === 'json') return jsonDifference(answer.value, json);
      const rows = (json as { items?: unknown[][] }).items;
      if (!Array.isArray(rows)) return `shown report rows, got ${brief(text)}`;
      const shown = { count: answer.rows.length, items: answer.rows, _runtime: '…' };
      return jsonDifference(shown, { ...(json as object), items: rows.map((r) => r.map(exampleCell)) });
    }
  }
}
