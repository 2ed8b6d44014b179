import fc from 'fast-check';
import { buildQuery, compileTemplate, QmlError, QueryCache, type QmlTemplate } from './qml-compiler.js';
import type { PlanRequest } from './plan/plan.js';
import { CACHE_TEMPLATES, CACHE_VALUES } from './qml-query-cache.fixtures.js';

/** What an execution gives: the query, or the error it fails with. */
function outcome(run: () => ReturnType<typeof buildQuery>): unknown {
  try {
    const q = run();
    return {
      text: q.sql.text,
      values: q.sql.values,
      columns: q.columns,
      parameters: q.parameters,
      genericPlan: q.genericPlan,
    };
  } catch (e) {
    if (!(e instanceof QmlError)) throw e;
    return { error: e.constructor.name, message: e.message, limit: (e as { limit?: string }).limit };
  }
}

const templates: { qml: string; template: QmlTemplate; names: string[] }[] = CACHE_TEMPLATES.map((qml) => {
  const template = compileTemplate(qml);
  const names = new Set([...template.parameters.map((p) => p.name), 'other']);
  for (const a of template.reportAttributes ?? []) names.add(a.id).add(a.heading);
  return { qml, template, names: [...names] };
});

const USERS = [
  { id: 2, name: 'alice', admin: false },
  { id: 3, name: 'bob', admin: false },
  { id: 1, name: 'admin', admin: true },
];
const NOWS = [new Date('2026-05-06T07:08:09.010Z'), new Date('2026-12-31T23:59:59.999Z')];

const request = (names: string[]): fc.Arbitrary<PlanRequest> =>
  fc.record({
    values: fc
      .array(fc.tuple(fc.constantFrom(...names), fc.constantFrom(...CACHE_VALUES)), { maxLength: names.length + 1 })
      .map((pairs) => Object.fromEntries(pairs)),
    user: fc.constantFrom(...USERS),
    readable: fc.constantFrom<PlanRequest['readable']>(null, { memberOf: 2 }, { memberOf: 3 }, [], [1, 2], [3]),
    now: fc.constantFrom(...NOWS),
    limit: fc.constantFrom(11, 101),
  });

describe('QueryCache', () => {
  it('compiles every template of the property test', () => {
    expect(templates.length).toBeGreaterThan(40);
  });

  it('gives what buildQuery gives, for every request of a template, hit or miss', () => {
    let hits = 0;
    let misses = 0;
    fc.assert(
      fc.property(
        fc.nat({ max: templates.length - 1 }).chain((i) =>
          fc.tuple(
            // The template by its index: a counterexample names it without printing it.
            fc.constant(i),
            fc.array(fc.tuple(request(templates[i].names), fc.constantFrom(undefined, 3)), {
              minLength: 1,
              maxLength: 25,
            }),
            fc.integer({ min: 1, max: 16 }),
          ),
        ),
        ([i, runs, shapes]) => {
          const { template } = templates[i];
          const cache = new QueryCache(shapes);
          for (const [req, maxListValues] of runs) {
            const limits = maxListValues === undefined ? {} : { maxListValues };
            const cached = outcome(() => cache.build(template, req, limits));
            expect(cached).toEqual(outcome(() => buildQuery(template, req, limits)));
          }
          hits += cache.hits;
          misses += cache.misses;
        },
      ),
      { numRuns: 600 },
    );
    // Shapes repeat: many executions are hits (errors are never kept).
    expect(hits).toBeGreaterThan((hits + misses) / 10);
  });
});
