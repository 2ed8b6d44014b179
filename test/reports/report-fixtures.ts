import { readFileSync } from 'node:fs';

interface DemoReport {
  name: string;
  container: string;
  description: string;
  qml: string;
}

const dataset = JSON.parse(readFileSync(new URL('../../prisma/demo-dataset.json', import.meta.url), 'utf8')) as {
  reports: DemoReport[];
};

/** The QML of a demo report template, by name. */
export function demoQml(name: string): string {
  const r = dataset.reports.find((x) => x.name === name);
  if (!r) throw new Error(`no demo report ${name}`);
  return r.qml;
}

/** A one-table QML query over documents with the given select items and where clause. */
export function docQuery(select: string, where = '', extra = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement><query>
    <select>${select}</select>
    <from><table alias="D">wt.doc.WTDocument</table></from>
    ${where ? `<where>${where}</where>` : ''}
    ${extra}
  </query></statement>
</qml>`;
}

/** A condition on the document table D. */
export function cond(path: string, op: string, value: string): string {
  return `<condition><operand><column alias="D">${path}</column></operand><operator type="${op}"/><operand><constant>${value}</constant></operand></condition>`;
}

export const NUMBER = '<column alias="D" heading="Number">master&gt;number</column>';
export const LATEST = cond('iterationInfo.latest', 'equal', '1');

/** Polls every 10 ms until the condition holds (two connections forced to interleave); fails after 10 s. */
export async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting until ${what}`);
}
