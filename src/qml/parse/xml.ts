import { SaxesParser } from 'saxes';
import { QmlError, QmlLimitError } from '../qml-error.js';

/**
 * Characters XML 1.0 cannot carry, raw or as a character reference: C0 controls other than
 * tab, LF and CR, lone surrogates, U+FFFE and U+FFFF.
 */
export const NOT_XML_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const PREDEFINED = new Set(['lt', 'gt', 'amp', 'quot', 'apos']);

/**
 * Comments, CDATA sections and processing instructions (their `&` is plain text) and every `&`
 * elsewhere, with what follows it up to a `;`. An unterminated comment or section is left to
 * the parser to report.
 */
const MARKUP = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|&([^;&<>"'\s]{0,40})(;?)/g;

/** The Char production of XML 1.0. */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Line and column (both from 1, columns in characters) of an offset into the text. */
function position(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split(/\r\n?|\n/);
  return { line: lines.length, column: [...lines[lines.length - 1]].length + 1 };
}

function malformed(line: number, column: number, reason: string): QmlError {
  return new QmlError('', `malformed XML at line ${line}, column ${column}: ${reason}`);
}

function malformedAt(text: string, offset: number, reason: string): QmlError {
  const { line, column } = position(text, offset);
  return malformed(line, column, reason);
}

function codePointName(s: string): string {
  return `U+${s.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Every character and every reference: what the structural parser below is lax about. */
function checkCharactersAndReferences(text: string): void {
  NOT_XML_CHARS.lastIndex = 0;
  const bad = NOT_XML_CHARS.exec(text);
  if (bad) throw malformedAt(text, bad.index, `character ${codePointName(bad[0])} is not allowed in XML 1.0`);
  MARKUP.lastIndex = 0;
  for (let m = MARKUP.exec(text); m; m = MARKUP.exec(text)) {
    if (m[0][0] !== '&') continue;
    const [ref, name, semicolon] = m;
    if (!semicolon || name === '') throw malformedAt(text, m.index, 'a bare "&" (write &amp;)');
    if (name[0] === '#') {
      const digits = /^#x[0-9a-fA-F]+$/.test(name) ? name.slice(2) : /^#[0-9]+$/.test(name) ? name.slice(1) : null;
      const cp = digits === null ? NaN : parseInt(digits, name[1] === 'x' ? 16 : 10);
      if (!isXmlChar(cp)) throw malformedAt(text, m.index, `${ref} is not a character XML 1.0 allows`);
    } else if (!PREDEFINED.has(name)) {
      throw malformedAt(
        text,
        m.index,
        `undefined entity ${ref} (only &lt; &gt; &amp; &quot; &apos; and character references)`,
      );
    }
  }
}

/**
 * Checks that a text is a well-formed XML 1.0 document, and that its elements nest at most
 * `maxDepth` deep; the first problem is a QmlError with its line and column. saxes checks the
 * structure (tags, attributes, names, comments, one root); characters and references are
 * checked here first, where it is lax or reports them late.
 */
export function checkWellFormed(text: string, maxDepth: number, depthReason: string): void {
  checkCharactersAndReferences(text);
  const parser = new SaxesParser({ position: true, defaultXMLVersion: '1.0', forceXMLVersion: true });
  let depth = 0;
  parser.on('error', (e) => {
    // saxes counts the characters read on the line: 0 at the end of a document after a line break.
    const column = Math.max(1, parser.column);
    throw malformed(parser.line, column, e.message.replace(/^\d+:\d+: /, '').replace(/\.$/, ''));
  });
  parser.on('opentag', () => {
    if (++depth > maxDepth) throw new QmlLimitError('', depthReason, 'maxNesting');
  });
  parser.on('closetag', () => {
    depth--;
  });
  parser.write(text).close();
}
