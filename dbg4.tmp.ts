import { readFileSync, readdirSync } from "node:fs";
import { normalizeSchema } from "./src/schema/normalizeSchema.js";
import { resolveSchemaOptions } from "./src/options.js";
const o = resolveSchemaOptions({ strict: true }, { additionalProperties: "spec" });
const dir = "/work/shared/data/jsonschemabench";
const want = process.argv[2];
const bySubset = new Map<string, number>();
let shown = 0; const times: [number, string][] = [];
for (const f of readdirSync(dir)) for (const line of readFileSync(dir + "/" + f, "utf8").split("\n")) {
  if (!line) continue;
  const r = JSON.parse(line);
  const t0 = performance.now();
  try { normalizeSchema(r.schema, o, []); } catch (e: any) {
    if (e.message.startsWith(want + ":")) { bySubset.set(r.subset, (bySubset.get(r.subset) ?? 0) + 1); if (shown++ < 6) console.log(r.id, e.schemaPath, e.message.slice(0, 200), JSON.stringify(r.schema).slice(0, 300)); }
  }
  times.push([performance.now() - t0, r.id]);
}
console.log(bySubset);
console.log(times.sort((a, b) => b[0] - a[0]).slice(0, 5));
