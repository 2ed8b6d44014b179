import { message as thrownMessage } from '../common/thrown-message.fixtures.js';
import { DatasetError, validateDataset } from './dataset.js';

const base = {
  format: 'pdm-dataset/1',
  containers: [{ name: 'C', class: 'wt.pdmlink.PDMLinkProduct' }],
};
const part = { class: 'wt.part.WTPart', number: 'P-1', name: 'n', container: 'C' };
const ref = (cls: string, number: string) => ({ ref: { class: cls, number } });
/** A plain class keeping a number that is not a reference of the catalog. */
const types = {
  classes: [
    {
      name: 'com.acme.qa.Measurement',
      parent: 'wt.fc.Item',
      properties: {
        partId: { type: 'long', json: 'part' },
        value: { type: 'double', json: 'value' },
      },
    },
  ],
};
const measurement = { class: 'com.acme.qa.Measurement', number: 'M-1' };

const message = (data: unknown): string => thrownMessage(() => validateDataset(data), DatasetError);

describe('validateDataset: numbers given as references', () => {
  it('takes a reference for a long property, an attribute and a link property, kept apart from the plain values', () => {
    const d = validateDataset({
      ...base,
      types,
      objects: [
        { ...measurement, properties: { partId: ref('wt.part.WTPart', 'P-1'), value: 2.5 } },
        { ...part, properties: { 'view.key.id': ref('wt.vc.views.View', 'Design') }, attributes: { a: 1 } },
        { ...part, iteration: 2, attributes: { reviewer: ref('wt.org.WTUser', 'bob') } },
      ],
    });
    expect(d.plainObjects[0]).toMatchObject({
      props: { value: 2.5 },
      ids: [{ key: 'part', ref: { class: 'wt.part.WTPart', key: 'P-1' }, path: 'objects[0].properties.partId' }],
    });
    expect(d.objects[0]).toMatchObject({
      path: 'objects[1]',
      attributes: { a: 1 },
      ids: [
        { key: 'view', ref: { class: 'wt.vc.views.View', key: 'Design' }, path: 'objects[1].properties.view.key.id' },
      ],
    });
    expect(d.objects[1].ids).toEqual([
      { key: 'reviewer', ref: { class: 'wt.org.WTUser', key: 'bob' }, path: 'objects[2].attributes.reviewer' },
    ]);
    expect(d.objects[1].attributes).toEqual({});
  });

  it.each<[string, unknown, string]>([
    [
      'of a property that is not a long',
      { ...part, properties: { source: ref('wt.part.WTPart', 'P-2') } },
      'objects[0].properties.source: a reference gives an id, which only a long takes (this is a string)',
    ],
    [
      'of a class other than the target of the reference kept in the same value',
      { ...part, properties: { 'view.key.id': ref('wt.part.WTPart', 'P-2') } },
      'objects[0].properties.view.key.id.ref.class: wt.part.WTPart is not a wt.vc.views.View: wt.part.WTPart keeps ' +
        'its reference view in this value',
    ],
    [
      'of an unknown class',
      { ...measurement, properties: { partId: ref('wt.part.WTPartt', 'P-2') } },
      'objects[0].properties.partId.ref.class: unknown class wt.part.WTPartt',
    ],
    [
      'of a class whose objects have no number',
      { ...measurement, properties: { partId: ref('wt.part.WTPartUsageLink', '7') } },
      'objects[0].properties.partId.ref.class: objects of wt.part.WTPartUsageLink (storage usageLink) cannot be ' +
        'named by number or name; name a class of objects, versioned objects, masters, users or containers',
    ],
    [
      'without a class',
      { ...measurement, properties: { partId: { ref: 'P-1' } } },
      'objects[0].properties.partId.ref: a reference is { "ref": { "class": "<class>", "number": "<number or name>" } }',
    ],
    [
      'with an empty number',
      { ...measurement, properties: { partId: ref('wt.part.WTPart', ' ') } },
      'objects[0].properties.partId.ref: a reference is { "ref": { "class": "<class>", "number": "<number or name>" } }',
    ],
    [
      'with another field',
      { ...measurement, properties: { partId: { ...ref('wt.part.WTPart', 'P-1'), id: 7 } } },
      'objects[0].properties.partId: unknown field "id" (a reference is { "ref": { "class": "<class>", "number": ' +
        '"<number or name>" } })',
    ],
    [
      'for an attribute of an array',
      { ...part, attributes: { a: [] } },
      'objects[0].attributes.a: must be a string, number, boolean, null or { "ref": { "class": "<class>", "number": ' +
        '"<number or name>" } }',
    ],
    [
      'and a reference for the same value',
      { ...part, properties: { 'view.key.id': 3 }, references: { view: 'Design' } },
      'objects[0].references.view: keeps its target where a property or attribute gives a value too; give one of them',
    ],
    [
      'as a reference and as a number of the same value',
      { ...part, properties: { 'view.key.id': ref('wt.vc.views.View', 'Design') }, references: { view: 'Design' } },
      'objects[0].references.view: keeps its target where objects[0].properties.view.key.id gives a value too; give ' +
        'one of them',
    ],
  ])('refuses a reference %s', (_, object, expected) => {
    expect(message({ ...base, types, objects: [object] })).toBe(expected);
  });

  it('refuses a link property given as a reference of a class that has no number', () => {
    expect(
      message({
        ...base,
        types: {
          classes: [
            {
              name: 'com.acme.qa.Checked',
              parent: 'wt.fc.ObjectToObjectLink',
              roles: { a: 'wt.part.WTPart', b: 'wt.doc.WTDocument' },
              properties: { checkerId: { type: 'long', json: 'checker' } },
            },
          ],
        },
        links: [
          {
            class: 'com.acme.qa.Checked',
            a: 'P-1',
            b: 'D-1',
            properties: { checkerId: ref('wt.fc.Persistable', 'x') },
          },
        ],
      }),
    ).toBe(
      'links[0].properties.checkerId.ref.class: objects of wt.fc.Persistable (storage of several kinds) cannot be ' +
        'named by number or name; name a class of objects, versioned objects, masters, users or containers',
    );
  });
});

