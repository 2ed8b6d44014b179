import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

/** `type` of a q names the soft types (and classes) a dataset declared, as well as the standard classes. */
describe('q type: declared soft types', () => {
  const t = useTestApp();

  async function numbers(q: Record<string, unknown>): Promise<string[]> {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: JSON.stringify({ number: 'P-0000000*', ...q }), limit: 100 })
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    return (res.body.items as { number: string }[]).map((i) => i.number);
  }

  it('matches a declared soft type and the soft types below it', async () => {
    // The demo dataset declares com.acme.SoftwarePart and, below it, com.acme.BootloaderPart.
    expect(await numbers({ type: 'com.acme.SoftwarePart' })).toEqual(['P-00000003', 'P-00000004', 'P-00000005']);
    expect(await numbers({ type: 'com.acme.BootloaderPart' })).toEqual(['P-00000004']);
    const others = await numbers({ type: { ne: 'com.acme.SoftwarePart' } });
    expect(others).toContain('P-00000001');
    expect(others).not.toContain('P-00000003');
    expect(await numbers({ type: ['com.acme.BootloaderPart', 'wt.doc.WTDocument'] })).toEqual(['P-00000004']);
  });

  it('names the declared types among those it knows when one is unknown', async () => {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: '{"type":"com.acme.Nothing"}' })
      .auth(...USERS.alice);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^q\[0\]\.type: unknown type "com\.acme\.Nothing" \(one of wt\.doc\.WTDocument, /);
    expect(res.body.message).toMatch(/com\.acme\.BootloaderPart, com\.acme\.SoftwarePart, com\.acme\.UrgentChange\)$/);
  });
});
