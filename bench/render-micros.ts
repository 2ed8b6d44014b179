/**
 * The compiler on its own for the four `reports` templates, without a database: microseconds per
 * call to compile (parse, validate, plan, render), to plan and render a compiled template
 * (buildQuery) and to build the same through QueryCache. `node dist/bench/render-micros.js`;
 * `--rounds n` repeats the measurement (each a fresh worker).
 */
import { CASES, compileMicros } from './benchmarks/reports.js';

const i = process.argv.indexOf('--rounds');
const rounds = i > 0 ? Number(process.argv[i + 1]) : 1;
for (let r = 0; r < rounds; r++) {
  const micros = await compileMicros(CASES.map((c) => c.qml));
  for (const [k, c] of CASES.entries()) {
    const m = micros[k];
    console.log(
      `${c.name.padEnd(18)} compile ${m.compile.toFixed(1).padStart(6)} µs  buildQuery ${m.render.toFixed(1).padStart(6)} µs  cached ${m.cached.toFixed(1).padStart(5)} µs  (${(m.render / m.cached).toFixed(1)}×)`,
    );
  }
}
