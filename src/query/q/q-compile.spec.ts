import { compileOrder, compileWhere, numberOrderScan } from './q-compile.js';
import { parseQuery } from './q-parse.js';

function where(...q: object[]) {
  const s = compileWhere(parseQuery(q));
  return { sql: s.text.replace(/\s+/g, ' ').trim(), values: s.values };
}

describe('compileWhere', () => {
  it('finds objects checked out or in, and by their holder, on the master', () => {
    expect(where({ checkedOut: true, latest: false })).toEqual({ sql: 'm.checked_out_by IS NOT NULL', values: [] });
    expect(where({ checkedOut: false })).toEqual({ sql: '(i.latest AND m.checked_out_by IS NULL)', values: [] });
    expect(where({ checkedOutBy: 'alice', latest: false })).toEqual({
      sql: 'm.checked_out_by IN (SELECT u.id FROM users u WHERE u.name = $1::text)',
      values: ['alice'],
    });
  });

  it('keeps exact and prefix matches on number index-friendly', () => {
    expect(where({ number: '0000000042' })).toEqual({
      sql: '(i.latest AND m.number = $1::text)',
      values: ['0000000042'],
    });
    expect(where({ number: '0000*', latest: false })).toEqual({ sql: 'm.number LIKE $1', values: ['0000%'] });
  });

  it('binds every value, and attribute names too', () => {
    const evil = "x' OR 1=1 --";
    const { sql, values } = where({ [`attributes.${evil}`]: evil, name: { like: evil }, state: [evil, `${evil}*`] });
    expect(sql).not.toContain('OR 1=1');
    expect(values).toEqual([evil, evil, evil, [evil], [`${evil}%`]]);
  });

  it('binds arrays as one parameter each', () => {
    const many = Array.from({ length: 1000 }, (_, i) => `N${i}`);
    const { sql, values } = where({ number: many, latest: false });
    expect(sql).toBe('m.number = ANY($1::text[])');
    expect(values).toEqual([many]);
  });

  it('ORs q objects and ANDs their criteria', () => {
    expect(
      where({ state: 'A', iteration: { gte: 2 } }, { type: 'wt.enterprise.RevisionControlled', latest: false }),
    ).toEqual({
      sql: '((i.latest AND i.state = $1::text AND i.iteration >= $2::integer) OR m.class IN ($3,$4,$5))',
      values: ['A', 2, 'wt.doc.WTDocument', 'wt.epm.EPMDocument', 'wt.part.WTPart'],
    });
  });

  it('compares names of containers and users through their tables', () => {
    expect(where({ container: 'Drive*', createdBy: 'alice', latest: false })).toEqual({
      sql:
        '(m.container_id IN (SELECT c.id FROM containers c WHERE c.name LIKE $1) AND ' +
        'i.created_by IN (SELECT u.id FROM users u WHERE u.name = $2::text))',
      values: ['Drive%', 'alice'],
    });
  });

  it('matches nothing for an empty array', () => {
    expect(where({ number: [], latest: false }).sql).toBe('FALSE');
  });
});

describe('compileOrder', () => {
  it('ends every order with the iteration id', () => {
    expect(compileOrder(parseQuery(['{}']).sort).text).toBe('m.number ASC, i.id ASC');
    expect(compileOrder(parseQuery(['{"sort":["-modified","container"]}']).sort).text).toBe(
      'i.modified_at DESC, (SELECT c.name FROM containers c WHERE c.id = m.container_id) ASC, i.id ASC',
    );
  });
});

describe('numberOrderScan', () => {
  const scan = (...q: object[]) => {
    const r = numberOrderScan(parseQuery(q.map((x) => JSON.stringify(x))));
    return r && { ...r, where: r.where.text.replace(/\s+/g, ' ').trim(), values: r.where.values };
  };

  it('reads queries sorted by number with criteria on masters only in index order', () => {
    expect(scan({})).toEqual({ where: 'TRUE', values: [], desc: false, latest: true });
    expect(
      scan({ container: 'Drive*', type: 'wt.part.WTPart', number: '00*', sort: '-number', latest: false }),
    ).toEqual({
      where:
        '(m.container_id IN (SELECT c.id FROM containers c WHERE c.name LIKE $1) AND m.class IN ($2) AND m.number LIKE $3)',
      values: ['Drive%', 'wt.part.WTPart', '00%'],
      desc: true,
      latest: false,
    });
  });

  it('leaves every other query to the join and its sort', () => {
    expect(scan({ state: 'RELEASED' })).toBeNull();
    expect(scan({ 'attributes.material': 'S235' })).toBeNull();
    expect(scan({ createdBy: 'alice' })).toBeNull();
    expect(scan({ sort: 'name' })).toBeNull();
    expect(scan({ sort: ['number', 'name'] })).toBeNull();
    expect(scan({ number: 'A*' }, { number: 'B*' })).toBeNull();
  });
});
