import { readFileSync, readdirSync } from "node:fs";
import { normalizeSchema } from "./src/schema/normalizeSchema.js";
import { resolveSchemaOptions } from "./src/options.js";
const o = resolveSchemaOptions({ strict: process.argv[3] !== "lax" }, { additionalProperties: "spec" });
const dir = "/work/shared/data/jsonschemabench";
for (const f of readdirSync(dir)) for (const line of readFileSync(dir + "/" + f, "utf8").split("\n")) {
  if (!line.includes(`"${process.argv[2]}"`)) continue;
  const r = JSON.parse(line);
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    let res = "";
    try { normalizeSchema(r.schema, o, []); res = "ok"; } catch (e: any) { res = e.code; }
    console.log(res, (performance.now() - t0).toFixed(0), "ms");
  }
}
