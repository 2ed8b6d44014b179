import { QmlError, QmlLimitError } from '../qml-error.js';
import { parseQml } from './parse.js';

function error(input: string | Uint8Array, maxBytes?: number, maxNesting?: number): QmlError {
  try {
    parseQml(input, { maxBytes, maxNesting });
  } catch (e) {
    if (e instanceof QmlError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('parseQml', () => {
  it('keeps sibling order, attributes as text and trims element text', () => {
    const root = parseQml(`<qml a="1"><select><object alias="A" propertyName=""/><column alias="A" heading="N">
\t\tmaster&gt;number
\t</column><function name="COUNT"/><column alias="A">name</column></select></qml>`);
    expect(root.attrs).toEqual({ a: '1' });
    const select = root.children[0];
    expect(select.children.map((c) => [c.name, c.path])).toEqual([
      ['object', '/qml/select/object[1]'],
      ['column', '/qml/select/column[1]'],
      ['function', '/qml/select/function[1]'],
      ['column', '/qml/select/column[2]'],
    ]);
    expect(select.children[1].text).toBe('master>number');
    expect(select.children[0].attrs).toEqual({ alias: 'A', propertyName: '' });
  });

  it('keeps the white space of a leaf element under xml:space="preserve", nearest ancestor deciding', () => {
    const root = parseQml(`<qml><select xml:space="preserve">
      <constant type="java.lang.String"> - </constant><constant xml:space="default"> x </constant>
    </select><constant xml:space="preserve">\t</constant><constant> y </constant></qml>`);
    const [select, tab, plain] = root.children;
    expect(select.text).toBe('');
    expect(select.children.map((c) => c.text)).toEqual([' - ', 'x']);
    expect(tab.text).toBe('\t');
    expect(plain.text).toBe('y');
  });

  it('accepts a BOM, CRLF, an XML declaration, a DOCTYPE it never fetches and comments', () => {
    const root = parseQml(
      '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\r\n<!DOCTYPE qml SYSTEM "http://127.0.0.1:1/qml.dtd">\r\n<!-- x --><qml>\r\n<statement/>\r\n</qml>\r\n',
    );
    expect(root.name).toBe('qml');
    expect(root.children.map((c) => c.name)).toEqual(['statement']);
  });

  it('decodes predefined entities and character references but does not parse numbers or booleans', () => {
    const root = parseQml(
      '<qml><constant type="x">&lt;&amp;&#65;&#x42; 007</constant><constant isMacro="true">1</constant></qml>',
    );
    expect(root.children[0].text).toBe('<&AB 007');
    expect(root.children[1].attrs.isMacro).toBe('true');
    expect(root.children[1].text).toBe('1');
    const once = parseQml('<qml><c a="x&amp;#65;&quot;">&amp;#65;&amp;lt;&amp;nbsp;</c></qml>').children[0];
    expect(once.text).toBe('&#65;&lt;&nbsp;');
    expect(once.attrs.a).toBe('x&#65;"');
  });

  it('accepts bytes in UTF-8 and rejects bytes that are not', () => {
    expect(parseQml(new TextEncoder().encode('<qml><c>ü</c></qml>')).children[0].text).toBe('ü');
    expect(
      error(Uint8Array.from([0x3c, 0x71, 0x6d, 0x6c, 0x3e, 0xc3, 0x28, 0x3c, 0x2f, 0x71, 0x6d, 0x6c, 0x3e])).message,
    ).toBe('the QML document is not valid UTF-8');
  });

  it('caps the size', () => {
    expect(error('<qml></qml>', 5).message).toBe('the QML document is larger than 5 bytes');
    expect(error(new Uint8Array(10), 5).message).toBe('the QML document is larger than 5 bytes');
  });

  it.each([
    [
      '<!DOCTYPE qml [<!ENTITY a "aaaaaaaaaa">]><qml>&a;</qml>',
      'entity declarations (<!ENTITY) are not allowed in QML',
    ],
    [
      '<!DOCTYPE qml [<!entity a SYSTEM "file:///etc/passwd">]><qml/>',
      'entity declarations (<!ENTITY) are not allowed in QML',
    ],
    ['', 'the QML document is empty'],
    ['<qml/><qml/>', 'malformed XML at line 1, column 11: documents may contain only one root'],
    ['<report/>', '/report: the root element must be "qml"'],
  ])('rejects %j', (input, message) => {
    expect(error(input).message).toBe(message);
  });

  it('rejects malformed XML with its position', () => {
    expect(error('<qml><a></qml>').message).toMatch(/^malformed XML at line 1, column \d+: /);
    expect(error('plain text').message).toMatch(/^malformed XML|^a QML document has exactly one root element/);
  });

  it.each([
    // Before, an unclosed tag was reported at line 1, column 1 whatever its place.
    ['an unclosed tag', '<qml>\n  <statement>\n    <query>\n</qml>', 4, 6, 'unexpected close tag'],
    ['an unclosed tag at the end', '<?xml version="1.0"?>\r\n<qml>\r\n  <statement\r\n', 4, 1, 'unclosed tag: qml'],
    ['a bare &', '<qml>\n  <c>a & b</c></qml>', 2, 8, 'a bare "&" (write &amp;)'],
    ['a bare & in an attribute', '<qml>\n\n <c h="R&D"/></qml>', 3, 9, 'a bare "&" (write &amp;)'],
    ['a C0 control character', '<qml>\n <c>x\u0001</c></qml>', 2, 6, 'character U+0001 is not allowed in XML 1.0'],
    ['U+FFFF', '<qml><c>\uFFFF</c></qml>', 1, 9, 'character U+FFFF is not allowed in XML 1.0'],
    ['a lone surrogate', '<qml>\n<c>\uD800x</c></qml>', 2, 4, 'character U+D800 is not allowed in XML 1.0'],
    ['a reference to a surrogate', '<qml>\n<c>&#xD800;</c></qml>', 2, 4, '&#xD800; is not a character XML 1.0 allows'],
    ['a reference to a C0 control', '<qml><c>&#1;</c></qml>', 1, 9, '&#1; is not a character XML 1.0 allows'],
    ['a reference to U+FFFE', '<qml><c>&#xFFFE;</c></qml>', 1, 9, '&#xFFFE; is not a character XML 1.0 allows'],
    [
      'an entity never declared',
      '<qml>\n<c>&nbsp;</c></qml>',
      2,
      4,
      'undefined entity &nbsp; (only &lt; &gt; &amp; &quot; &apos; and character references)',
    ],
    ['"--" in a comment', '<qml><!-- a -- b --></qml>', 1, 15, 'malformed comment'],
    ['"]]>" in text', '<qml>a]]></qml>', 1, 9, 'the string "]]>" is disallowed in char data'],
    ['"<" in an attribute', '<qml a="<"/>', 1, 9, 'disallowed character'],
    ['a repeated attribute', '<qml a="1" a="2"/>', 1, 18, 'duplicate attribute: a'],
    ['text after the root', '<qml/>\ntext', 2, 4, 'text data outside of root node'],
    [
      'XML 1.1 (its control characters)',
      '<?xml version="1.1"?><qml>&#1;</qml>',
      1,
      27,
      '&#1; is not a character XML 1.0 allows',
    ],
  ])('rejects %s with a real line and column', (_name, input, line, column, reason) => {
    expect(error(input).message).toBe(`malformed XML at line ${line}, column ${column}: ${reason}`);
  });

  it('takes &, < and control characters where XML 1.0 allows them', () => {
    const root = parseQml(
      '<qml><!-- R&D <x> --><c h="a&amp;b&#9;">&#x1F600;\u{1F600}<![CDATA[R&D <x>]]></c><?pi a & b?></qml>',
    );
    expect(root.children[0].attrs.h).toBe('a&b\t');
    expect(root.children[0].text).toBe('\u{1F600}\u{1F600}R&D <x>');
  });

  it('caps the depth of elements: conditions and functions may nest maxNesting levels, plus 16', () => {
    const deep = (n: number) => `<qml>${'<a>'.repeat(n - 1)}${'</a>'.repeat(n - 1)}</qml>`;
    expect(parseQml(deep(20), { maxNesting: 4 }).name).toBe('qml');
    const e = error(deep(21), undefined, 4);
    expect(e).toBeInstanceOf(QmlLimitError);
    expect(e).toMatchObject({
      limit: 'maxNesting',
      message: 'elements nest more than 20 levels deep: conditions and functions may nest 4 levels',
    });
  });
});
