import { QError } from './q-model.js';
import { parseQuery } from './q-parse.js';
import { message as thrownMessage } from '../../common/thrown-message.fixtures.js';

const message = (raw: unknown[]): string => thrownMessage(() => parseQuery(raw), QError);

describe('parseQuery', () => {
  it('reads plain values as exact, wildcard, null and any-of conditions', () => {
    const { parts } = parseQuery(['{"number":"0000*","name":"Spec\\\\*","subtype":null,"state":["A","B*"]}']);
    expect(parts[0].criteria).toEqual([
      { key: 'number', kind: 'text', attribute: undefined, conds: [{ op: 'like', pattern: '0000%' }] },
      { key: 'name', kind: 'text', attribute: undefined, conds: [{ op: 'eq', value: 'Spec*' }] },
      { key: 'subtype', kind: 'text', attribute: undefined, conds: [{ op: 'empty' }] },
      {
        key: 'state',
        kind: 'text',
        attribute: undefined,
        conds: [
          {
            op: 'any',
            conds: [
              { op: 'eq', value: 'A' },
              { op: 'like', pattern: 'B%' },
            ],
          },
        ],
      },
    ]);
    expect(parts[0].latest).toBe(true);
    expect(parts[0].normalized).toEqual({
      number: '0000*',
      name: 'Spec\\*',
      subtype: null,
      state: ['A', 'B*'],
      latest: true,
    });
  });

  it('reads operators and normalizes timestamps to UTC', () => {
    const { parts } = parseQuery([
      {
        iteration: { gte: 2, in: [1, 2] },
        created: { between: ['2026-01-01', '2026-02-01T00:00:00+01:00'] },
        name: { ilike: 'a_b*', exists: true, ne: null },
        latest: false,
      },
    ]);
    expect(parts[0].criteria.map((c) => c.conds)).toEqual([
      [
        { op: 'gte', value: 2 },
        { op: 'in', values: [1, 2] },
      ],
      [{ op: 'between', low: '2026-01-01T00:00:00.000Z', high: '2026-01-31T23:00:00.000Z' }],
      [{ op: 'ilike', pattern: 'a\\_b%' }, { op: 'present' }, { op: 'present' }],
    ]);
    expect(parts[0].latest).toBe(false);
    expect(parts[0].normalized.created).toEqual({ between: ['2026-01-01T00:00:00.000Z', '2026-01-31T23:00:00.000Z'] });
  });

  it('reads attribute keys', () => {
    const { parts } = parseQuery(['{"attributes.material":"S235","attributes.weight":{"gt":2.5}}']);
    expect(parts[0].criteria).toEqual([
      { key: 'attributes.material', kind: 'attribute', attribute: 'material', conds: [{ op: 'eq', value: 'S235' }] },
      { key: 'attributes.weight', kind: 'attribute', attribute: 'weight', conds: [{ op: 'gt', value: 2.5 }] },
    ]);
  });

  it('takes the sort of the objects that give one, number by default', () => {
    expect(parseQuery(['{}']).sort).toEqual([{ key: 'number', desc: false }]);
    expect(parseQuery(['{}', '{"sort":["-modified","name"]}', '{"sort":["-modified","name"]}']).sort).toEqual([
      { key: 'modified', desc: true },
      { key: 'name', desc: false },
    ]);
    expect(message(['{"sort":"name"}', '{"sort":["name","number"]}'])).toBe(
      'the OR-ed q objects have different sort values (name and name,number)',
    );
  });

  it('names a value nested too deep to print instead of overflowing the stack', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(message([`{"number":${deep}}`])).toBe('q[0].number[0]: […] is not a plain value');
    expect(message([deep])).toBe('q[0]: not a JSON object: […]');
  });

  it('does not count sort as a criterion', () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`attributes.a${i}`, 'x']));
    expect(parseQuery([{ ...twenty, sort: 'name' }]).parts[0].criteria).toHaveLength(20);
    expect(message([{ ...twenty, latest: true }])).toBe('q[0]: more than 20 criteria (21)');
  });

  it.each<[unknown[], string]>([
    [[], 'q is required: a JSON object such as {"number":"0000*"}'],
    [['{'], 'q[0]: not JSON: "{"'],
    [[[{}]], 'q[0]: not a JSON object: [{}]'],
    [[42], 'q[0]: not a JSON object: 42'],
    [['{}', '{"x":1}'], 'q[1].x: unknown key'],
    [['{"__proto__":{"a":1}}'], 'q[0].__proto__: unknown key'],
    [['{"toString":"x"}'], 'q[0].toString: unknown key'],
    [['{"number":{"eq":"a","rx":"b"}}'], 'q[0].number.rx: unknown operator'],
    [['{"iteration":true}'], 'q[0].iteration: true is not an integer'],
    [['{"iteration":3000000000}'], 'q[0].iteration: 3000000000 is out of range'],
    [['{"created":20260101}'], 'q[0].created: 20260101 is not an ISO-8601 timestamp'],
    [['{"created":{"like":"2026*"}}'], 'q[0].created.like: only string keys take like'],
    [['{"number":{"lt":null}}'], 'q[0].number.lt: null is not a string'],
    [['{"number":{"in":[null]}}'], 'q[0].number.in[0]: null is not a string'],
    [['{"state":[{"eq":"A"}]}'], 'q[0].state[0]: {"eq":"A"} is not a plain value'],
    [['{"type":"wt.doc.WTDocumentMaster"}'], 'q[0].type: unknown type "wt.doc.WTDocumentMaster"'],
    [['{"type":null,"sort":[]}'], 'q[0].sort: [] is not a sort key or a non-empty array of sort keys'],
    [['{"sort":[1]}'], 'q[0].sort[0]: 1 is not a string'],
    [['{"attributes.w":{"gt":"x","lt":false}}'], 'q[0].attributes.w.lt: false cannot be compared by order'],
    [[`{"name":"${'x'.repeat(200)}","iteration":"y"}`], 'q[0].iteration: "y" is not an integer'],
    [[`{"iteration":"${'9'.repeat(200)}"}`], `q[0].iteration: "${'9'.repeat(76)}...`],
    [['{"name":{"gte":true}}'], 'q[0].name.gte: true cannot be compared by order'],
    [['{"type":{"gt":"a"}}'], 'q[0].type.gt: type takes only eq, ne and in'],
    [['{"sort":["name","colour"]}'], 'q[0].sort[1]: unknown sort key "colour"'],
    [['{"sort":["name","name"]}'], 'q[0].sort: ["name","name"] gives a sort key twice'],
    [['{"sort":["name","-name"]}'], 'q[0].sort: sort key "name" given twice'],
    [['{"latest":true,"sort":"name","number":{"eq":"1","in":"x"}}'], 'q[0].number.in: "x" is not an array'],
  ])('refuses %j', (raw, expected) => {
    expect(message(raw)).toContain(expected);
  });
});
