import { parseCount, pickSource } from './numbers.params.js';
import { message } from '../common/thrown-message.fixtures.js';

describe('parseCount', () => {
  it('defaults to 1 and accepts 1 to max', () => {
    expect(parseCount(undefined, 10)).toBe(1);
    expect(parseCount('1', 10)).toBe(1);
    expect(parseCount('10', 10)).toBe(10);
  });

  it.each(['0', '-1', '1.5', 'abc', '1e3', '5abc', '0x10', '9007199254740993', '', ' 5', '+5', '05', '11', '١'])(
    'refuses %j',
    (raw) => {
      expect(message(() => parseCount(raw, 10))).toBe(`count must be a whole number from 1 to 10, got '${raw}'`);
    },
  );
});

describe('pickSource', () => {
  it('reads each source', () => {
    expect(pickSource({ 'container-name': 'Drive Unit' })).toEqual({ kind: 'container-name', text: 'Drive Unit' });
    expect(pickSource({ 'workspace-name': 'alice-ws' })).toEqual({ kind: 'workspace-name', text: 'alice-ws' });
    expect(pickSource({ 'container-ref': 'OR:wt.inf.library.WTLibrary:2' })).toEqual({
      kind: 'container-ref',
      text: 'OR:wt.inf.library.WTLibrary:2',
      cls: 'wt.inf.library.WTLibrary',
      id: 2,
    });
    expect(pickSource({ 'workspace-ref': 'OR:wt.epm.workspaces.EPMWorkspace:7' })).toEqual({
      kind: 'workspace-ref',
      text: 'OR:wt.epm.workspaces.EPMWorkspace:7',
      id: 7,
    });
  });

  it('needs one source and names the accepted ones', () => {
    expect(message(() => pickSource({}))).toBe(
      "say which container's numbering rules to use: give one of container-ref, container-name, workspace-name or workspace-ref",
    );
  });

  it('refuses two sources, naming them', () => {
    expect(message(() => pickSource({ 'container-name': 'a', 'workspace-ref': 'b' }))).toBe(
      'give only one of container-ref, container-name, workspace-name or workspace-ref, not container-name and workspace-ref',
    );
  });

  it('refuses an empty value', () => {
    expect(message(() => pickSource({ 'workspace-name': ' ' }))).toBe('workspace-name must not be empty');
  });

  it.each(['Drive Unit', 'OR:wt.doc.WTDocument:1', 'OR:wt.pdmlink.PDMLinkProduct:0', 'OR:wt.pdmlink.PDMLinkProduct:x'])(
    'refuses container-ref %j',
    (ref) => {
      expect(message(() => pickSource({ 'container-ref': ref }))).toMatch(/^container-ref '.*' is not a container OID/);
    },
  );

  it.each(['alice-ws', 'OR:wt.pdmlink.PDMLinkProduct:1', 'OR:wt.epm.workspaces.EPMWorkspace:99999999999'])(
    'refuses workspace-ref %j',
    (ref) => {
      expect(message(() => pickSource({ 'workspace-ref': ref }))).toMatch(/^workspace-ref '.*' is not a workspace OID/);
    },
  );
});
