import { buildQuery, compileTemplate, QmlError, QueryCache } from './qml-compiler.js';
import type { PlanRequest } from './plan/plan.js';
import { SHAPES_PER_TEMPLATE } from './qml-query-cache.js';

const TEMPLATE = `<qml><parameter name="n"/><parameter name="ids"><parameterDefault>1,2</parameterDefault></parameter>
<statement><query><select><column alias="D" heading="N">master&gt;number</column></select>
<from><table alias="D">wt.doc.WTDocument</table></from>
<where><compositeCondition type="and">
<condition><operand><column alias="D">master&gt;number</column></operand><operator type="like"/><operand><parameterTarget name="n"/></operand></condition>
<condition><operand><column alias="D">iterationInfo.identifier.iterationId</column></operand><inOperator type="in"/><inOperand><delimitedList><parameterTarget name="ids"/></delimitedList></inOperand></condition>
</compositeCondition></where></query></statement></qml>`;

const req = (values: Record<string, string>, over: Partial<PlanRequest> = {}): PlanRequest => ({
  values,
  user: { id: 2, name: 'alice', admin: false },
  readable: { memberOf: 2 },
  now: new Date('2026-05-06T00:00:00Z'),
  limit: 11,
  ...over,
});

describe('QueryCache', () => {
  const template = compileTemplate(TEMPLATE);

  it('keeps the SQL of a shape and binds the values of each request again', () => {
    const cache = new QueryCache();
    const first = cache.build(template, req({ n: '00*', ids: '3' }));
    expect([cache.hits, cache.misses]).toEqual([0, 1]);
    const second = cache.build(
      template,
      req({ n: 'AB*', ids: '4' }, { user: { id: 5, name: 'eve', admin: false }, readable: { memberOf: 5 }, limit: 21 }),
    );
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
    expect(second.sql.text).toBe(first.sql.text);
    expect(second.sql.text).toContain('LIKE $');
    expect(second.sql.text).toContain('~>=~');
    // The pattern, its range, the in-list value, the user and the limit of the second request.
    expect(second.sql.values).toEqual(expect.arrayContaining(['AB%', 'AB', 'AC', 4, 5, 21]));
    expect(second.sql.values).not.toEqual(expect.arrayContaining(['00%']));
    expect(second.parameters).toEqual([
      { name: 'n', value: 'AB*' },
      { name: 'ids', value: '4' },
    ]);
    const fresh = buildQuery(
      template,
      req({ n: 'AB*', ids: '4' }, { user: { id: 5, name: 'eve', admin: false }, readable: { memberOf: 5 }, limit: 21 }),
    );
    expect({ text: second.sql.text, values: second.sql.values }).toEqual({
      text: fresh.sql.text,
      values: fresh.sql.values,
    });
  });

  it('plans again for another shape: a pattern without a prefix, another list length, an unset parameter', () => {
    const cache = new QueryCache();
    const prefixed = cache.build(template, req({ n: '00*', ids: '3' }));
    const open = cache.build(template, req({ n: '*00', ids: '3' }));
    expect(open.sql.text).not.toBe(prefixed.sql.text);
    expect(open.sql.text).not.toContain('~>=~');
    const two = cache.build(template, req({ n: '00*', ids: '3,4' }));
    expect(two.sql.values.length).toBe(prefixed.sql.values.length + 1);
    const byDefault = cache.build(template, req({ n: '00*' }));
    expect(byDefault.parameters).toEqual([
      { name: 'n', value: '00*' },
      { name: 'ids', value: '1,2' },
    ]);
    expect([cache.hits, cache.misses]).toEqual([0, 4]);
    expect(cache.shapesOf(template)).toBe(4);
    cache.build(template, req({ n: '11*', ids: '8' }));
    expect([cache.hits, cache.misses]).toEqual([1, 4]);
  });

  it('fails as buildQuery does on a hit too, and keeps no failed execution', () => {
    const cache = new QueryCache();
    cache.build(template, req({ n: '00*', ids: '3' }));
    const message = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        if (e instanceof QmlError) return e.message;
        throw e;
      }
      return 'accepted';
    };
    const bad = req({ n: '00*', ids: 'x' });
    expect(message(() => cache.build(template, bad))).toBe(message(() => buildQuery(template, bad)));
    expect(message(() => cache.build(template, bad))).toContain('parameter "ids" value "x" is not a number');
    const unset = req({ ids: '3' });
    expect(message(() => cache.build(template, unset))).toContain('parameter "n" has no value');
    expect(cache.shapesOf(template)).toBe(1);
    expect(message(() => cache.build(template, req({ n: '0*', ids: '1,2,3' }), { maxListValues: 2 }))).toContain(
      'the in-lists hold more than 2 values in all (the limit)',
    );
  });

  it('keeps a few shapes per template, the least recently used dropped first', () => {
    const cache = new QueryCache(3);
    const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join(',');
    for (let n = 1; n <= 4; n++) cache.build(template, req({ n: '0*', ids: ids(n) }));
    expect(cache.shapesOf(template)).toBe(3);
    // One, the oldest, went: planned again; four, the newest, is kept.
    cache.build(template, req({ n: '0*', ids: ids(4) }));
    expect(cache.hits).toBe(1);
    cache.build(template, req({ n: '0*', ids: ids(1) }));
    expect([cache.hits, cache.misses]).toEqual([1, 5]);
    expect(cache.shapesOf(template)).toBe(3);
    expect(SHAPES_PER_TEMPLATE).toBe(16);
  });
});
