import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { hashPassword } from '../../src/auth/password.js';
import { forgetSignInFailures } from '../helpers/sign-in-failures.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { createContainer, generateUrl, type TestContainer } from '../numbers/numbers-fixtures.js';

interface Page {
  session_id: number;
  total: number;
  items: { number: string }[];
}

const basic = (name: string, password: string) => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;

/**
 * Two instances of the service on one database, as behind a load balancer: each listens on a
 * port of its own and requests go to one or the other. Nothing one instance knows of a caller
 * may be missing on the other.
 */
describe('two instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  let urls: [string, string];
  let pool: pg.Pool;

  const get = (url: string, path: string, auth: string) => fetch(`${url}${path}`, { headers: { authorization: auth } });

  /** A user of this test only, so that its failure counts are nobody else's. */
  async function freshUser(): Promise<[string, string]> {
    const name = `two-instances-${randomBytes(4).toString('hex')}`;
    await pool.query('INSERT INTO users (name, password_hash) VALUES ($1, $2)', [name, await hashPassword('right-pw')]);
    return [name, 'right-pw'];
  }

  beforeAll(async () => {
    pool = testPool();
    await forgetSignInFailures(pool);
    a = await createTestApp({ AUTH_FAILURE_LIMIT: '3' });
    b = await createTestApp({ AUTH_FAILURE_LIMIT: '3' });
    await a.app.listen(0, '127.0.0.1');
    await b.app.listen(0, '127.0.0.1');
    urls = [await a.app.getUrl(), await b.app.getUrl()];
  });

  afterAll(async () => {
    await a.close();
    await b.close();
    await forgetSignInFailures(pool);
    await pool.end();
  });

  it('pages on one instance a query session opened on the other', async () => {
    const auth = basic(...USERS.alice);
    const q = encodeURIComponent(JSON.stringify({ type: 'wt.doc.WTDocument' }));
    const all = (await (await get(urls[0], `/query/1.0/query?q=${q}&limit=100`, auth)).json()) as Page;
    const opened = await get(urls[0], `/query/1.0/query?q=${q}&limit=2`, auth);
    expect(opened.status).toBe(200);
    const first = (await opened.json()) as Page;
    expect(first.session_id).toBeGreaterThan(0);
    const next = await get(urls[1], `/query/1.0/query/${first.session_id}?page=1&limit=2`, auth);
    expect(next.status).toBe(200);
    const body = (await next.json()) as Page;
    expect(body).toMatchObject({ session_id: first.session_id, total: all.total, count: 2 });
    expect(body.items.map((i) => i.number)).toEqual(all.items.slice(2, 4).map((i) => i.number));
    const closed = await fetch(`${urls[1]}/query/1.0/query/${first.session_id}`, {
      method: 'DELETE',
      headers: { authorization: auth },
    });
    expect(closed.status).toBe(200);
    expect((await get(urls[0], `/query/1.0/query/${first.session_id}?page=0&limit=2`, auth)).status).toBe(410);
  });

  it('counts failed sign-ins on both together, and refuses a password cached on the other', async () => {
    const [name, password] = await freshUser();
    // Signed in on B: B has the right password cached.
    expect((await get(urls[1], '/numbers/version', basic(name, password))).status).toBe(200);
    // Three failures, alternating between the instances, reach the limit of three.
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await get(urls[i % 2], '/numbers/version', basic(name, `no-${i}`))).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    for (const url of urls) {
      const res = await get(url, '/numbers/version', basic(name, password));
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await res.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    }
  });

  it('gives a burst of guesses split over both instances no more checks than the limit', async () => {
    const [name] = await freshUser();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => get(urls[i % 2], '/numbers/version', basic(name, `guess-${i}`))),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  describe('numbers', () => {
    let box: TestContainer;
    beforeAll(async () => {
      box = await createContainer(pool, {
        name: `two-instances-numbers-${randomBytes(4).toString('hex')}`,
        members: { alice: 'author' },
        rules: [{ cls: 'wt.doc.WTDocument', prefix: 'TI', width: 6, next: 1 }],
      });
    });
    afterAll(async () => {
      await pool.query('DELETE FROM numbering_rules WHERE container_id = $1', [box.id]);
      await pool.query('DELETE FROM memberships WHERE container_id = $1', [box.id]);
      await pool.query('DELETE FROM containers WHERE id = $1', [box.id]);
    });

    it('never gives the same number twice when both reserve at once', async () => {
      const path = generateUrl('wt.doc.WTDocument', { 'container-name': box.name, count: 5 });
      const answers = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const res = await fetch(`${urls[i % 2]}${path}`, {
            method: 'POST',
            headers: { authorization: basic(...USERS.alice) },
          });
          return { status: res.status, items: ((await res.json()) as { items?: string[] }).items ?? [] };
        }),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(40).fill(200));
      const all = answers.flatMap((r) => r.items);
      expect(all).toHaveLength(200);
      expect(new Set(all).size).toBe(200);
      expect([...all].sort()).toEqual(Array.from({ length: 200 }, (_, i) => `TI${String(i + 1).padStart(6, '0')}`));
    });
  });
});
