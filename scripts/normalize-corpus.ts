/**
 * Normalizes every schema of the JSONSchemaBench corpus (strict and non-strict) and reports how many normalized,
 * how many were refused (by error code) and how many crashed (a non-ToolgramError exception) or took over 1 s.
 *
 *   npx tsx scripts/normalize-corpus.ts [dir-with-jsonl-files]
 *
 * The directory defaults to ../shared/data/jsonschemabench beside the repository (or $JSONSCHEMABENCH_DIR).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolgramError } from "../src/errors.js";
import { resolveSchemaOptions } from "../src/options.js";
import { normalizeSchema } from "../src/schema/normalizeSchema.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const dir = process.argv[2] ?? process.env.JSONSCHEMABENCH_DIR ?? resolve(here, "../../shared/data/jsonschemabench");

interface Tally { ok: number; refused: Map<string, number>; crashes: { id: string; msg: string }[]; slow: { id: string; ms: number }[]; maxMs: number }

function run(strict: boolean): Tally {
  const opts = resolveSchemaOptions({ strict }, { additionalProperties: "spec" });
  const t: Tally = { ok: 0, refused: new Map(), crashes: [], slow: [], maxMs: 0 };
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".jsonl")).sort()) {
    for (const line of readFileSync(join(dir, f), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const rec = JSON.parse(line) as { id: string; schema: unknown };
      const t0 = performance.now();
      try {
        normalizeSchema(rec.schema, opts, []);
        t.ok++;
      } catch (e) {
        if (e instanceof ToolgramError) {
          // UNSUPPORTED_KEYWORD errors start with the keyword: count them per keyword
          const what = e.code === "UNSUPPORTED_KEYWORD" ? `${e.code} ${e.message.split(":")[0]}` : e.code;
          t.refused.set(what, (t.refused.get(what) ?? 0) + 1);
        }
        else t.crashes.push({ id: rec.id, msg: String((e as Error)?.stack ?? e).split("\n").slice(0, 3).join(" | ") });
      }
      const ms = performance.now() - t0;
      t.maxMs = Math.max(t.maxMs, ms);
      if (ms > 1000) t.slow.push({ id: rec.id, ms });
    }
  }
  return t;
}

for (const strict of [true, false]) {
  const t0 = performance.now();
  const t = run(strict);
  const total = t.ok + [...t.refused.values()].reduce((a, b) => a + b, 0) + t.crashes.length;
  console.log(`strict=${strict}: ${total} schemas, normalized ${t.ok}, refused ${total - t.ok - t.crashes.length}, crashes ${t.crashes.length}, >1s ${t.slow.length}, max ${t.maxMs.toFixed(0)} ms, total ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  for (const [code, n] of [...t.refused].sort((a, b) => b[1] - a[1])) console.log(`  ${code}: ${n}`);
  for (const c of t.crashes.slice(0, 20)) console.log(`  CRASH ${c.id}: ${c.msg}`);
  for (const s of t.slow.slice(0, 20)) console.log(`  SLOW ${s.id}: ${s.ms.toFixed(0)} ms`);
}
