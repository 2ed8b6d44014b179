import request from 'supertest';
import { readReferenceInput } from '../../scripts/qml-reference.js';
import { PASSWORDS } from '../../src/qml/reference/reference.js';
import { useTestApp } from '../helpers/use-test-app.js';

const TIMESTAMP = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z`;

/** An expected value: `<id>` and `<timestamp>` stand for what differs per database or run. */
function expected(v: unknown): unknown {
  if (v === '<id>') return expect.any(Number);
  if (typeof v !== 'string' || !/<id>|<timestamp>/.test(v)) return v;
  const pattern = v
    .split(/(<id>|<timestamp>)/)
    .map((part) =>
      part === '<id>'
        ? String.raw`\d+`
        : part === '<timestamp>'
          ? TIMESTAMP
          : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return expect.stringMatching(new RegExp(`^${pattern}$`));
}

const { examples } = readReferenceInput(process.cwd());

/**
 * Every example of docs/examples runs inline (POST /reports) against the demo data and gives the
 * rows docs/examples/examples.json promises, which the reference (docs/qml-reference.md) shows.
 */
describe('docs/examples: the QML examples of the reference', () => {
  const t = useTestApp();

  const cases = examples.flatMap((e) => e.runs.map((run, i) => ({ e, run, i })));
  it.each(cases)('$e.name (run $i, as $run.user)', async ({ e, run }) => {
    const res = await request(t.http)
      .post('/reports')
      .query(run.params ?? {})
      .auth(run.user, PASSWORDS[run.user])
      .set('Content-Type', 'text/xml')
      .send(e.qml);
    if (process.env.PRINT_QML_EXAMPLES === 'true') console.log(e.name, JSON.stringify(res.body.items ?? res.body));
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(run.rows.map((r) => r.map(expected)));
    expect(res.body.count).toBe(run.rows.length);
    expect(res.body.truncated).toBeUndefined();
  });
});
