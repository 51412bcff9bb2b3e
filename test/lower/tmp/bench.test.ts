import { it } from "vitest";
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import Ajv07 from "ajv";
import addFormats from "ajv-formats";
import { normalizeSchema } from "../../../src/schema/normalizeSchema.js";
import { resolveSchemaOptions } from "../../../src/options.js";
import { createLowerContext, lowerSchema } from "../../../src/lower/lowerSchema.js";
import { createAcceptor } from "../../../src/grammar/accepts.js";
import { canonicalJson } from "../../../src/json.js";
import { ToolgramError } from "../../../src/errors.js";
import type { GExpr } from "../../../src/grammar/Grammar.js";

it("bench", () => {
  const lines = readFileSync("test/fixtures/jsonschemabench/sample.jsonl", "utf8").trim().split("\n");
  const stats: Record<string, number> = {};
  const inc = (k: string) => (stats[k] = (stats[k] ?? 0) + 1);
  const bad: string[] = [];
  const t0 = performance.now();
  const aj20 = new Ajv2020.default({ strict: false, validateFormats: true }); addFormats.default(aj20);
  const aj07 = new Ajv07.default({ strict: false, validateFormats: true }); addFormats.default(aj07);
  for (const line of lines.slice(0, Number(process.env.N ?? 2000))) {
    const c = JSON.parse(line);
    const warnings: never[] = [];
    let acc;
    try {
      const opts = resolveSchemaOptions({}, { additionalProperties: "spec" });
      let t = performance.now();
      const ir = normalizeSchema(c.schema, opts, warnings);
      stats.tNorm = (stats.tNorm ?? 0) + performance.now() - t; t = performance.now();
      const ctx = createLowerContext(opts, "t", warnings);
      const root = lowerSchema(ir, ctx);
      const dt = performance.now() - t;
      stats.tLower = (stats.tLower ?? 0) + dt;
      if (dt > 200) bad.push(c.id + " SLOW LOWER " + dt.toFixed(0));
      t = performance.now();
      acc = createAcceptor({ rules: new Map<string, GExpr>([["root", root], ...ctx.rules]), root: "root" });
      stats.tAcc = (stats.tAcc ?? 0) + performance.now() - t;
      inc("compiled");
    } catch (e) {
      inc(e instanceof ToolgramError ? "refused:" + e.code : "crash");
      if (!(e instanceof ToolgramError)) bad.push(c.id + " CRASH " + String(e).slice(0, 200));
      continue;
    }
    let validate;
    const ta = performance.now();
    try {
      const modern = typeof c.schema.$schema === "string" && /2019|2020/.test(c.schema.$schema);
      const ajv = modern ? aj20 : aj07;
      const sch = { ...c.schema }; delete sch.$id; delete sch.id; delete sch.$schema;
      validate = ajv.compile(sch);
    } catch (e) { inc("ajvfail"); bad.push(c.id + " AJVFAIL " + String(e).slice(0, 100)); continue; }
    stats.tAjv = (stats.tAjv ?? 0) + performance.now() - ta;
    const tt = performance.now();
    for (const t of c.tests) {
      let text: string;
      try { text = canonicalJson(t.data); } catch { continue; }
      const got = acc.accepts(text);
      const valid = validate(t.data);
      inc(`${valid ? "valid" : "invalid"}-${got ? "acc" : "rej"}`);
      if (got && !valid) bad.push(c.id + " FALSE ACCEPT " + text.slice(0, 200));
    }
  }
  console.log(stats, ((performance.now() - t0) / 1000).toFixed(1) + "s");
  console.log(bad.slice(0, 30).join("\n"));
}, 600_000);
