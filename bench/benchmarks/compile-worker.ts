/**
 * Compile time of QML templates, measured in a worker thread of its own: a fresh heap, so the
 * numbers are the compiler's and not the collections of the load generator's garbage (the
 * runner's heap holds whatever earlier benchmarks left). workerData: { templates: string[] };
 * posts, per template, microseconds (each the median of five batches after a warm-up) for:
 * `compile` parse, validate, plan and render; `render` plan and render of the compiled template
 * (buildQuery, what every request did before the SQL was kept); `cached` the same through
 * QueryCache, as the service runs it (the parameter value changes, its shape does not).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildQuery, compileTemplate, QueryCache, type PlanRequest } from '../../src/qml/qml-compiler.js';

const request: PlanRequest = {
  values: { number: '0000*' },
  user: { id: 2, name: 'alice', admin: false },
  readable: { memberOf: 2 },
  now: new Date(),
  limit: 100_001,
};
/** Requests of one shape: another number prefix each. */
const requests: PlanRequest[] = ['0000*', '0001*', '0002*', '0003*'].map((number) => ({
  ...request,
  values: { number },
}));

/** n calls per batch: more for the short calls, so that a collection does not make the median. */
function micros(run: (i: number) => unknown, n = 400): number {
  for (let i = 0; i < Math.max(500, n); i++) run(i);
  const batches: number[] = [];
  for (let b = 0; b < 5; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) run(i);
    batches.push(Number(process.hrtime.bigint() - start) / 1000 / n);
  }
  return batches.sort((x, y) => x - y)[2];
}

export interface CompileMicros {
  compile: number;
  render: number;
  cached: number;
}

function measure(qml: string): CompileMicros {
  const template = compileTemplate(qml);
  const cache = new QueryCache();
  return {
    compile: micros(() => buildQuery(compileTemplate(qml), request)),
    render: micros((i) => buildQuery(template, requests[i % requests.length]), 4000),
    cached: micros((i) => cache.build(template, requests[i % requests.length]), 40_000),
  };
}

const { templates } = workerData as { templates: string[] };
parentPort!.postMessage(templates.map(measure));
