/**
 * Compile time of QML templates, measured in a worker thread of its own: a fresh heap, so the
 * numbers are the compiler's and not the collections of the load generator's garbage (the
 * runner's heap holds whatever earlier benchmarks left). workerData: { templates: string[] };
 * posts the microseconds per template (parse, validate, plan, render), each the median of five
 * batches after a warm-up.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildQuery, compileTemplate } from '../../src/qml/qml-compiler.js';

const request = {
  values: { number: '0000*' },
  user: { id: 2, name: 'alice', admin: false },
  readable: { memberOf: 2 },
  now: new Date(),
  limit: 100_001,
};

function compileMicros(qml: string): number {
  const n = 400;
  for (let i = 0; i < 500; i++) buildQuery(compileTemplate(qml), request);
  const batches: number[] = [];
  for (let b = 0; b < 5; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) buildQuery(compileTemplate(qml), request);
    batches.push(Number(process.hrtime.bigint() - start) / 1000 / n);
  }
  return batches.sort((x, y) => x - y)[2];
}

const { templates } = workerData as { templates: string[] };
parentPort!.postMessage(templates.map(compileMicros));
