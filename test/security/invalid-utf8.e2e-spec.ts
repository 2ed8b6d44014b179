import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { importFilesFixture, removeFilesFixture } from '../files/files-fixtures.js';
import { expectError, fingerprint } from './security-helpers.js';

const PREFIX = 'UTF8';

/** Text with a byte that is no UTF-8 (0xFF) where `@` stands, and the byte offset of it. */
function withBadByte(text: string, bad = Buffer.from([0xff])): { bytes: Buffer; at: number } {
  const [before, after] = text.split('@');
  const head = Buffer.from(before, 'utf8');
  return { bytes: Buffer.concat([head, bad, Buffer.from(after, 'utf8')]), at: head.length };
}

/**
 * Bytes that are not UTF-8 were decoded into U+FFFD by the JSON parser and stored so (the XML
 * parser refused them): every body and the URL's query are refused with 400 naming where the
 * bad bytes are, and nothing is stored.
 */
describe('text that is not UTF-8 is refused with 400', () => {
  let db: pg.Pool;
  let before: Record<string, string>;

  const t = useTestApp({ AUTH_FAILURE_LIMIT: '1000000' });
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
    before = await fingerprint(db);
  });
  afterAll(async () => {
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });

  const send = (path: string, type: string, bytes: Buffer, user: readonly [string, string] = USERS.alice) =>
    request(t.http)
      .post(path)
      .auth(...user)
      .set('Content-Type', type)
      // As they are: superagent would write a Buffer as JSON.
      .serialize((body: Buffer) => body as unknown as string)
      .send(bytes);

  it('in a value of a JSON body creating an object, creating nothing', async () => {
    const { bytes, at } = withBadByte(
      `{"type":"wt.doc.WTDocument","container":"${PREFIX} Files","number":"${PREFIX}-9","name":"Gear@box"}`,
    );
    const res = await send('/objects', 'application/json', bytes);
    expectError(res, 400, `request body is not valid UTF-8 at byte ${at} (in the value of name)`);
    expect(await fingerprint(db)).toEqual(before);
  });

  it.each([
    ['nested in a list', '{"data":"aGk=","message":"ok","x":[{"y":"é@"}]}', ' (in the value of x[0].y)'],
    ['in a member name', '{"data":"aGk=","mess@age":"hi"}', ' (in a member name)'],
    ['outside any string', '{"data":"aGk="@}', ''],
  ])("in a file upload's JSON body, %s, writing nothing", async (_name, text, where) => {
    const { bytes, at } = withBadByte(text);
    const res = await send(`/files/${PREFIX}-1/bad.txt`, 'application/json', bytes);
    expectError(res, 400, `request body is not valid UTF-8 at byte ${at}${where}`);
    expect(await fingerprint(db)).toEqual(before);
  });

  it('names where a sequence cut short starts, not the byte after it', async () => {
    // "€" is E2 82 AC: its first two bytes, then a quote.
    const { bytes, at } = withBadByte('{"name":"ab@"}', Buffer.from([0xe2, 0x82]));
    const res = await send('/admin/users', 'application/json', bytes, USERS.admin);
    expectError(res, 400, `request body is not valid UTF-8 at byte ${at} (in the value of name)`);
    expect(await fingerprint(db)).toEqual(before);
  });

  it('in a form body, as its bytes or once its %-escapes are decoded', async () => {
    const raw = withBadByte('q=%7B%22name%22%3A%22a@%22%7D');
    expectError(
      await send('/query/1.0/query', 'application/x-www-form-urlencoded', raw.bytes),
      400,
      `request body is not valid UTF-8 at byte ${raw.at}`,
    );
    const escaped = Buffer.from('limit=5&q=%7B%22name%22%3A%22a%FF%22%7D');
    expectError(
      await send('/query/1.0/query', 'application/x-www-form-urlencoded', escaped),
      400,
      'request body is not valid UTF-8 once its %-escapes are decoded, in the form field q',
    );
  });

  it("in the URL's query", async () => {
    const res = await request(t.http)
      .get('/query/1.0/query?limit=5&q=%7B%22name%22%3A%22a%C3%22%7D')
      .auth(...USERS.alice);
    expectError(res, 400, "the URL's query is not valid UTF-8 once its %-escapes are decoded, in the parameter q");
  });

  it('in an XML body, naming the byte', async () => {
    const { bytes, at } = withBadByte('<qml><select>@</select></qml>');
    const res = await send('/reports', 'application/xml', bytes);
    expectError(res, 400, `request body is not valid UTF-8 at byte ${at}`);
  });

  it('still takes UTF-8 text, a U+FFFD sent as such, and a "%" that starts no escape in the URL', async () => {
    const q = '{"name":"Gëar\uFFFD€🙂 50%"}';
    const json = await send('/query/1.0/query', 'application/json', Buffer.from(JSON.stringify({ q: JSON.parse(q) })));
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ total: 0, items: [] });
    const form = await send(
      '/query/1.0/query',
      'application/x-www-form-urlencoded',
      Buffer.from(`q=${encodeURIComponent(q)}`),
    );
    expect(form.status).toBe(200);
    const url = await request(t.http)
      .get(`/query/1.0/query?q=${encodeURIComponent(q)}`)
      .auth(...USERS.alice);
    expect(url.status).toBe(200);
    // "50%" followed by an escaped quote: the parser keeps the "%" as it is.
    const percent = await request(t.http)
      .get(`/query/1.0/query?q=${encodeURIComponent('{"name":"50')}%${encodeURIComponent('"}')}`)
      .auth(...USERS.alice);
    expect(percent.status).toBe(200);
    expect(await fingerprint(db)).toEqual(before);
  });
});
