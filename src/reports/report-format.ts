import type { ResultColumn } from '../qml/qml-compiler.js';

/** A result value as it leaves the service: JSON scalars, timestamps as ISO-8601 text. */
export type CellValue = string | number | boolean | null;

export interface ReportResult {
  columns: ResultColumn[];
  rows: CellValue[][];
  truncated: boolean;
}

export type ReportFormat = 'xml' | 'json' | 'csv';

/** Converts a database value (BigInt, Date, Decimal…) to its wire form. */
export function cell(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/**
 * XML element names for headings: every character that is not an XML name character becomes
 * `_`, a `_` is prefixed when the first is not a letter or `_`, repeats get `_2`, `_3` ….
 */
export function headingTags(headings: string[]): string[] {
  const used = new Set<string>();
  return headings.map((h) => {
    let tag = h.replace(/[^\p{L}\p{M}\p{N}._\-\u00B7]/gu, '_');
    if (!/^[\p{L}_]/u.test(tag)) tag = `_${tag}`;
    let unique = tag;
    for (let n = 2; used.has(unique); n++) unique = `${tag}_${n}`;
    used.add(unique);
    return unique;
  });
}

/** Text for XML: escaped, and characters XML 1.0 cannot carry replaced by U+FFFD. */
export function xmlText(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export interface XmlReportMeta {
  name: string;
  description: string | null;
  oid: string;
  principal: { fullName: string; oid: string };
  time: Date;
  /** Request parameters, as given. */
  requestParameters: [string, string][];
  /** The template's own QML document (embedded as its `qml` element). */
  qml: string;
  actualParameters: { name: string; value: string | null }[];
}

/** The `queryResult` document of a named report. */
export function toXml(meta: XmlReportMeta, result: ReportResult): string {
  const tags = headingTags(result.columns.map((c) => c.heading));
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<queryResult>\n'];
  out.push(
    '<metadata>',
    `<name>${xmlText(meta.name)}</name>`,
    meta.description === null
      ? '<description isNull="true"/>'
      : `<description>${xmlText(meta.description)}</description>`,
    `<objectIdentifier>${xmlText(meta.oid)}</objectIdentifier>`,
    '<executingPrincipal>',
    `<fullName>${xmlText(meta.principal.fullName)}</fullName>`,
    `<objectIdentifier>${xmlText(meta.principal.oid)}</objectIdentifier>`,
    '</executingPrincipal>',
    `<timeOfExecution>${meta.time.toISOString()}</timeOfExecution>`,
    '</metadata>\n<auxData>',
  );
  for (const [k, v] of meta.requestParameters) out.push(`<dataItem name="${xmlText(k)}">${xmlText(v)}</dataItem>`);
  if (result.truncated) out.push('<dataItem name="truncated">true</dataItem>');
  out.push('</auxData>\n', embeddedQml(meta.qml), '\n');
  for (const p of meta.actualParameters) {
    out.push(
      p.value === null
        ? `<actualParameter parameterId="${xmlText(p.name)}" isNull="true"/>`
        : `<actualParameter parameterId="${xmlText(p.name)}">${xmlText(p.value)}</actualParameter>`,
    );
  }
  out.push('\n<result>\n');
  result.columns.forEach((c, i) => {
    out.push(`<heading type="${xmlText(c.typeName)}" tag="${tags[i]}">${xmlText(c.heading)}</heading>\n`);
  });
  result.rows.forEach((row, r) => {
    out.push(`<row idx="${r + 1}">`);
    row.forEach((v, i) => {
      out.push(v === null ? `<${tags[i]} isNull="true"/>` : `<${tags[i]}>${xmlText(String(v))}</${tags[i]}>`);
    });
    out.push('</row>\n');
  });
  out.push('</result>\n</queryResult>\n');
  return out.join('');
}

/**
 * The template's document without its prolog (BOM, XML declaration, DOCTYPE), ready to be
 * embedded. The text was parsed and validated when stored, so it is well-formed.
 */
function embeddedQml(qml: string): string {
  return qml
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^?]*\?>/, '')
    .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/, '')
    .trim();
}

/** RFC 4180: a header line, CRLF line ends, fields quoted when they need it. */
export function toCsv(result: ReportResult): string {
  const field = (v: CellValue): string => {
    if (v === null) return '';
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [result.columns.map((c) => field(c.heading)).join(',')];
  for (const row of result.rows) lines.push(row.map(field).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The format a request asks for: `format` wins, then Accept; XML by default. Null: none acceptable. */
export function negotiateFormat(format: string | undefined, accept: string | undefined): ReportFormat | null | 'bad' {
  if (format !== undefined) {
    const f = format.trim().toLowerCase();
    return f === 'xml' || f === 'json' || f === 'csv' ? f : 'bad';
  }
  if (!accept || accept.trim() === '') return 'xml';
  const ranked = accept
    .split(',')
    .map((part, i) => {
      const [type, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { type: type.trim(), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((a) => a.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { type } of ranked) {
    if (
      type === 'application/xml' ||
      type === 'text/xml' ||
      type === '*/*' ||
      type === 'application/*' ||
      type === 'text/*'
    ) {
      return 'xml';
    }
    if (type === 'application/json') return 'json';
    if (type === 'text/csv') return 'csv';
  }
  return null;
}
