import { readFileSync, readdirSync } from "node:fs";
import { normalizeSchema } from "./src/schema/normalizeSchema.js";
import { resolveSchemaOptions } from "./src/options.js";
const o = resolveSchemaOptions({ strict: false }, { additionalProperties: "spec" });
const dir = "/work/shared/data/jsonschemabench";
let shown = 0;
for (const f of readdirSync(dir)) for (const line of readFileSync(dir + "/" + f, "utf8").split("\n")) {
  if (!line) continue;
  const r = JSON.parse(line);
  try { normalizeSchema(r.schema, o, []); } catch (e: any) {
    if (e.code === "UNSATISFIABLE" && shown++ < 12) console.log(r.id, e.message.slice(0, 300), r.tests?.filter((t:any)=>t.valid).length);
  }
}
