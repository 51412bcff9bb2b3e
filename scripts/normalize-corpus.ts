/**
 * Normalizes every schema of the JSONSchemaBench corpus (strict and non-strict) and reports how many normalized,
 * how many were refused (by error code) and how many crashed (a non-ToolgramError exception) or took over 1 s.
 *
 *   npx tsx scripts/normalize-corpus.ts [dir-with-jsonl-files] [--check]
 *
 * --check also judges every test instance of a normalized schema with the IR and with ajv (slow: one ajv compile
 * per schema): strict must agree exactly, non-strict must accept whatever ajv accepts.
 *
 * The directory defaults to ../shared/data/jsonschemabench beside the repository (or $JSONSCHEMABENCH_DIR).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolgramError } from "../src/errors.js";
import { resolveSchemaOptions } from "../src/options.js";
import { normalizeSchema } from "../src/schema/normalizeSchema.js";
import { valueMatches } from "../src/schema/valueMatches.js";
import type { JsonValue } from "../src/json.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

const addFormats = addFormatsModule as unknown as (a: Ajv2020) => Ajv2020;

/**
 * Each test instance of a normalized schema is also judged by the IR and by ajv: strict must agree exactly,
 * non-strict must accept whatever ajv accepts. ajv compiles the schema without `$schema` (draft-2020 dialect).
 */
function ajvVerdicts(schema: unknown, data: JsonValue[]): boolean[] | undefined {
  try {
    const ajv = new Ajv2020({ strict: false, validateFormats: true, logger: false });
    addFormats(ajv);
    const s = typeof schema === "object" && schema !== null ? { ...(schema as object), $schema: undefined } : schema;
    const v = ajv.compile(s as object);
    const out = data.map((d) => v(d));
    return out.every((x) => typeof x === "boolean") ? (out as boolean[]) : undefined; // `$async` schemas: skip
  } catch {
    return undefined;
  }
}

const here = fileURLToPath(new URL(".", import.meta.url));
const args = process.argv.slice(2);
const check = args.includes("--check");
const dir =
  args.find((a) => !a.startsWith("--")) ??
  process.env.JSONSCHEMABENCH_DIR ??
  resolve(here, "../../shared/data/jsonschemabench");

interface Tally {
  mismatches: { id: string; data: string; ajv: boolean }[];
  compared: number;
  ok: number;
  refused: Map<string, number>;
  crashes: { id: string; msg: string }[];
  slow: { id: string; ms: number }[];
  maxMs: number;
}

function run(strict: boolean): Tally {
  const opts = resolveSchemaOptions({ strict }, { additionalProperties: "spec" });
  const t: Tally = { mismatches: [], compared: 0, ok: 0, refused: new Map(), crashes: [], slow: [], maxMs: 0 };
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith(".jsonl"))
    .sort()) {
    for (const line of readFileSync(join(dir, f), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const rec = JSON.parse(line) as { id: string; schema: unknown; tests?: { data: JsonValue }[] };
      const t0 = performance.now();
      let ms = 0;
      try {
        const ir = normalizeSchema(rec.schema, opts, []);
        ms = performance.now() - t0;
        t.ok++;
        if (!check) continue;
        const data = (rec.tests ?? []).map((x) => x.data);
        const want = data.length ? ajvVerdicts(rec.schema, data) : undefined;
        want?.forEach((w, i) => {
          t.compared++;
          const got = valueMatches(ir.root, data[i], ir.defs);
          if (strict ? got !== w : w && !got)
            t.mismatches.push({ id: rec.id, data: JSON.stringify(data[i]).slice(0, 120), ajv: w });
        });
      } catch (e) {
        if (e instanceof ToolgramError) {
          // UNSUPPORTED_KEYWORD errors start with the keyword: count them per keyword
          const what = e.code === "UNSUPPORTED_KEYWORD" ? `${e.code} ${e.message.split(":")[0]}` : e.code;
          t.refused.set(what, (t.refused.get(what) ?? 0) + 1);
        } else
          t.crashes.push({
            id: rec.id,
            msg: String((e as Error)?.stack ?? e)
              .split("\n")
              .slice(0, 3)
              .join(" | "),
          });
        ms = performance.now() - t0;
      } finally {
        t.maxMs = Math.max(t.maxMs, ms);
        if (ms > 1000) t.slow.push({ id: rec.id, ms });
      }
    }
  }
  return t;
}

for (const strict of [true, false]) {
  const t0 = performance.now();
  const t = run(strict);
  const total = t.ok + [...t.refused.values()].reduce((a, b) => a + b, 0) + t.crashes.length;
  console.log(
    `strict=${strict}: ${total} schemas, normalized ${t.ok}, refused ${total - t.ok - t.crashes.length}, crashes ${t.crashes.length}, >1s ${t.slow.length}, max ${t.maxMs.toFixed(0)} ms, total ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  for (const [code, n] of [...t.refused].sort((a, b) => b[1] - a[1])) console.log(`  ${code}: ${n}`);
  if (check) console.log(`  test instances compared with ajv: ${t.compared}, mismatches: ${t.mismatches.length}`);
  for (const m of t.mismatches.slice(0, 10)) console.log(`  MISMATCH ${m.id} ajv=${m.ajv}: ${m.data}`);
  for (const c of t.crashes.slice(0, 20)) console.log(`  CRASH ${c.id}: ${c.msg}`);
  for (const s of t.slow.slice(0, 20)) console.log(`  SLOW ${s.id}: ${s.ms.toFixed(0)} ms`);
}
