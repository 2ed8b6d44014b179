import { message as thrownMessage } from '../../common/thrown-message.fixtures.js';
import { mapLegacyKeys } from './q-legacy.js';
import { QError } from './q-model.js';
import { parseQuery } from './q-parse.js';

const message = (raw: unknown[]): string => thrownMessage(() => parseQuery(raw), QError);
const echoed = (...raw: unknown[]) => parseQuery(raw).parts.map((p) => p.normalized);

describe("the original gateway's q", () => {
  it('reads single-quoted q texts as JSON', () => {
    expect(echoed("{'name':'lego*.prt'}", '{"number":"0815*"}')).toEqual([
      { name: 'lego*.prt', latest: true },
      { number: '0815*', latest: true },
    ]);
  });

  it("maps the original's keys onto ours", () => {
    expect(echoed({ type: 'wt.part.WTPart', name: '*.prt', config_spec: 'latest' })).toEqual([
      { type: 'wt.part.WTPart', name: '*.prt', latest: true },
    ]);
    expect(echoed({ creator: 'alice', modifier: 'bob', latest_iteration: 'no' })).toEqual([
      { createdBy: 'alice', modifiedBy: 'bob', latest: false },
    ]);
    expect(
      echoed({ Name: 'x', NUMBER: 'y', State: 'RELEASED', Config_Spec: 'Latest', TYPE: 'wt.doc.WTDocument' }),
    ).toEqual([{ name: 'x', number: 'y', state: 'RELEASED', latest: true, type: 'wt.doc.WTDocument' }]);
    for (const [v, latest] of [
      ['yes', true],
      ['ON', true],
      [1, true],
      [true, true],
      ['0', false],
      ['False', false],
    ]) {
      expect(echoed({ latest_iteration: v })).toEqual([{ latest }]);
    }
  });

  it('leaves objects without any of those keys as they are', () => {
    const q = { name: 'x', createdBy: 'alice' };
    expect(mapLegacyKeys(q, 'q[0]')).toBe(q);
    expect(mapLegacyKeys('x', 'q[0]')).toBe('x');
    expect(mapLegacyKeys(['x'], 'q[0]')).toEqual(['x']);
  });

  it.each<[unknown[], string]>([
    [
      [{ name: '*.prt', config_spec: 'baseline|B1' }],
      'q[0].config_spec: config spec "baseline|B1" is not supported (supported: latest)',
    ],
    [[{ config_spec: 5 }], 'q[0].config_spec: 5 is not a config spec (supported: latest)'],
    [[{ latest_iteration: 'maybe' }], 'q[0].latest_iteration: "maybe" is not yes or no'],
    [[{ config_spec: 'latest', latest: false }], 'q[0]: latest is given twice (as config_spec and as latest)'],
    [[{}, { creator: 'a', createdBy: 'b' }], 'q[1]: createdBy is given twice (as creator and as createdBy)'],
    [[{ Name: 'a', name: 'b' }], 'q[0]: name is given twice (as Name and as name)'],
    [["{'name':'x'"], `q[0]: not JSON: "{'name':'x'": "," or "}" expected at position 11`],
    [['{number:'], 'q[0]: not JSON: "{number:": a quoted key expected at position 1'],
    [["{'colour':'red'}"], 'q[0].colour: unknown key'],
    [[{ Colour: 'red', Name: 'x' }], 'q[0].Colour: unknown key'],
  ])('refuses %j', (raw, expected) => {
    expect(message(raw)).toContain(expected);
  });
});
