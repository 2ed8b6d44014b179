import request from 'supertest';
import type pg from 'pg';
import { createTestApp, USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import {
  addMasters,
  counterOf,
  createContainer,
  generateUrl,
  setCounter,
  type TestContainer,
} from './numbers-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const PART = 'wt.part.WTPart';
const CAD = 'wt.epm.EPMDocument';

describe('POST /numbers/generate/<class_name>', () => {
  let pool: pg.Pool;
  let plain: TestContainer;
  let formats: TestContainer;
  let taken: TestContainer;
  let small: TestContainer;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    plain = await createContainer(pool, {
      name: 'numbers-generate plain',
      members: { alice: 'author' },
      rules: [
        { cls: DOC, width: 10, next: 100 },
        { cls: CAD, width: 10, next: 500100 },
      ],
    });
    formats = await createContainer(pool, {
      name: 'numbers-generate formats',
      cls: 'wt.projmgmt.admin.Project2',
      members: { carol: 'author' },
      rules: [
        { cls: DOC, prefix: 'SQ', suffix: '-X', width: 5, next: 1 },
        { cls: PART, prefix: 'Q-', width: 8, next: 100 },
      ],
    });
    taken = await createContainer(pool, {
      name: 'numbers-generate taken',
      members: { alice: 'manager' },
      rules: [{ cls: DOC, prefix: 'TK', width: 4, next: 1 }],
    });
    small = await createContainer(pool, {
      name: 'numbers-generate small',
      members: { alice: 'author' },
      rules: [
        { cls: DOC, prefix: 'SM', width: 2, next: 98 },
        { cls: PART, prefix: 'SN', width: 2, next: 97 },
      ],
    });
  });

  afterAll(async () => {
    await pool.end();
  });

  it('generates one number by default and advances the counter by one', async () => {
    const res = await request(t.http)
      .post(generateUrl(DOC, { 'container-name': plain.name }))
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      count: 1,
      class_name: DOC,
      container: { oid: plain.oid, name: plain.name },
      items: ['0000000100'],
      _runtime: expect.any(Number),
    });
    expect(res.body._runtime).toBeGreaterThanOrEqual(0);
    expect(await counterOf(pool, plain.id, DOC)).toBe('101');
  });

  it('generates count consecutive numbers, following on from the last request', async () => {
    const res = await request(t.http)
      .post(generateUrl(CAD, { 'container-ref': plain.oid, count: 3 }))
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 3, class_name: CAD, items: ['0000500100', '0000500101', '0000500102'] });
    const again = await request(t.http)
      .post(generateUrl(CAD, { 'container-ref': plain.oid, count: 2 }))
      .auth(...USERS.alice);
    expect(again.body.items).toEqual(['0000500103', '0000500104']);
    expect(await counterOf(pool, plain.id, CAD)).toBe('500105');
  });

  it('writes prefix, zero-padded counter and suffix (rule SQ…-X, width 5)', async () => {
    const res = await request(t.http)
      .post(generateUrl(DOC, { 'container-name': formats.name, count: 2 }))
      .auth(...USERS.carol);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      container: { oid: formats.oid, name: formats.name },
      items: ['SQ00001-X', 'SQ00002-X'],
    });
  });

  it('writes a prefix with width 8 (rule Q-, width 8)', async () => {
    const res = await request(t.http)
      .post(generateUrl(PART, { 'container-name': formats.name }))
      .auth(...USERS.carol);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(['Q-00000100']);
  });

  it('uses the rule of the class before the | for a soft subtype, echoing the class name', async () => {
    const soft = `${PART}|com.acme.Bolt`;
    const res = await request(t.http)
      .post(generateUrl(soft, { 'container-name': formats.name }))
      .auth(...USERS.carol);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ class_name: soft, items: ['Q-00000101'] });

    const external = `WCTYPE|${PART}|com.acme.Bolt`;
    const res2 = await request(t.http)
      .post(generateUrl(external, { 'container-name': formats.name }))
      .auth(...USERS.carol);
    expect(res2.status).toBe(200);
    expect(res2.body).toMatchObject({ class_name: external, items: ['Q-00000102'] });
    expect(await counterOf(pool, formats.id, PART)).toBe('103');
  });

  it('accepts the | unencoded in the path', async () => {
    const res = await request(t.http)
      .post(`/numbers/generate/${PART}|com.acme.Nut?container-name=${encodeURIComponent(formats.name)}`)
      .auth(...USERS.carol);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ class_name: `${PART}|com.acme.Nut`, items: ['Q-00000103'] });
  });

  it('skips numbers existing objects of the class carry, finding the first run of count free numbers', async () => {
    await addMasters(pool, taken.id, DOC, ['TK0001', 'TK0002', 'TK0004', 'TK0007', 'TK00A9', 'TK0005-old']);
    // Another class may carry the same number: it does not block this class.
    await addMasters(pool, taken.id, PART, ['TK0003']);
    const url = generateUrl(DOC, { 'container-name': taken.name });

    const one = await request(t.http)
      .post(url)
      .auth(...USERS.alice);
    expect(one.status).toBe(200);
    expect(one.body.items).toEqual(['TK0003']);

    const two = await request(t.http)
      .post(`${url}&count=2`)
      .auth(...USERS.alice);
    expect(two.body.items).toEqual(['TK0005', 'TK0006']);

    const three = await request(t.http)
      .post(`${url}&count=3`)
      .auth(...USERS.alice);
    expect(three.body.items).toEqual(['TK0008', 'TK0009', 'TK0010']);
    expect(await counterOf(pool, taken.id, DOC)).toBe('11');
  });

  it('moves past a block of imported numbers ahead of the counter', async () => {
    await addMasters(
      pool,
      taken.id,
      DOC,
      Array.from({ length: 50 }, (_, i) => `TK${String(11 + i).padStart(4, '0')}`),
    );
    await addMasters(pool, taken.id, DOC, ['TK0063']);
    const res = await request(t.http)
      .post(generateUrl(DOC, { 'container-name': taken.name, count: 3 }))
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(['TK0064', 'TK0065', 'TK0066']);
    expect(await counterOf(pool, taken.id, DOC)).toBe('67');
  });

  it('answers 409 when the numbers would not fit the width, and reserves nothing', async () => {
    const url = generateUrl(DOC, { 'container-name': small.name });
    const tooMany = await request(t.http)
      .post(`${url}&count=3`)
      .auth(...USERS.alice);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message:
        `numbering rule exhausted: the ${DOC} rule of container '${small.name}' has fewer than 3 consecutive ` +
        'free numbers left up to SM99 (width 2); nothing was reserved',
      requestId: expect.any(String),
    });
    expect(await counterOf(pool, small.id, DOC)).toBe('98');

    const last = await request(t.http)
      .post(`${url}&count=2`)
      .auth(...USERS.alice);
    expect(last.status).toBe(200);
    expect(last.body.items).toEqual(['SM98', 'SM99']);

    const none = await request(t.http)
      .post(url)
      .auth(...USERS.alice);
    expect(none.status).toBe(409);
    expect(none.body.message).toBe(
      `numbering rule exhausted: the ${DOC} rule of container '${small.name}' has no free number left up to SM99 ` +
        '(width 2); nothing was reserved',
    );
    expect(await counterOf(pool, small.id, DOC)).toBe('100');
  });

  it('answers 409 when taken numbers leave no room at the end, and reserves nothing', async () => {
    await addMasters(pool, small.id, PART, ['SN98']);
    const url = generateUrl(PART, { 'container-name': small.name, count: 2 });
    const res = await request(t.http)
      .post(url)
      .auth(...USERS.alice);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^numbering rule exhausted: /);
    expect(await counterOf(pool, small.id, PART)).toBe('97');
  });

  it('answers 404 naming the container and class when the container has no rule for it', async () => {
    const res = await request(t.http)
      .post(generateUrl(PART, { 'container-name': plain.name }))
      .auth(...USERS.alice);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      statusCode: 404,
      error: 'Not Found',
      message: `container '${plain.name}' has no numbering rule for ${PART}`,
    });
  });

  it('allows count up to NUMBERS_MAX_COUNT', async () => {
    await setCounter(pool, plain.id, DOC, 1000);
    const res = await request(t.http)
      .post(generateUrl(DOC, { 'container-name': plain.name, count: 10000 }))
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(10000);
    expect(res.body.items).toHaveLength(10000);
    expect(res.body.items[0]).toBe('0000001000');
    expect(res.body.items[9999]).toBe('0000010999');
    expect(new Set(res.body.items).size).toBe(10000);
    expect(await counterOf(pool, plain.id, DOC)).toBe('11000');
  });

  it('honours a smaller NUMBERS_MAX_COUNT', async () => {
    const limited = await createTestApp({ NUMBERS_MAX_COUNT: '5' });
    try {
      const url = generateUrl(DOC, { 'container-name': plain.name });
      const over = await request(limited.http)
        .post(`${url}&count=6`)
        .auth(...USERS.alice);
      expect(over.status).toBe(400);
      expect(over.body.message).toBe("count must be a whole number from 1 to 5, got '6'");
      const ok = await request(limited.http)
        .post(`${url}&count=5`)
        .auth(...USERS.alice);
      expect(ok.status).toBe(200);
      expect(ok.body.items).toEqual(['0000011000', '0000011001', '0000011002', '0000011003', '0000011004']);
    } finally {
      await limited.close();
    }
  });

  it('continues after a restart without handing out a number again', async () => {
    const url = generateUrl(DOC, { 'container-name': plain.name, count: 2 });
    const before = await request(t.http)
      .post(url)
      .auth(...USERS.alice);
    const restarted = await createTestApp();
    try {
      const after = await request(restarted.http)
        .post(url)
        .auth(...USERS.alice);
      expect(after.status).toBe(200);
      expect(before.body.items).toEqual(['0000011005', '0000011006']);
      expect(after.body.items).toEqual(['0000011007', '0000011008']);
    } finally {
      await restarted.close();
    }
  });

  it('ignores a request body', async () => {
    const res = await request(t.http)
      .post(generateUrl(DOC, { 'container-name': formats.name }))
      .send({ count: 50, prefix: 'EVIL' })
      .auth(...USERS.carol);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(['SQ00003-X']);
  });

  it('is documented in the OpenAPI document', async () => {
    const res = await request(t.http).get('/docs-json');
    expect(res.status).toBe(200);
    const op = res.body.paths['/numbers/generate/{className}'].post;
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      ['className', 'container-name', 'container-ref', 'count', 'workspace-name', 'workspace-ref'].sort(),
    );
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '429']);
    expect(res.body.paths['/numbers/rules'].get).toBeDefined();
  });
});
