import http from 'node:http';
import type pg from 'pg';
import { AuthNotices } from '../../src/auth/auth-notices.js';
import { keys } from '../../src/auth/failure-throttle.js';
import { hashPassword } from '../../src/auth/password.js';
import { listeningPort } from '../helpers/raw-http.js';
import { forgetSignInFailures } from '../helpers/sign-in-failures.js';
import { embeddedTestRun, testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';

const LIMIT = 3;
const USER = 'cached-target';
const RIGHT = 'the-right-pw';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: Record<string, unknown>;
}

/**
 * One request on a connection of its own (no keep-alive agent): as a guesser sends a burst, each
 * guess on another connection. Fails after 10 s with a message instead of hanging.
 */
function guess(port: number, password: string, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to a guess within 10 s (${password})`)), 10_000);
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/numbers/version',
        agent,
        headers: { Authorization: `Basic ${Buffer.from(`${USER}:${password}`).toString('base64')}` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          clearTimeout(timer);
          const { requestId: _id, ...body } = JSON.parse(text) as Record<string, unknown>;
          resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body });
        });
      },
    );
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * A password the real user has just signed in with is remembered (AUTH_CACHE_TTL_MS), and while
 * the instance listens for notices a remembered check may skip the database. A guesser must not
 * get that shortcut: a guess that happens to be right must meet the same throttle, in the same
 * statement order, as the wrong ones sent with it, or its answer (200 among 429s) tells it apart.
 */
describe('the right password among throttled guesses while it is cached', () => {
  let db: pg.Pool;
  let port: number;
  const t = useTestApp({ AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_CACHE_TTL_MS: '600000' });

  beforeAll(async () => {
    db = testPool();
    await db.query(
      `INSERT INTO users (name, password_hash) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET password_hash = EXCLUDED.password_hash, disabled = false`,
      [USER, await hashPassword(RIGHT)],
    );
    port = await listeningPort(t);
  });
  beforeEach(() => forgetSignInFailures(db));
  afterAll(async () => {
    await forgetSignInFailures(db);
    await db.query('DELETE FROM users WHERE name = $1', [USER]);
    await db.end();
  });

  /** The real user signs in: their password is now remembered, and trusted while notices are heard. */
  async function realUserSignsIn(): Promise<http.Agent> {
    const own = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await guess(port, RIGHT, own)).status).toBe(200);
    if (!embeddedTestRun()) expect(t.get(AuthNotices).live).toBe(true);
    return own;
  }

  it('answers the right password 429 once the counts in the database are at the limit, before any notice', async () => {
    const own = await realUserSignsIn();
    try {
      // Another instance's guesses brought the pair to its limit: its notice is still on the way
      // (stored here without one), so only the database knows.
      const k = keys(USER, '127.0.0.1');
      await db.query(
        `INSERT INTO auth_failures (key, count, reset_at) VALUES ($1, $2, clock_timestamp() + interval '1 minute')`,
        [k.pair, LIMIT],
      );
      const wrong = await guess(port, 'wrong-guess');
      const right = await guess(port, RIGHT);
      expect(wrong).toEqual({
        status: 429,
        retryAfter: expect.stringMatching(/^\d+$/),
        body: {
          statusCode: 429,
          error: 'Too Many Requests',
          message: expect.stringMatching(/^too many failed sign-ins/),
        },
      });
      expect(right).toEqual({ ...wrong, retryAfter: expect.stringMatching(/^\d+$/) });
      expect(right.body).toEqual(wrong.body);
    } finally {
      own.destroy();
    }
  });

  it('answers 429 to every right guess sent after a 429 of the same burst, each on its own connection', async () => {
    const own = await realUserSignsIn();
    try {
      let firstThrottled!: () => void;
      const throttledSeen = new Promise<void>((r) => (firstThrottled = r));
      const wrongs = Array.from({ length: 20 }, (_, i) =>
        guess(port, `wrong-${i}`).then((a) => {
          if (a.status === 429) firstThrottled();
          return a;
        }),
      );
      const bounded = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no guess of the burst was answered 429 within 10 s')), 10_000).unref(),
      );
      await Promise.race([throttledSeen, bounded]);
      // The burst is still being answered: the right password now, three times, on new connections.
      const rights = await Promise.all([guess(port, RIGHT), guess(port, RIGHT), guess(port, RIGHT)]);
      const answers = await Promise.all(wrongs);
      const throttled = answers.find((a) => a.status === 429)!;
      expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(LIMIT);
      expect(answers.filter((a) => a.status !== 401 && a.status !== 429)).toEqual([]);
      for (const right of rights) {
        expect({ status: right.status, body: right.body }).toEqual({ status: 429, body: throttled.body });
        expect(Number(right.retryAfter)).toBeGreaterThan(0);
      }
    } finally {
      own.destroy();
    }
  });

  it('still answers the real user on the connection they signed in on, and everyone once the counts are gone', async () => {
    const own = await realUserSignsIn();
    try {
      expect((await guess(port, RIGHT, own)).status).toBe(200);
      expect((await guess(port, RIGHT)).status).toBe(200);
    } finally {
      own.destroy();
    }
  });
});
