import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { expectError, fingerprint } from './security-helpers.js';

const CHALLENGE = 'Basic realm="pdm", charset="UTF-8", Bearer realm="pdm"';
const UNAUTHORIZED = 'valid credentials are required (HTTP Basic, or a Bearer token)';
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const basic = (userPass: string) => `Basic ${b64(userPass)}`;

describe('credentials edge cases', () => {
  let db: pg.Pool;
  let before: Record<string, string>;

  const t = useTestApp({ AUTH_FAILURE_LIMIT: '1000000' });
  beforeAll(async () => {
    db = testPool();
    before = await fingerprint(db);
  });
  afterAll(async () => {
    expect(await fingerprint(db)).toEqual(before);
    await db.end();
  });

  const get = (authorization: string | string[]) =>
    request(t.http)
      .get('/query/1.0/query')
      .query({ q: '{"number":"0000000001"}' })
      .set('Authorization', authorization as string);

  it.each<[string, string]>([
    ['a long header just past the 4096 limit', `Basic ${b64(`alice:alice-pw${' '.repeat(3100)}`)}`],
    ['a 12 KiB header', `Basic ${'A'.repeat(12 * 1024)}`],
    ['a 3000-character password', basic(`alice:${'p'.repeat(3000)}`)],
    ['a colon in the user name part', basic('alice:extra:alice-pw')],
    ['the right password with a colon appended', basic('alice:alice-pw:')],
    ['many colons', basic(':'.repeat(50))],
    ['an empty user', basic(':alice-pw')],
    ['an empty user and password', basic(':')],
    ['no colon at all', basic('alice')],
    ['an empty password', basic('alice:')],
    ['a NUL in the user name', basic('alice\u0000:alice-pw')],
    ['a NUL before the user name', basic('\u0000alice:alice-pw')],
    ['a NUL after the password', basic('alice:alice-pw\u0000')],
    ['a line break in the user name', basic('alice\n:alice-pw')],
    ['bytes that are not UTF-8', `Basic ${b64(Buffer.from([0x61, 0xff, 0xfe, 0x3a, 0x61]))}`],
    ['base64 without padding', `Basic ${b64('alice:alice-pw').replace(/=+$/, '')}`],
    ['base64url', `Basic ${b64('alice:alice-pw?>').replace(/\+/g, '-').replace(/\//g, '_')}`],
    ['trailing garbage after the token', `${basic('alice:alice-pw')} extra`],
    ['a tab instead of a space', `Basic\t${b64('alice:alice-pw')}`],
    ['no space after the scheme', `Basic${b64('alice:alice-pw')}`],
    ['the Digest scheme', 'Digest username="alice", response="x"'],
    ['the scheme alone', 'Basic'],
    ['SQL in the user name', basic(`alice' OR '1'='1:x`)],
    ['SQL in the password', basic(`alice:' OR '1'='1`)],
    ['a user name differing only in case', basic('ALICE:alice-pw')],
    ['a user name with surrounding spaces', basic(' alice :alice-pw')],
  ])('refuses %s with the one 401', async (_name, header) => {
    const res = await get(header);
    expectError(res, 401, UNAUTHORIZED);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it.each([
    ['basic', `basic ${b64('alice:alice-pw')}`],
    ['BASIC', `BASIC ${b64('alice:alice-pw')}`],
    ['bAsIc with two spaces', `bAsIc  ${b64('alice:alice-pw')}`],
  ])('accepts the scheme written %s (schemes are case-insensitive)', async (_name, header) => {
    const res = await get(header);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ session_id: 0, total: 1 });
  });

  it('refuses two Authorization headers rather than picking one', async () => {
    for (const pair of [
      [basic('bob:bob-pw'), basic('alice:alice-pw')],
      [basic('alice:alice-pw'), basic('alice:alice-pw')],
      [basic('nobody:x'), basic('alice:alice-pw')],
    ]) {
      const res = await get(pair);
      expectError(res, 401, UNAUTHORIZED);
    }
  });

  it('answers a header past the HTTP parser limit with 431, and keeps serving', async () => {
    const res = await get(`Basic ${'A'.repeat(20 * 1024)}`).catch((e: Error) => e);
    if (!(res instanceof Error)) expect(res.status).toBe(431);
    const ok = await request(t.http)
      .get('/query/version')
      .auth(...USERS.alice);
    expect(ok.status).toBe(200);
  });

  it('accepts the demo users normally after all of that (no lock-out, no change)', async () => {
    const res = await get(basic('alice:alice-pw'));
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ number: '0000000001' });
  });
});
