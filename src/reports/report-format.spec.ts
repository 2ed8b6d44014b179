import { cell, headingTags, negotiateFormat, toCsv, toXml, xmlText, type ReportResult } from './report-format.js';

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
    expect(toCsv(result)).toBe('Name,n\r\n"a,""b""",1\r\n"line\nbreak",\r\n');
  });

  it('escapes XML text and replaces characters XML cannot carry', () => {
    expect(xmlText('<a & "b">\u0001')).toBe('&lt;a &amp; &quot;b&quot;&gt;\uFFFD');
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

  it.each([
    [undefined, undefined, 'xml'],
    ['JSON', 'text/csv', 'json'],
    ['pdf', undefined, 'bad'],
    [undefined, 'application/json', 'json'],
    [undefined, 'text/csv;q=0.5, application/json;q=0.9', 'json'],
    [undefined, 'text/html, */*;q=0.1', 'xml'],
    [undefined, 'text/xml', 'xml'],
    [undefined, 'image/png', null],
  ])('negotiates format=%s Accept=%s → %s', (format, accept, expected) => {
    expect(negotiateFormat(format, accept)).toBe(expected);
  });
});
