import { loadConfig } from './app-config.js';
import { parseLifecycle, transitionProblem } from './lifecycle.js';

describe('the lifecycle (OBJECTS_LIFECYCLE)', () => {
  it('is INWORK → UNDERREVIEW → RELEASED → OBSOLETE by default, with UNDERREVIEW → INWORK back', () => {
    const lc = loadConfig({}).objectsLifecycle;
    expect(lc.initial).toBe('INWORK');
    expect(Object.fromEntries(lc.transitions)).toEqual({
      INWORK: ['UNDERREVIEW'],
      UNDERREVIEW: ['RELEASED', 'INWORK'],
      RELEASED: ['OBSOLETE'],
      OBSOLETE: [],
    });
    expect(transitionProblem(lc, 'INWORK', 'UNDERREVIEW')).toBeNull();
    expect(transitionProblem(lc, 'UNDERREVIEW', 'INWORK')).toBeNull();
    expect(transitionProblem(lc, 'INWORK', 'RELEASED')).toBe(
      'cannot go from INWORK to RELEASED: from INWORK the lifecycle allows UNDERREVIEW',
    );
    expect(transitionProblem(lc, 'OBSOLETE', 'INWORK')).toBe(
      'cannot go from OBSOLETE to INWORK: OBSOLETE is a final state',
    );
    expect(transitionProblem(lc, 'FROZEN', 'INWORK')).toBe(
      'state FROZEN is not in the lifecycle (INWORK, UNDERREVIEW, RELEASED, OBSOLETE): no transition leaves it',
    );
  });

  it('starts new objects in the first state configured', () => {
    const lc = parseLifecycle('{"DRAFT":["APPROVED"],"APPROVED":["DRAFT"]}');
    expect(lc.initial).toBe('DRAFT');
    expect(transitionProblem(lc, 'APPROVED', 'DRAFT')).toBeNull();
  });

  it.each([
    ['', 'is not JSON: give an object of state → the states it may go to'],
    ['[]', 'must be a JSON object of state → the states it may go to'],
    ['{}', 'names no state: the first state is where new objects start'],
    ['{"INWORK":"RELEASED","RELEASED":[]}', 'INWORK: must be a list of states'],
    [
      '{"INWORK":["DONE","INWORK"],"in work":[],"A":["A","INWORK","INWORK"]}',
      'INWORK: "DONE" is not one of the states (INWORK, in work, A); INWORK: a state cannot go to itself; ' +
        '"in work" is not a state name (A-Z, 0-9, _, starting with a letter); A: a state cannot go to itself; ' +
        'A: "INWORK" is listed twice',
    ],
  ])('refuses %j, naming every problem', (raw, message) => {
    expect(() => parseLifecycle(raw)).toThrow(message);
    expect(() => loadConfig({ OBJECTS_LIFECYCLE: raw })).toThrow(`OBJECTS_LIFECYCLE: ${message}`);
  });
});

describe('the released states (OBJECTS_RELEASED_STATES) and the link cap (OBJECTS_MAX_LINKS)', () => {
  it('are RELEASED and 10 000 by default, and may be none', () => {
    const c = loadConfig({});
    expect([...c.objectsReleasedStates]).toEqual(['RELEASED']);
    expect(c.objectsMaxLinks).toBe(10_000);
    expect([...loadConfig({ OBJECTS_RELEASED_STATES: '' }).objectsReleasedStates]).toEqual([]);
    // Unset, it names RELEASED only where the lifecycle has it.
    const custom = loadConfig({ OBJECTS_LIFECYCLE: '{"DRAFT":["APPROVED"],"APPROVED":[]}' });
    expect([...custom.objectsReleasedStates]).toEqual([]);
    expect([...loadConfig({ OBJECTS_RELEASED_STATES: 'RELEASED, OBSOLETE' }).objectsReleasedStates]).toEqual([
      'RELEASED',
      'OBSOLETE',
    ]);
  });

  it('refuses names that are no state of the lifecycle, and a cap that is no positive number', () => {
    expect(() => loadConfig({ OBJECTS_RELEASED_STATES: 'FROZEN' })).toThrow(
      'OBJECTS_RELEASED_STATES: FROZEN not a state of OBJECTS_LIFECYCLE (INWORK, UNDERREVIEW, RELEASED, OBSOLETE)',
    );
    expect(() => loadConfig({ OBJECTS_RELEASED_STATES: 'in work' })).toThrow(
      'OBJECTS_RELEASED_STATES: "in work": not state names (A-Z, 0-9, _)',
    );
    expect(() => loadConfig({ OBJECTS_MAX_LINKS: '0' })).toThrow('OBJECTS_MAX_LINKS');
  });
});
