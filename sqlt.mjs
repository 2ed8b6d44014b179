import pg from 'pg';
import { PART_STRUCTURE, NUMBER_WILDCARD } from './dist/bench/benchmarks/reports.js';
import { buildQuery, compileTemplate } from './dist/src/qml/qml-compiler.js';
const pool = new pg.Pool({ connectionString: 'postgresql://postgres@127.0.0.1:5432/pdm_bench_100000', max: 1 });
const alice = (await pool.query("select id from users where name='alice'")).rows[0].id;
const doc = (await pool.query("SELECT m.number FROM masters m WHERE m.class = 'wt.doc.WTDocument' ORDER BY m.number LIMIT 1")).rows[0].number;
const part = (await pool.query("SELECT m.number FROM masters m WHERE m.class = 'wt.part.WTPart' ORDER BY m.number LIMIT 1")).rows[0].number;
const READABLE = '= ANY(ARRAY(SELECT container_id FROM memberships WHERE user_id = $1))';
const base = {
  nw: `SELECT 'OR:' || m.class || ':' || i.id, m.number, m.name, i.state, i.modified_at FROM iterations i JOIN masters m ON m.id = i.master_id WHERE m.class = 'wt.doc.WTDocument' AND m.container_id ${READABLE} AND m.number LIKE $2 AND i.latest ORDER BY m.number, i.id LIMIT 100001`,
  ps: `SELECT m.number, um.number, um.name, l.quantity, l.line_number FROM iterations i JOIN masters m ON m.id = i.master_id JOIN usage_links l ON l.parent_id = i.id JOIN masters um ON um.id = l.child_id WHERE m.class = 'wt.part.WTPart' AND l.class = 'wt.part.WTPartUsageLink' AND um.class = 'wt.part.WTPart' AND m.container_id ${READABLE} AND um.container_id ${READABLE} AND i.latest AND m.number LIKE $2 ORDER BY m.number, l.line_number, i.id, l.id, um.id LIMIT 100001`,
};
const nwv = doc.slice(0, -2) + '%', psv = part.slice(0, -1) + '%';
const svc = {
  nw: buildQuery(compileTemplate(NUMBER_WILDCARD), { values: { number: doc.slice(0, -2) + '*' }, user: { id: alice, name: 'alice', admin: false }, readable: { memberOf: alice }, now: new Date(), limit: 100001 }).sql,
  ps: buildQuery(compileTemplate(PART_STRUCTURE), { values: { number: part.slice(0, -1) + '*' }, user: { id: alice, name: 'alice', admin: false }, readable: { memberOf: alice }, now: new Date(), limit: 100001 }).sql,
};
async function t(name, q) { for (let i = 0; i < 30; i++) await pool.query(q); const s = performance.now(); let n; for (let i = 0; i < 300; i++) n = (await pool.query(q)).rows.length; console.log(name, ((performance.now() - s) / 300).toFixed(3), 'ms rows', n); }
for (let r = 0; r < 2; r++) {
await t('base nw', { text: base.nw, values: [alice, nwv], rowMode: 'array' });
await t('svc  nw', { text: svc.nw.text, values: svc.nw.values, rowMode: 'array' });
await t('base ps', { text: base.ps, values: [alice, psv], rowMode: 'array' });
await t('svc  ps', { text: svc.ps.text, values: svc.ps.values, rowMode: 'array' });
}
await pool.end();
