import fc from 'fast-check';
import { compileOrder, compileWhere } from './q-compile.js';
import { QError } from './q-model.js';
import { parseQuery } from './q-parse.js';

const keys = fc.constantFrom(
  'type',
  'subtype',
  'number',
  'name',
  'state',
  'version',
  'iteration',
  'container',
  'createdBy',
  'modifiedBy',
  'created',
  'modified',
  'latest',
  'attributes.material',
  'sort',
  'unknown',
  '',
);
const ops = fc.constantFrom('eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'like', 'ilike', 'in', 'between', 'exists', 'nope');
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.dictionary(ops, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);
const qObject = fc.dictionary(keys, value, { maxKeys: 6 });

function parsesOrRejectsCleanly(raw: unknown[]): void {
  try {
    const q = parseQuery(raw);
    compileWhere(q);
    compileOrder(q.sort);
  } catch (e) {
    if (!(e instanceof QError)) throw e;
  }
}

describe('q parser under random input', () => {
  it('never fails with anything but a QError on random q objects', () => {
    fc.assert(
      fc.property(fc.array(qObject, { minLength: 1, maxLength: 3 }), (qs) => parsesOrRejectsCleanly(qs)),
      {
        numRuns: 3000,
      },
    );
  });

  it('never fails with anything but a QError on random JSON texts and values', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.json(), fc.jsonValue()), { maxLength: 3 }), (qs) =>
        parsesOrRejectsCleanly(qs),
      ),
      { numRuns: 3000 },
    );
  });
});
