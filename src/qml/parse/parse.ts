import { XMLParser } from 'fast-xml-parser';
import { QmlError } from '../qml-error.js';
import { DEFAULT_LIMITS, ELEMENT_DEPTH_MARGIN } from '../qml-limits.js';
import { checkWellFormed } from './xml.js';

/** One element of a parsed QML document: attributes and text as written, children in order. */
export interface QmlElement {
  name: string;
  attrs: Record<string, string>;
  children: QmlElement[];
  /**
   * The element's own text, trimmed (real templates wrap it in tabs and newlines), unless
   * `xml:space="preserve"` applies to an element without child elements (a constant `" - "`).
   */
  text: string;
  /** Location for error messages: `/qml/statement/query/select/column[2]`. */
  path: string;
}

export interface ParseOptions {
  /** Largest accepted document in bytes (UTF-8). */
  maxBytes?: number;
  /**
   * The deepest nesting of conditions and functions (QmlLimits.maxNesting): elements may nest
   * ELEMENT_DEPTH_MARGIN levels deeper, for the elements around them.
   */
  maxNesting?: number;
}

export const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * Elements that may occur more than once under one parent: their paths carry a 1-based index
 * among same-named siblings (`condition[2]`), the others do not (`where`, `operator`).
 */
const REPEATABLE = new Set([
  'parameter',
  'column',
  'object',
  'function',
  'constant',
  'table',
  'condition',
  'compositeCondition',
  'orderByItem',
  'join',
  'aliasTarget',
  'parameterTarget',
  'property',
  'operand',
  // The qml/query layout (layouts/query/query-layout.ts).
  'reportAttribute',
  'layoutSectionHeader',
  'reportAttributeReference',
  'parameterValue',
  'script',
]);

const TEXT = '#text';
const ATTRS = ':@';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  // Texts are trimmed below, where `xml:space` is known.
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Declarations are refused before parsing; the predefined entities and character references
  // are decoded below in one pass (cheaper than the parser's entity machinery, and never twice).
  processEntities: false,
  // The depth was checked before (checkWellFormed); this only has to stay out of the way.
  maxNestedTags: 100_000,
});

/**
 * Parses a QML document safely: strict UTF-8 (bytes), size cap, no entity declarations (so no
 * entity expansion attacks and no external entities), a DOCTYPE accepted but never fetched,
 * well-formedness (XML 1.0) and depth checked before parsing, one root element named `qml`.
 */
export function parseQml(input: string | Uint8Array, options: ParseOptions = {}): QmlElement {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const text = decode(input, maxBytes);
  if (/<!ENTITY/i.test(text)) {
    throw new QmlError('', 'entity declarations (<!ENTITY) are not allowed in QML');
  }
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') throw new QmlError('', 'the QML document is empty');
  const maxNesting = options.maxNesting ?? DEFAULT_LIMITS.maxNesting;
  const maxDepth = maxNesting + ELEMENT_DEPTH_MARGIN;
  checkWellFormed(
    body,
    maxDepth,
    `elements nest more than ${maxDepth} levels deep: conditions and functions may nest ${maxNesting} levels`,
  );
  let nodes: unknown[];
  try {
    nodes = parser.parse(body) as unknown[];
  } catch (e) {
    throw new QmlError('', `malformed XML: ${(e as Error).message}`);
  }
  const roots = nodes.filter((n) => elementName(n) !== null);
  if (roots.length !== 1) {
    throw new QmlError('', `a QML document has exactly one root element, found ${roots.length}`);
  }
  const rootName = elementName(roots[0])!;
  if (rootName !== 'qml') throw new QmlError(`/${rootName}`, 'the root element must be "qml"');
  return toElement(roots[0] as Record<string, unknown>, 'qml', '/qml', false);
}

function decode(input: string | Uint8Array, maxBytes: number): string {
  if (typeof input === 'string') {
    if (Buffer.byteLength(input, 'utf8') > maxBytes) {
      throw new QmlError('', `the QML document is larger than ${maxBytes} bytes`);
    }
    // A string was decoded by its producer (the HTTP layer checks strict UTF-8 before decoding).
    return input;
  }
  if (input.byteLength > maxBytes) throw new QmlError('', `the QML document is larger than ${maxBytes} bytes`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    throw new QmlError('', 'the QML document is not valid UTF-8');
  }
}

/** The tag name of a preserveOrder node, or null for text, comments and the like. */
function elementName(node: unknown): string | null {
  if (!node || typeof node !== 'object') return null;
  for (const key of Object.keys(node)) {
    if (key !== ATTRS && key !== TEXT && !key.startsWith('?') && !key.startsWith('!') && key !== '#comment') return key;
  }
  return null;
}

/**
 * `xml:space` as XML 1.0 defines it: `preserve` keeps an element's white space, `default` (or
 * nothing) leaves it to the application, and the nearest ancestor that says decides.
 */
function preserves(attrs: Record<string, string>, inherited: boolean): boolean {
  const space = attrs['xml:space'];
  return space === 'preserve' ? true : space === 'default' ? false : inherited;
}

function toElement(node: Record<string, unknown>, name: string, path: string, inherited: boolean): QmlElement {
  const attrs: Record<string, string> = {};
  const rawAttrs = node[ATTRS] as Record<string, unknown> | undefined;
  if (rawAttrs) for (const [k, v] of Object.entries(rawAttrs)) attrs[k] = decodeEntities(String(v));
  const preserve = preserves(attrs, inherited);
  const children: QmlElement[] = [];
  const texts: string[] = [];
  const seen = new Map<string, number>();
  for (const child of (node[name] as unknown[]) ?? []) {
    const childName = elementName(child);
    if (childName === null) {
      const t = (child as Record<string, unknown>)[TEXT];
      if (t !== undefined) texts.push(String(t));
      continue;
    }
    const n = (seen.get(childName) ?? 0) + 1;
    seen.set(childName, n);
    const childPath = `${path}/${childName}${REPEATABLE.has(childName) ? `[${n}]` : ''}`;
    children.push(toElement(child as Record<string, unknown>, childName, childPath, preserve));
  }
  const text = decodeEntities(texts.join(''));
  // White space between child elements is layout, whatever xml:space says.
  return { name, attrs, children, text: preserve && children.length === 0 ? text : text.trim(), path };
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The five predefined entities and numeric character references; anything else stays as written. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/g, (ref: string, name: string) => {
    if (name[0] !== '#') return PREDEFINED[name];
    const cp = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : ref;
  });
}
