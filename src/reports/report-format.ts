import type { Request } from 'express';
import type { ResultColumn } from '../qml/qml-compiler.js';
import { isNumeric } from '../qml/qml-types.js';
import { checkWellFormed, NOT_XML_CHARS } from '../qml/parse/xml.js';

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

/** Letters, marks, digits and `._-·`: the characters headings keep in their tags. */
const TAG_CHAR = /[\p{L}\p{M}\p{N}._\-\u00B7]/u;
/** NameChar of XML 1.0 (fifth edition): some letters and digits of Unicode are not among them. */
const NAME_CHAR =
  /[-.0-9A-Z_a-z\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}]/u;

/**
 * XML element names for headings: every character that is not a letter, mark, digit or
 * `._-·` allowed in XML 1.0 names becomes `_`, a `_` is prefixed when the first is not a
 * letter or `_`, repeats get `_2`, `_3` ….
 */
export function headingTags(headings: string[]): string[] {
  const used = new Set<string>();
  return headings.map((h) => {
    let tag = h.replace(/./gsu, (c) => (TAG_CHAR.test(c) && NAME_CHAR.test(c) ? c : '_'));
    if (!/^[\p{L}_]/u.test(tag)) tag = `_${tag}`;
    let unique = tag;
    for (let n = 2; used.has(unique); n++) unique = `${tag}_${n}`;
    used.add(unique);
    return unique;
  });
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Any character that needs escaping or may not be allowed: the common case has none. */
const SPECIAL = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** What a document's writer replaced; said in the document when anything was. */
interface Replacements {
  characters: number;
}

/**
 * Text for XML (content or a quoted attribute): escaped, and characters XML 1.0 cannot carry
 * (C0 controls but tab, LF and CR, lone surrogates, U+FFFE, U+FFFF) replaced by U+FFFD.
 */
export function xmlText(s: string, replaced?: Replacements): string {
  if (!SPECIAL.test(s)) return s;
  return s
    .replace(NOT_XML_CHARS, () => {
      if (replaced) replaced.characters++;
      return '\uFFFD';
    })
    .replace(/[&<>"]/g, (c) => ESCAPES[c]);
}

export const REPLACED_COMMENT = '<!-- characters XML 1.0 cannot carry were replaced by U+FFFD -->';

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

/** Characters written to the response at a time: rows are gathered into chunks of about this size. */
const CHUNK_CHARS = 64 * 1024;
/** One character XML 1.0 cannot carry (NOT_XML_CHARS without its global state). */
const NOT_XML_CHAR = new RegExp(NOT_XML_CHARS.source);

/** The `queryResult` document of a named report, whole (see xmlChunks). */
export function toXml(meta: XmlReportMeta, result: ReportResult): string {
  return [...xmlChunks(meta, result)].join('');
}

/**
 * The `queryResult` document of a named report, in chunks of many rows, so a long result is
 * never one string. Whether a row value needs a replacement is looked up before the first
 * chunk, which says so at the top.
 */
export function* xmlChunks(meta: XmlReportMeta, result: ReportResult): Generator<string> {
  const tags = headingTags(result.columns.map((c) => c.heading));
  const replaced: Replacements = { characters: 0 };
  const text = (s: string) => xmlText(s, replaced);
  const head: string[] = [
    '<metadata>',
    `<name>${text(meta.name)}</name>`,
    meta.description === null ? '<description isNull="true"/>' : `<description>${text(meta.description)}</description>`,
    `<objectIdentifier>${text(meta.oid)}</objectIdentifier>`,
    '<executingPrincipal>',
    `<fullName>${text(meta.principal.fullName)}</fullName>`,
    `<objectIdentifier>${text(meta.principal.oid)}</objectIdentifier>`,
    '</executingPrincipal>',
    `<timeOfExecution>${meta.time.toISOString()}</timeOfExecution>`,
    '</metadata>\n<auxData>',
  ];
  for (const [k, v] of meta.requestParameters) head.push(`<dataItem name="${text(k)}">${text(v)}</dataItem>`);
  if (result.truncated) head.push('<dataItem name="truncated">true</dataItem>');
  head.push('</auxData>\n', embeddedQml(meta.qml, replaced), '\n');
  for (const p of meta.actualParameters) {
    head.push(
      p.value === null
        ? `<actualParameter parameterId="${text(p.name)}" isNull="true"/>`
        : `<actualParameter parameterId="${text(p.name)}">${text(p.value)}</actualParameter>`,
    );
  }
  head.push('\n<result>\n');
  result.columns.forEach((c, i) => {
    head.push(`<heading type="${text(c.typeName)}" tag="${tags[i]}">${text(c.heading)}</heading>\n`);
  });
  const rowsReplace = result.rows.some((row) => row.some((v) => typeof v === 'string' && NOT_XML_CHAR.test(v)));
  const comment = replaced.characters > 0 || rowsReplace ? `${REPLACED_COMMENT}\n` : '';
  let chunk = `<?xml version="1.0" encoding="UTF-8"?>\n${comment}<queryResult>\n${head.join('')}`;
  for (let r = 0; r < result.rows.length; r++) {
    chunk += `<row idx="${r + 1}">`;
    result.rows[r].forEach((v, i) => {
      chunk += v === null ? `<${tags[i]} isNull="true"/>` : `<${tags[i]}>${text(String(v))}</${tags[i]}>`;
    });
    chunk += '</row>\n';
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}</result>\n</queryResult>\n`;
}

/**
 * The template's document without its prolog (BOM, XML declaration, DOCTYPE), ready to be
 * embedded. A template is checked when stored, but one stored before that check (or written
 * to the table by other means) may not be well-formed XML 1.0: its text is then embedded as
 * text, escaped, in `<qml wellFormed="false">`, so the result still parses.
 */
function embeddedQml(qml: string, replaced: Replacements): string {
  const body = qml
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^?]*\?>/, '')
    .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/, '')
    .trim();
  try {
    checkWellFormed(body, Number.MAX_SAFE_INTEGER, '');
    return body;
  } catch {
    return `<qml wellFormed="false">${xmlText(qml, replaced)}</qml>`;
  }
}

/** What spreadsheets may take for a formula at the start of a cell (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

export interface CsvOptions {
  /**
   * Prefix `'` to every text cell (and heading) starting with `=`, `+`, `-`, `@`, tab or CR, so
   * spreadsheets show it instead of running it. Values of numeric columns (long, double) stay
   * as they are: they are numbers, never formulas, and `-5` must stay a number.
   */
  neutralizeFormulas: boolean;
}

/** RFC 4180: a header line, CRLF line ends, fields quoted when they need it (whole; see csvChunks). */
export function toCsv(result: ReportResult, options: CsvOptions): string {
  return [...csvChunks(result, options)].join('');
}

/** The CSV of a result in chunks of many rows, so a long result is never one string. */
export function* csvChunks(result: ReportResult, options: CsvOptions): Generator<string> {
  const field = (v: CellValue, numeric = false): string => {
    if (v === null) return '';
    let s = String(v);
    if (options.neutralizeFormulas && !numeric && FORMULA_START.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const numeric = result.columns.map((c) => isNumeric(c.type));
  let chunk = `${result.columns.map((c) => field(c.heading)).join(',')}\r\n`;
  for (const row of result.rows) {
    chunk += `${row.map((v, i) => field(v, numeric[i])).join(',')}\r\n`;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/** The media types a named report is offered in, and the format of each. */
const MEDIA_TYPES: Record<string, ReportFormat> = {
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/json': 'json',
  'text/csv': 'csv',
};

/**
 * The format a request asks for: `format` wins, then its Accept header as Express negotiates it
 * (quality values, the most specific range first; XML where any type will do, and without or with
 * an empty header). Null: none of the formats is acceptable; 'bad': an unknown `format`.
 */
export function negotiateFormat(
  format: string | undefined,
  req: Pick<Request, 'accepts' | 'headers'>,
): ReportFormat | null | 'bad' {
  if (format !== undefined) {
    const f = format.trim().toLowerCase();
    return f === 'xml' || f === 'json' || f === 'csv' ? f : 'bad';
  }
  if (!req.headers.accept?.trim()) return 'xml';
  const type = req.accepts(Object.keys(MEDIA_TYPES));
  return type ? MEDIA_TYPES[type] : null;
}
