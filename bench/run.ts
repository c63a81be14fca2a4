// `npm run bench [-- B3 …]`: one JSON line per figure (figure, same-run baseline, ratio).
// Not part of `npm test`: figures depend on the machine and on what else it is doing.
import { runB1 } from './b1.js';
import { runB2 } from './b2.js';
import { runB3 } from './b3.js';
import { runB4 } from './b4.js';
import { runB5 } from './b5.js';
import { runB6 } from './b6.js';
import { runB7 } from './b7.js';
import { printResult, type BenchmarkResult } from './lib.js';

const benchmarks: Record<string, () => Promise<BenchmarkResult | BenchmarkResult[]>> = {
  B1: runB1,
  B2: runB2,
  B3: runB3,
  B4: runB4,
  B5: runB5,
  B6: runB6,
  B7: runB7,
};

const requested = process.argv.slice(2).filter((arg) => arg !== '--');
const names = requested.length > 0 ? requested : Object.keys(benchmarks);
for (const name of names) {
  const benchmark = benchmarks[name];
  if (!benchmark) {
    console.error(`tollgate: unknown benchmark ${name}; known: ${Object.keys(benchmarks).join(', ')}`);
    process.exit(2);
  }
  for (const result of [await benchmark()].flat()) printResult(result);
}
