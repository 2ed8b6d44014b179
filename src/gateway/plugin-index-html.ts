import type { PluginDto } from './dto/gateway.dto.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** `plugins/index.html`: the plug-in index as a small HTML table, every value escaped. */
export function pluginIndexHtml(items: readonly PluginDto[]): string {
  const rows = items.map((p) => {
    const cells = [p.name, p.version, p.build, p.date, p.description].map((v) => `<td>${escapeHtml(v)}</td>`);
    const doc = `<td><a href="${escapeHtml(p.doc_url)}">${escapeHtml(p.blueprint)}</a></td>`;
    return `<tr>${cells.join('')}${doc}</tr>`;
  });
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>Plug-ins</title></head>',
    '<body>',
    `<h1>Plug-ins (${items.length})</h1>`,
    '<table>',
    '<tr><th>name</th><th>version</th><th>build</th><th>date</th><th>description</th><th>documentation</th></tr>',
    ...rows,
    '</table>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
