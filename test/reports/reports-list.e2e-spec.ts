import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describe('GET /reports and template details', () => {
  const t = useTestApp();

  const names = (body: { items: { name: string }[] }) => body.items.map((i) => i.name);

  it('lists the templates the caller may read with absolute urls', async () => {
    const res = await request(t.http)
      .get('/reports')
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['_runtime', 'count', 'items']);
    expect(names(res.body)).toEqual(
      expect.arrayContaining([
        'Documents by number',
        'Files per state',
        'My recent work',
        'Part structure',
        'Released parts',
      ]),
    );
    expect(res.body.count).toBe(res.body.items.length);
    const item = res.body.items.find((i: { name: string }) => i.name === 'Documents by number');
    const host = new URL((res.request as unknown as { url: string }).url).origin;
    expect(item).toEqual({
      url: `${host}/reports/Documents%20by%20number`,
      report_url: expect.stringMatching(
        new RegExp(`^${host}/reports/api/1\\.0/templates/OR%3Awt\\.query\\.template\\.ReportTemplate%3A\\d+$`),
      ),
      oid: expect.stringMatching(/^OR:wt\.query\.template\.ReportTemplate:\d+$/),
      name: 'Documents by number',
    });
    expect(item.report_url.endsWith(encodeURIComponent(item.oid))).toBe(true);
  });

  it('shows a reader of one container only its templates', async () => {
    const res = await request(t.http)
      .get('/reports?name=*')
      .auth(...USERS.carol);
    expect(res.status).toBe(200);
    expect(names(res.body)).not.toContain('Part structure');
    expect(names(res.body)).toContain('Released parts');
  });

  it('filters by name wildcards, container and limit and ignores unknown parameters', async () => {
    const star = await request(t.http)
      .get('/reports?name=*parts&foo=bar')
      .auth(...USERS.alice);
    expect(star.status).toBe(200);
    expect(names(star.body)).toEqual(['Released parts']);
    const q = await request(t.http)
      .get('/reports?name=Part%20structur?')
      .auth(...USERS.alice);
    expect(names(q.body)).toEqual(['Part structure']);
    const container = await request(t.http)
      .get('/reports?container=Standard%20Parts')
      .auth(...USERS.alice);
    expect(names(container.body)).toEqual(['Released parts']);
    const limited = await request(t.http)
      .get('/reports?limit=2')
      .auth(...USERS.alice);
    expect(limited.body.count).toBe(2);
    expect(limited.body.items).toHaveLength(2);
    const literal = await request(t.http)
      .get('/reports?name=%25')
      .auth(...USERS.alice);
    expect(literal.body).toMatchObject({ count: 0, items: [] });
  });

  it('rejects a limit that is not a positive integer', async () => {
    const res = await request(t.http)
      .get('/reports?limit=-1')
      .auth(...USERS.alice);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('limit must be a positive integer, not "-1"');
  });

  it('serves template details behind report_url', async () => {
    const list = await request(t.http)
      .get('/reports?name=Documents%20by%20number')
      .auth(...USERS.bob);
    const url = new URL(list.body.items[0].report_url);
    const res = await request(t.http)
      .get(url.pathname)
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      oid: list.body.items[0].oid,
      name: 'Documents by number',
      description: 'Latest iterations of documents whose number matches the parameter',
      container: 'Drive Unit',
      created: expect.stringMatching(/Z$/),
      modified: expect.stringMatching(/Z$/),
      layout: 'statement',
      parameters: [{ name: 'number', type: 'java.lang.String', default: '*', isMacro: false }],
      reportAttributes: [],
      headings: [
        { heading: 'Document', tag: 'Document', type: 'wt.doc.WTDocument' },
        { heading: 'Number', tag: 'Number', type: 'java.lang.String' },
        { heading: 'Name', tag: 'Name', type: 'java.lang.String' },
        { heading: 'State', tag: 'State', type: 'java.lang.String' },
        { heading: 'Last Modified', tag: 'Last_Modified', type: 'java.sql.Timestamp' },
      ],
      warnings: [],
      qml: expect.stringContaining('<qml bypassAccessControl="false">'),
    });
    const carol = await request(t.http)
      .get(url.pathname)
      .auth(...USERS.carol);
    expect(carol.status).toBe(404);
    const bad = await request(t.http)
      .get('/reports/api/1.0/templates/OR:wt.doc.WTDocument:1')
      .auth(...USERS.admin);
    expect(bad.status).toBe(404);
  });
});
