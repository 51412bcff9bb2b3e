import { readFileSync, readdirSync } from "node:fs";
import { normalizeSchema } from "./src/schema/normalizeSchema.js";
import { resolveSchemaOptions } from "./src/options.js";
const o = resolveSchemaOptions({ strict: process.argv[3] !== "lax" }, { additionalProperties: "spec" });
const dir = "/work/shared/data/jsonschemabench";
for (const f of readdirSync(dir)) for (const line of readFileSync(dir + "/" + f, "utf8").split("\n")) {
  if (!line.includes(`"${process.argv[2]}"`)) continue;
  const r = JSON.parse(line);
  const t0 = performance.now();
  try { const w: any[] = []; const ir = normalizeSchema(r.schema, o, w); console.log(JSON.stringify(ir.root).slice(0, 1500), w.slice(0, 5)); } catch (e: any) { console.log(e.stack.split("\n").slice(0, 30).join("\n")); }
  console.log(performance.now() - t0, "ms");
}
