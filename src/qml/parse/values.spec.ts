import { QmlError } from '../qml-error.js';
import { convertValue, expandMacro } from './values.js';

const ctx = { userId: 4, userName: 'bob', now: new Date('2026-02-03T04:05:06.789Z') };

describe('values', () => {
  it.each([
    ['string', ' a ', ' a '],
    ['long', '42', 42],
    ['long', '-7', -7],
    ['long', 'OR:wt.org.WTUser:12', 12],
    ['double', '1.25', 1.25],
    ['double', '1e3', 1000],
    ['boolean', '1', true],
    ['boolean', 'FALSE', false],
    ['timestamp', '2026-01-02', new Date('2026-01-02T00:00:00Z')],
    ['timestamp', '2026-01-02T03:04:05+02:00', new Date('2026-01-02T01:04:05Z')],
    ['timestamp', '2026-01-02 03:04:05.5Z', new Date('2026-01-02T03:04:05.500Z')],
  ] as const)('converts %s %j', (type, text, value) => {
    expect(convertValue(text, type, 'value', '/p')).toEqual(value);
  });

  it.each([
    ['long', 'x', 'an integer'],
    ['long', '99999999999999999', 'an integer'],
    ['double', '1,5', 'a number'],
    ['boolean', 'yes', 'a boolean (true, false, 1, 0)'],
    ['timestamp', '02.01.2026', 'an ISO-8601 timestamp'],
    ['timestamp', '2026-13-01', 'a valid timestamp'],
  ] as const)('rejects %s %j', (type, text, kind) => {
    expect(() => convertValue(text, type, 'parameter "p" value', '/qml/x')).toThrow(
      new QmlError('/qml/x', `parameter "p" value "${text}" is not ${kind}`),
    );
  });

  it('expands macros', () => {
    expect(expandMacro('CURRENT_USER_NAME', ctx, '/p')).toBe('bob');
    expect(expandMacro('CURRENT_USER', ctx, '/p')).toBe('OR:wt.org.WTUser:4');
    expect(expandMacro('CURRENT_TIME', ctx, '/p')).toBe('2026-02-03T04:05:06.789Z');
    expect(expandMacro(' CURRENT_DATE ', ctx, '/p')).toBe('2026-02-03T00:00:00.000Z');
    expect(() => expandMacro('NOW', ctx, '/p')).toThrow(QmlError);
  });
});
