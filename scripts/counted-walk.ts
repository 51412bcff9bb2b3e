/**
 * `npx tsx scripts/counted-walk.ts [maxLength] [walks]`: seeded random walks under the masks of Qwen3's vocabulary
 * into `{type: "string", format: "uri", maxLength}` (default 2048, a counted string: docs/schema-coverage.md), each
 * until the string closes or 3,000 tokens. Printed per walk: the compile's steps, the counted node's states and edges,
 * the NFA states once entered, the masks' time (the first, which builds the (state, length) pairs, p50, p99, max) and
 * the process's memory. Wall-clock figures of a shared machine: compare runs made alternately.
 */
import { compileSchema } from "../src/compile.js";
import { forEachNode } from "../src/grammar/analysis/foldExpr.js";
import { seededRandom } from "../src/util/seededRandom.js";
import { qwen3 } from "../test/support/qwen3.js";

interface Built {
  table: { automaton: { nfa: { stateCount: number } } };
}

const maxLength = Number(process.argv[2] ?? 2048);
const walks = Number(process.argv[3] ?? 3);
const { vocab } = qwen3();
const schema = { type: "string", format: "uri", maxLength };
const compiled = compileSchema(schema);
let shape = "no counted node";
for (const body of compiled.grammar.rules.values()) {
  forEachNode(body, (x) => {
    if (x.type === "counted")
      shape = `counted node: ${x.states.length} states, ${x.states.reduce((n, s) => n + s.edges.length, 0)} edges`;
  });
}
console.log(`maxLength ${maxLength}: ${compiled.compileSteps} compile steps, ${shape}`);
const bits = new Uint32Array(Math.ceil(vocab.size / 32));
for (let w = 0; w < walks; w++) {
  const m = compiled.createMatcher(vocab);
  const rnd = seededRandom(w + 1);
  const times: number[] = [];
  for (let step = 0; step < 3000 && !m.isTerminated(); step++) {
    const t0 = performance.now();
    m.fillNextTokenBitmask(bits);
    times.push(performance.now() - t0);
    const ids: number[] = [];
    for (let id = 0; id < vocab.size; id++) if (bits[id >>> 5] & (1 << (id & 31))) ids.push(id);
    if (ids.length === 0 || !m.acceptToken(ids[Math.floor(rnd() * ids.length)])) break;
  }
  const first = times[0];
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number): string => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(2);
  const states = (m as unknown as Built).table.automaton.nfa.stateCount;
  console.log(
    `walk ${w}: ${times.length} masks, NFA ${states} states; first ${first.toFixed(1)} ms, p50 ${at(0.5)}, p99 ${at(0.99)}, max ${sorted[sorted.length - 1].toFixed(1)} ms; rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
  );
}
