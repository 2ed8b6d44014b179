import { BadRequestException } from '@nestjs/common';
import { standardCatalog } from '../catalog/catalog-load.js';
import { message } from '../common/thrown-message.fixtures.js';
import { checkFields, fieldsReads, fieldValue } from './query-fields.js';

const catalog = standardCatalog().extend(
  [
    {
      where: 'test',
      user: true,
      file: {
        softTypes: [
          {
            name: 'com.acme.SoftwarePart',
            parent: 'wt.part.WTPart',
            attributes: { firmwareVersion: { type: 'string' }, memoryKb: { type: 'long' } },
          },
        ],
      },
    },
  ],
  'test',
);
const caller = { user: { id: 7, name: 'gus', admin: false }, readable: [3, 4], now: new Date('2026-11-27T00:00:00Z') };
const EPM = 'wt.epm.EPMDocument';
const PART = 'wt.part.WTPart';

describe('query fields', () => {
  it('knows the names of the classes of the catalog, and the original gateway names', () => {
    const names = ['name', 'number', 'state', 'CADName', 'containerName', 'location', 'oid'];
    expect(() => checkFields(catalog, names)).not.toThrow();
    expect(() =>
      checkFields(catalog, ['versionDisplayIdentifier', 'iterationInfo.creator.fullName', 'attributes.material']),
    ).not.toThrow();
    expect(() => checkFields(catalog, ['firmwareVersion', 'memoryKb'])).not.toThrow();
    expect(() => checkFields(catalog, null)).not.toThrow();
  });

  it('refuses the names no versioned class has, naming them', () => {
    expect(message(() => checkFields(catalog, ['name', 'colour']), BadRequestException)).toMatch(
      /^unknown field "colour": a field is a property of the objects' classes in the type catalog/,
    );
    expect(message(() => checkFields(catalog, ['colour', 'attributes.', 'iterationInfo.creator.colour']))).toMatch(
      /^unknown fields "colour", "attributes\.", "iterationInfo\.creator\.colour": /,
    );
  });

  it('reads a page in one statement per class, each with the names its class has', () => {
    const items = [
      { id: 11, cls: EPM },
      { id: 12, cls: PART },
      { id: 13, cls: EPM },
    ];
    const reads = fieldsReads(catalog, ['oid', 'number', 'CADName', 'state', 'location'], items, caller);
    expect(reads.map((r) => r.names)).toEqual([
      ['number', 'CADName', 'state', 'location'],
      ['number', 'state', 'location'],
    ]);
    const [epm, part] = reads;
    // The ids are bound values, the caller's containers too; no name is in the text as a value.
    expect(epm.sql.values).toEqual(expect.arrayContaining([11, 13]));
    expect(part.sql.values).toEqual(expect.arrayContaining([12]));
    expect(part.sql.values).not.toContain(11);
    expect(epm.sql.text).toMatch(/\bIN \(/);
    expect(epm.sql.text).not.toMatch(/CADName|location/);
  });

  it('reads custom attributes by attributes.<name>, and declared ones by their name', () => {
    const reads = fieldsReads(
      catalog,
      ['attributes.material', 'memoryKb'],
      [
        { id: 1, cls: PART },
        { id: 2, cls: 'wt.doc.WTDocument' },
      ],
      caller,
    );
    expect(reads.map((r) => r.names)).toEqual([['attributes.material', 'memoryKb'], ['attributes.material']]);
    expect(reads[0].sql.values).toEqual(expect.arrayContaining(['material', 'memoryKb']));
  });

  it('needs no statement for a class with none of the fields', () => {
    expect(fieldsReads(catalog, ['CADName'], [{ id: 5, cls: PART }], caller)).toEqual([]);
  });

  it('gives values as JSON', () => {
    expect(fieldValue(12n)).toBe(12);
    expect(fieldValue(2n ** 60n)).toBe('1152921504606846976');
    expect(fieldValue(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
    expect(fieldValue({ toNumber: () => 1.25 })).toBe(1.25);
    expect(fieldValue(undefined)).toBeNull();
    expect(fieldValue('x')).toBe('x');
  });
});