describe('validateDataset: what a versioned record gives its master', () => {
  it('keeps the master class properties, its attributes and the properties kept on the master apart', () => {
    const d = validateDataset({
      ...base,
      objects: [
        {
          ...part,
          properties: { source: 'buy', defaultUnit: 'kg' },
          attributes: { colour: 'red' },
          master: {
            properties: { endItem: true },
            attributes: { supplierCode: 'S-17', approverId: ref('wt.org.WTUser', 'bob') },
          },
        },
      ],
    });
    expect(d.objects[0]).toMatchObject({
      attributes: { source: 'buy', colour: 'red' },
      ids: [],
      master: {
        props: { endItem: true, supplierCode: 'S-17', defaultUnit: 'kg' },
        ids: [
          {
            key: 'approverId',
            ref: { class: 'wt.org.WTUser', key: 'bob' },
            path: 'objects[0].master.attributes.approverId',
          },
        ],
        references: {},
      },
    });
    expect(validateDataset({ ...base, objects: [part] }).objects[0].master).toEqual({
      props: {},
      ids: [],
      references: {},
    });
  });

  it.each<[string, unknown, string]>([
    [
      'a value of the wrong type',
      { ...part, master: { properties: { endItem: 'yes' } } },
      'objects[0].master.properties.endItem: must be true or false',
    ],
    [
      'a property kept on the master given there and in properties',
      { ...part, properties: { defaultUnit: 'kg' }, master: { properties: { defaultUnit: 'g' } } },
      'objects[0].properties.defaultUnit: is kept on the master, and "master" gives that value too; give one of them',
    ],
    ['an unknown field', { ...part, master: { number: 'P-2' } }, 'objects[0].master: unknown field "number"'],
  ])('refuses %s', (_, object, expected) => {
    expect(message({ ...base, objects: [object] })).toBe(expected);
  });

  it('names what the master class keeps in JSON when it has no such property or reference', () => {
    expect(message({ ...base, objects: [{ ...part, master: { properties: { name: 'x' } } }] })).toMatch(
      /^objects\[0\]\.master\.properties\.name: is not a property of wt\.part\.WTPartMaster kept in JSON \(its JSON properties: .*\bendItem\b.*\)$/,
    );
    expect(message({ ...base, objects: [{ ...part, master: { references: { view: 'Design' } } }] })).toMatch(
      /^objects\[0\]\.master\.references\.view: is not a reference of wt\.part\.WTPartMaster kept in JSON \(those: .*\)$/,
    );
  });

  it('is only for versioned records', () => {
    expect(message({ ...base, objects: [{ class: 'wt.vc.views.View', name: 'Design', master: {} }] })).toBe(
      'objects[0]: unknown field "master"',
    );
  });
});
