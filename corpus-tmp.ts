import { readFileSync } from "node:fs";
import { compileTools } from "./src/compile.ts";
import { ToolgramError } from "./src/errors.ts";
const D = "/work/shared/data/finetune/";
const sets: unknown[] = [];
for (const f of ["glaive_toolcall_en_demo.json", "glaive_toolcall_zh_demo.json"]) for (const r of JSON.parse(readFileSync(D + f, "utf8"))) sets.push(r.tools);
for (const line of readFileSync(D + "llamafactory_reason_tool_use_demo_50.jsonl", "utf8").split("\n").filter(Boolean)) {
  const r = JSON.parse(line); sets.push(r.tools ?? r.functions ?? null);
}
const codes = new Map<string, number>(); let ok = 0, ms = 0, warn = 0;
for (const s of sets) {
  if (s == null || s === "" || s === "[]") { codes.set("empty", (codes.get("empty") ?? 0) + 1); continue; }
  const t0 = performance.now();
  try { const c = compileTools(s, { strict: true, limits: { maxCompileMs: 1e6 } }); c.toGbnf(); ok++; for (const w of c.warnings) codes.set("w:" + w.code + " " + w.message.slice(0, 60), (codes.get("w:" + w.code + " " + w.message.slice(0, 60)) ?? 0) + 1); }
  catch (e) { const k = e instanceof ToolgramError ? e.code + ": " + e.message.slice(0, 150) : String(e).slice(0, 200); codes.set(k, (codes.get(k) ?? 0) + 1); }
  ms += performance.now() - t0;
}
console.log({ total: sets.length, ok, warn, avgMs: Math.round(ms / sets.length) }, codes);
