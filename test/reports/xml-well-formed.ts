import { SaxesParser } from 'saxes';

/** Anything but the Char production of XML 1.0 (a lone surrogate is a code point of its own here). */
const NOT_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * Parses a document strictly as XML 1.0 (saxes, which throws at the first problem) after
 * checking every character: what a consumer's conforming parser would refuse, this throws.
 * Returns the root element's name and the document's comments.
 */
export function parseStrictXml(text: string): { root: string; comments: string[] } {
  const bad = NOT_CHAR.exec(text);
  if (bad) throw new Error(`character U+${bad[0].codePointAt(0)!.toString(16)} at offset ${bad.index}`);
  const parser = new SaxesParser({ defaultXMLVersion: '1.0', forceXMLVersion: true, position: true });
  let root = '';
  const comments: string[] = [];
  parser.on('opentag', (tag) => {
    root ||= tag.name;
  });
  parser.on('comment', (c) => comments.push(c));
  parser.write(text).close();
  return { root, comments };
}
