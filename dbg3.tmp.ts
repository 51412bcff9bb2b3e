import { normalizeSchema } from "./src/schema/normalizeSchema.js";
import { resolveSchemaOptions } from "./src/options.js";
const o = resolveSchemaOptions({}, { additionalProperties: "spec" });
let s: any = { type: "string" };
for (let i = 0; i < 10000; i++) s = { type: "array", items: s };
let t0 = performance.now();
try { normalizeSchema(s, o, []); } catch (e: any) { console.log(e.code, e.message.slice(0, 100)); }
console.log(performance.now() - t0);
s = { type: "string" };
for (let i = 0; i < 10000; i++) s = { allOf: [s] };
t0 = performance.now();
try { normalizeSchema(s, o, []); } catch (e: any) { console.log(e.code, e.message.slice(0, 100)); }
console.log(performance.now() - t0);
