import { formatVersionRef, parseVersionRef } from './version-ref.js';

describe('version references', () => {
  it('parse VR:<class>:<branch id> as strictly as OIDs', () => {
    expect(parseVersionRef('VR:wt.doc.WTDocument:12')).toEqual({ cls: 'wt.doc.WTDocument', branchId: 12 });
    expect(formatVersionRef('wt.part.WTPart', 7)).toBe('VR:wt.part.WTPart:7');
    for (const bad of [
      'OR:wt.doc.WTDocument:12',
      'VR:wt.doc.WTDocument:012',
      'VR:WTDocument:1',
      'VR:wt.doc.WTDocument:2147483648',
    ]) {
      expect(parseVersionRef(bad)).toBeNull();
    }
  });
});
