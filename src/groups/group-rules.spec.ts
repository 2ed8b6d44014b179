import {
  CLAIM_GROUPS_MAX,
  claimChanges,
  claimGroupNames,
  GROUP_NAME,
  nestingFits,
  NESTING_DEPTH_MAX,
} from './group-rules.js';

describe('group names', () => {
  it('accepts paths and printable text, refuses control characters, padding and overlong names', () => {
    expect(['/eng/cad', 'Design Team', 'Ä-Gruppe', 'x'.repeat(200)].map((n) => GROUP_NAME.test(n))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['', ' a', 'a ', 'a\nb', 'x'.repeat(201), 'a\u200bb'].map((n) => GROUP_NAME.test(n))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('claimGroupNames', () => {
  it('keeps valid distinct names in their first order and drops what cannot name a group', () => {
    expect(claimGroupNames(['b', 'a', 'b', 42, null, ' padded', 'A\u0308', '\u00c4'])).toEqual(['b', 'a', '\u00c4']);
  });

  it(`reads at most ${CLAIM_GROUPS_MAX} names`, () => {
    const names = Array.from({ length: CLAIM_GROUPS_MAX + 10 }, (_, i) => `g${i}`);
    expect(claimGroupNames(names)).toEqual(names.slice(0, CLAIM_GROUPS_MAX));
  });
});

describe('claimChanges', () => {
  it('adds wanted groups the user is not in and removes only rows of this source no longer wanted', () => {
    const rows = [
      { groupId: 1, source: null, wanted: true },
      { groupId: 2, source: 'https://idp', wanted: true },
      { groupId: 3, source: '', wanted: true },
      { groupId: 4, source: 'https://idp', wanted: false },
      { groupId: 5, source: '', wanted: false },
      { groupId: 6, source: 'https://other', wanted: false },
    ];
    expect(claimChanges(rows, 'https://idp')).toEqual({ add: [1], remove: [4] });
  });

  it('changes nothing when the rows already match', () => {
    expect(claimChanges([{ groupId: 1, source: 'i', wanted: true }], 'i')).toEqual({ add: [], remove: [] });
  });
});

describe('nestingFits', () => {
  it(`allows chains of up to ${NESTING_DEPTH_MAX} groups`, () => {
    expect(nestingFits(0, 0)).toBe(true);
    expect(nestingFits(NESTING_DEPTH_MAX - 2, 0)).toBe(true);
    expect(nestingFits(NESTING_DEPTH_MAX - 3, 1)).toBe(true);
    expect(nestingFits(NESTING_DEPTH_MAX - 2, 1)).toBe(false);
  });
});
