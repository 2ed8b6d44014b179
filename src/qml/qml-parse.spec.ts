import { QmlError } from './qml-error.js';
import { parseQml } from './qml-parse.js';

function error(input: string | Uint8Array, maxBytes?: number): QmlError {
  try {
    parseQml(input, { maxBytes });
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
    const once = parseQml('<qml><c a="x&amp;#65;&quot;">&amp;#65;&amp;lt;&nbsp;</c></qml>').children[0];
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
    ['<qml/><qml/>', 'a QML document has exactly one root element, found 2'],
    ['<report/>', '/report: the root element must be "qml"'],
  ])('rejects %j', (input, message) => {
    expect(error(input).message).toBe(message);
  });

  it('rejects malformed XML with its position', () => {
    expect(error('<qml><a></qml>').message).toMatch(/^malformed XML at line 1, column \d+: /);
    expect(error('plain text').message).toMatch(/^malformed XML|^a QML document has exactly one root element/);
  });
});
