import { readFileSync, readdirSync } from "node:fs";
import { normalizeSchema } from "./src/schema/normalizeSchema.js";
import { resolveSchemaOptions } from "./src/options.js";
const o = resolveSchemaOptions({ strict: false }, { additionalProperties: "spec" });
const dir = "/work/shared/data/jsonschemabench";
const counts = new Map<string, number>();
for (const f of readdirSync(dir)) for (const line of readFileSync(dir + "/" + f, "utf8").split("\n")) {
  if (!line) continue;
  const r = JSON.parse(line);
  const w: any[] = [];
  try { normalizeSchema(r.schema, o, w); } catch {}
  const seen = new Set<string>();
  for (const x of w) if (x.code === "UNKNOWN_KEYWORD") for (const k of x.message.replace(/^ignored unknown keywords? /, "").split(" (at")[0].split(", ")) seen.add(k);
  for (const x of w) if (x.code === "RELAXED_KEYWORD") seen.add("RELAXED " + x.message.split(":")[0]);
  for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
}
console.log([...counts].sort((a, b) => b[1] - a[1]).slice(0, 40));
