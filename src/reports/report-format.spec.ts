import express, { type Request } from 'express';
import fc from 'fast-check';
import { parseStrictXml } from '../../test/reports/xml-well-formed.js';
import {
  cell,
  csvChunks,
  headingTags,
  negotiateFormat,
  REPLACED_COMMENT,
  toCsv,
  toXml,
  xmlChunks,
  xmlText,
  type CellValue,
  type ReportResult,
  type XmlReportMeta,
} from './report-format.js';

const result: ReportResult = {
  columns: [
    { heading: 'Name', type: 'string', typeName: 'java.lang.String' },
    { heading: 'n', type: 'long', typeName: 'java.lang.Long' },
  ],
  rows: [
    ['a,"b"', 1],
    ['line\nbreak', null],
  ],
  truncated: false,
};

describe('report formats', () => {
  it('makes XML tags from headings', () => {
    expect(headingTags(['❶ Nr', '\u{1F600}', 'x\uD800', '\u0301a'])).toEqual(['__Nr', '_', 'x_', '_\u0301a']);
    expect(headingTags(['Last Modified', 'Name', 'Name', '1st', 'Größe (kg)', 'a:b', '', 'Name_2'])).toEqual([
      'Last_Modified',
      'Name',
      'Name_2',
      '_1st',
      'Größe__kg_',
      'a_b',
      '_',
      'Name_2_2',
    ]);
  });

  it('converts database values', () => {
    expect(cell(5n)).toBe(5);
    expect(cell(2n ** 60n)).toBe('1152921504606846976');
    expect(cell(new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000Z');
    expect(cell(undefined)).toBeNull();
    expect(cell(true)).toBe(true);
  });

  it('writes RFC 4180 CSV', () => {
    expect(toCsv(result, { neutralizeFormulas: true })).toBe('Name,n\r\n"a,""b""",1\r\n"line\nbreak",\r\n');
  });

  const formulas: ReportResult = {
    columns: [
      { heading: '=Heading', type: 'string', typeName: 'java.lang.String' },
      { heading: 'n', type: 'long', typeName: 'java.lang.Long' },
      { heading: 'x', type: 'double', typeName: 'java.lang.Double' },
    ],
    rows: [
      ['=HYPERLINK("http://x","y")', -5, -0.5],
      ['+1', '-9223372036854775808', 1],
      ['-5', 2, 3],
      ['@SUM(A1)', 3, 4],
      ['\tx', 4, 5],
      ['\rx', 5, 6],
      ['a=b', 6, 7],
    ],
    truncated: false,
  };

  it('neutralises cells a spreadsheet would run as formulas, but not the values of numeric columns', () => {
    expect(toCsv(formulas, { neutralizeFormulas: true }).split('\r\n')).toEqual([
      "'=Heading,n,x",
      `"'=HYPERLINK(""http://x"",""y"")",-5,-0.5`,
      "'+1,-9223372036854775808,1",
      "'-5,2,3",
      "'@SUM(A1),3,4",
      "'\tx,4,5",
      `"'\rx",5,6`,
      'a=b,6,7',
      '',
    ]);
  });

  it('leaves cells as they are when told not to neutralise formulas', () => {
    expect(toCsv(formulas, { neutralizeFormulas: false }).split('\r\n')).toEqual([
      '=Heading,n,x',
      '"=HYPERLINK(""http://x"",""y"")",-5,-0.5',
      '+1,-9223372036854775808,1',
      '-5,2,3',
      '@SUM(A1),3,4',
      '\tx,4,5',
      '"\rx",5,6',
      'a=b,6,7',
      '',
    ]);
  });

  it('escapes XML text and replaces characters XML cannot carry', () => {
    expect(xmlText('<a & "b">\u0001')).toBe('&lt;a &amp; &quot;b&quot;&gt;\uFFFD');
    expect(xmlText('a\uD800b\uDC00c\uD83D\uDE00\uFFFE\uFFFF\t\n\r\u0000')).toBe(
      'a\uFFFDb\uFFFDc\uD83D\uDE00\uFFFD\uFFFD\t\n\r\uFFFD',
    );
  });

  it('never writes an ill-formed document, and says when it replaced characters', () => {
    const meta = (over: Partial<XmlReportMeta> = {}): XmlReportMeta => ({
      name: 'R',
      description: null,
      oid: 'OR:wt.query.template.ReportTemplate:3',
      principal: { fullName: 'Bob', oid: 'OR:wt.org.WTUser:2' },
      time: new Date('2026-01-01T00:00:00Z'),
      requestParameters: [],
      qml: '<qml><statement/></qml>',
      actualParameters: [],
      ...over,
    });
    const clean = toXml(meta(), result);
    expect(parseStrictXml(clean).comments).toEqual([]);
    const dirty = toXml(meta({ requestParameters: [['x\u0001', 'a\uD800']] }), {
      ...result,
      rows: [['bell\u0007', 1]],
    });
    expect(parseStrictXml(dirty)).toEqual({
      root: 'queryResult',
      comments: [' characters XML 1.0 cannot carry were replaced by U+FFFD '],
    });
    expect(dirty).toContain(`<?xml version="1.0" encoding="UTF-8"?>\n${REPLACED_COMMENT}\n<queryResult>`);
    expect(dirty).toContain('<dataItem name="x\uFFFD">a\uFFFD</dataItem>');
    expect(dirty).toContain('<Name>bell\uFFFD</Name>');
  });

  it.each([
    ['a bare &', '<qml><c>R&D</c></qml>'],
    ['a control character', '<qml><c>\u0001</c></qml>'],
    ['a reference to a surrogate', '<qml><c>&#xD800;</c></qml>'],
    ['an undeclared entity', '<qml><c>&nbsp;</c></qml>'],
  ])('embeds a stored template with %s as escaped text, marked not well-formed', (_name, qml) => {
    const xml = toXml(
      {
        name: 'R',
        description: null,
        oid: 'O',
        principal: { fullName: 'B', oid: 'U' },
        time: new Date(0),
        requestParameters: [],
        qml,
        actualParameters: [],
      },
      result,
    );
    expect(parseStrictXml(xml).root).toBe('queryResult');
    expect(xml).toContain(`<qml wellFormed="false">${xmlText(qml)}</qml>`);
  });

  it('writes well-formed XML 1.0 whatever the names, headings and values', () => {
    const nasty = fc.string({
      unit: fc.oneof(
        fc.constantFrom(
          '\u0000',
          '\u0001',
          '\u001F',
          '\uD800',
          '\uDFFF',
          '\uFFFE',
          '\uFFFF',
          '&',
          '<',
          '>',
          '"',
          ']]>',
          '--',
          '\r',
          ':',
          '1',
        ),
        fc.string({ unit: 'binary', maxLength: 2 }),
      ),
      maxLength: 12,
    });
    const value: fc.Arbitrary<CellValue> = fc.oneof(nasty, fc.double(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(
        nasty,
        fc.array(nasty, { minLength: 1, maxLength: 4 }),
        fc.array(value, { maxLength: 4 }),
        nasty,
        (name, headings, row, param) => {
          const xml = toXml(
            {
              name,
              description: name,
              oid: name,
              principal: { fullName: name, oid: name },
              time: new Date(0),
              requestParameters: [[param, param]],
              qml: `<qml>${name}</qml>`,
              actualParameters: [{ name: param, value: param }],
            },
            {
              columns: headings.map((heading) => ({ heading, type: 'string', typeName: heading })),
              rows: [headings.map((_, i) => row[i] ?? null)],
              truncated: false,
            },
          );
          expect(parseStrictXml(xml).root).toBe('queryResult');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('writes the queryResult document', () => {
    const xml = toXml(
      {
        name: 'R & D',
        description: null,
        oid: 'OR:wt.query.template.ReportTemplate:3',
        principal: { fullName: 'Bob', oid: 'OR:wt.org.WTUser:2' },
        time: new Date('2026-01-01T00:00:00Z'),
        requestParameters: [['x', '<1>']],
        qml: '\uFEFF<?xml version="1.0"?>\n<!DOCTYPE qml SYSTEM "/x.dtd">\n<qml><statement/></qml>',
        actualParameters: [
          { name: 'x', value: '<1>' },
          { name: 'y', value: null },
        ],
      },
      { ...result, truncated: true },
    );
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<queryResult>\n' +
        '<metadata><name>R &amp; D</name><description isNull="true"/><objectIdentifier>OR:wt.query.template.ReportTemplate:3</objectIdentifier>' +
        '<executingPrincipal><fullName>Bob</fullName><objectIdentifier>OR:wt.org.WTUser:2</objectIdentifier></executingPrincipal>' +
        '<timeOfExecution>2026-01-01T00:00:00.000Z</timeOfExecution></metadata>\n' +
        '<auxData><dataItem name="x">&lt;1&gt;</dataItem><dataItem name="truncated">true</dataItem></auxData>\n' +
        '<qml><statement/></qml>\n' +
        '<actualParameter parameterId="x">&lt;1&gt;</actualParameter><actualParameter parameterId="y" isNull="true"/>\n' +
        '<result>\n<heading type="java.lang.String" tag="Name">Name</heading>\n<heading type="java.lang.Long" tag="n">n</heading>\n' +
        '<row idx="1"><Name>a,&quot;b&quot;</Name><n>1</n></row>\n<row idx="2"><Name>line\nbreak</Name><n isNull="true"/></row>\n' +
        '</result>\n</queryResult>\n',
    );
  });

  it('writes a long result in chunks of many rows, the same bytes as a whole, and says a replacement of a late row first', () => {
    const rows: CellValue[][] = Array.from({ length: 20_000 }, (_, i) => [`=row ${i}, "quoted"`, i]);
    rows.push(['lone \uD800', null]);
    const long: ReportResult = { ...result, rows };
    const meta: XmlReportMeta = {
      name: 'R',
      description: null,
      oid: 'O',
      principal: { fullName: 'B', oid: 'U' },
      time: new Date(0),
      requestParameters: [],
      qml: '<qml/>',
      actualParameters: [],
    };
    const csv = [...csvChunks(long, { neutralizeFormulas: true })];
    const xml = [...xmlChunks(meta, long)];
    expect(csv.length).toBeGreaterThan(5);
    expect(xml.length).toBeGreaterThan(5);
    expect(csv[0].startsWith('Name,n\r\n"\'=row 0, ""quoted""",0\r\n')).toBe(true);
    expect(csv.join('').split('\r\n')).toHaveLength(20_003);
    expect(csv.join('').endsWith('\r\nlone \uD800,\r\n')).toBe(true);
    expect(xml[0]).toContain(`<?xml version="1.0" encoding="UTF-8"?>\n${REPLACED_COMMENT}\n<queryResult>`);
    expect(
      xml
        .at(-1)!
        .endsWith('<row idx="20001"><Name>lone \uFFFD</Name><n isNull="true"/></row>\n</result>\n</queryResult>\n'),
    ).toBe(true);
    expect(parseStrictXml(xml.join('')).root).toBe('queryResult');
    expect(Math.max(...xml.slice(0, -1).map((c) => c.length))).toBeLessThan(70 * 1024);
  });

  it.each([
    [undefined, undefined, 'xml'],
    ['JSON', 'text/csv', 'json'],
    ['pdf', undefined, 'bad'],
    [undefined, 'application/json', 'json'],
    [undefined, 'text/csv;q=0.5, application/json;q=0.9', 'json'],
    [undefined, 'text/html, */*;q=0.1', 'xml'],
    [undefined, 'text/xml', 'xml'],
    [undefined, 'image/png', null],
    [undefined, '', 'xml'],
    [undefined, '*/*, application/json', 'json'],
    [undefined, 'text/*', 'xml'],
  ])('negotiates format=%s Accept=%s → %s', (format, accept, expected) => {
    // A request of Express's own, so its negotiation (req.accepts) is the one tested.
    const req = Object.assign(Object.create(express.request) as Request, {
      headers: accept === undefined ? {} : { accept },
    });
    expect(negotiateFormat(format, req)).toBe(expected);
  });
});
