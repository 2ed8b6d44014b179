import type { PluginDto } from './dto/gateway.dto.js';
import { escapeHtml, pluginIndexHtml } from './plugin-index-html.js';

const plugin = (over: Partial<PluginDto>): PluginDto => ({
  name: 'pdm.reports',
  version: '0.1.0',
  build: '12',
  date: '2026-11-21',
  description: 'PDM report service',
  doc_url: 'http://localhost:3000/docs#/reports',
  module: null,
  blueprint: 'reports',
  ...over,
});

describe('pluginIndexHtml', () => {
  it('escapes the five characters HTML gives a meaning', () => {
    expect(escapeHtml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
  });

  it('lists every plug-in in a row, linking its documentation', () => {
    const html = pluginIndexHtml([
      plugin({}),
      plugin({ name: 'pdm.files', blueprint: 'files', doc_url: 'http://h/docs#/files' }),
    ]);
    expect(html).toContain('<h1>Plug-ins (2)</h1>');
    expect(html).toContain(
      '<tr><td>pdm.reports</td><td>0.1.0</td><td>12</td><td>2026-11-21</td><td>PDM report service</td>' +
        '<td><a href="http://localhost:3000/docs#/reports">reports</a></td></tr>',
    );
    expect(html).toContain('<td><a href="http://h/docs#/files">files</a></td></tr>');
    expect(html.startsWith('<!DOCTYPE html>\n')).toBe(true);
  });

  it('escapes every value, the link too', () => {
    const html = pluginIndexHtml([
      plugin({
        name: '<script>alert(1)</script>',
        description: 'a & b',
        doc_url: 'http://x"><script>alert(2)</script>/docs#/reports',
      }),
    ]);
    expect(html).not.toContain('<script>');
    expect(html).toContain('<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>');
    expect(html).toContain('<td>a &amp; b</td>');
    expect(html).toContain('<a href="http://x&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;/docs#/reports">');
  });
});
