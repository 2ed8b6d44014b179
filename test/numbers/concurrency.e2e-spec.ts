import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { addMasters, counterOf, generateUrl, useContainer } from './numbers-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const PART = 'wt.part.WTPart';
const AUTH = `Basic ${Buffer.from(USERS.alice.join(':')).toString('base64')}`;

interface Generated {
  status: number;
  items: string[];
}

/** Real parallel HTTP requests on listening servers (supertest would start one server per request). */
async function fire(baseUrls: string[], path: string, n: number): Promise<Generated[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await fetch(`${baseUrls[i % baseUrls.length]}${path}`, {
        method: 'POST',
        headers: { authorization: AUTH },
      });
      const body = (await res.json()) as { items?: string[] };
      return { status: res.status, items: body.items ?? [] };
    }),
  );
}

function counters(items: string[], prefix: string): number[] {
  return items.map((n) => Number(n.slice(prefix.length)));
}

function expectConsecutive(values: number[]): void {
  values.forEach((v, i) => expect(v).toBe(values[0] + i));
}

describe('POST /numbers/generate under concurrency', () => {
  let urls: string[];

  const t = useTestApp();
  const second = useTestApp();
  const c = useContainer({
    name: 'numbers-concurrency',
    members: { alice: 'author' },
    rules: [
      { cls: DOC, prefix: 'CC', width: 8, next: 1000 },
      { cls: PART, prefix: 'CT', width: 8, next: 1 },
    ],
  });
  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    await second.app.listen(0, '127.0.0.1');
    urls = [await t.app.getUrl(), await second.app.getUrl()];
  });

  it('gives 200 parallel requests of count=5 1000 distinct numbers, each response consecutive', async () => {
    const results = await fire(urls.slice(0, 1), generateUrl(DOC, { 'container-name': c.box.name, count: 5 }), 200);
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(200));
    for (const r of results) {
      expect(r.items).toHaveLength(5);
      expectConsecutive(counters(r.items, 'CC'));
    }
    const all = results.flatMap((r) => counters(r.items, 'CC')).sort((a, b) => a - b);
    expect(new Set(all).size).toBe(1000);
    // Nothing was skipped either: the 1000 numbers are exactly 1000..1999.
    expect(all[0]).toBe(1000);
    expect(all[999]).toBe(1999);
    expect(await counterOf(c.pool, c.box.id, DOC)).toBe('2000');
  });

  it('stays duplicate-free across two app instances and around numbers objects already carry', async () => {
    const takenCounters = [3, 4, 17, 40, 41, 42, 43, 44, 45, 46, 120, 333, 334, 600];
    const taken = takenCounters.map((n) => `CT${String(n).padStart(8, '0')}`);
    await addMasters(c.pool, c.box.id, PART, taken);

    const results = await fire(urls, generateUrl(PART, { 'container-name': c.box.name, count: 5 }), 200);
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(200));
    for (const r of results) expectConsecutive(counters(r.items, 'CT'));
    const all = results.flatMap((r) => r.items);
    expect(new Set(all).size).toBe(1000);
    expect(all.filter((n) => taken.includes(n))).toEqual([]);
    const last = Math.max(...counters(all, 'CT'));
    expect(await counterOf(c.pool, c.box.id, PART)).toBe(String(last + 1));
  });
});
