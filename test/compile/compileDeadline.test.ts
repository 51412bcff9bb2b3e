import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { LimitExceededError } from "../../src/errors.js";
import { ref, seq, lit } from "../../src/grammar/build.js";
import type { GExpr } from "../../src/grammar/Grammar.js";
import { Deadline } from "../../src/Deadline.js";
import { optimize } from "../../src/grammar/passes/optimize.js";
import { createLowerContext, lowerSchema } from "../../src/lower/lowerSchema.js";
import { lowerStringContent } from "../../src/lower/string/lowerStringContent.js";
import { resolveSchemaOptions } from "../../src/options.js";
import { normalizeSchema } from "../../src/schema/normalizeSchema.js";

const here = dirname(fileURLToPath(import.meta.url));
const OPTS = resolveSchemaOptions({}, { additionalProperties: "spec" });
const spent = (): Deadline => new Deadline({ maxCompileSteps: 0, maxCompileMs: Number.POSITIVE_INFINITY });

function compileTimeError(f: () => unknown, code = "LIMIT_COMPILE_STEPS"): LimitExceededError {
  try {
    f();
  } catch (e) {
    if (e instanceof LimitExceededError && e.code === code) return e;
    throw e;
  }
  throw new Error(`expected ${code}`);
}

/** An object schema with `n` properties: `n` subschemas to normalize and lower. */
function wide(n: number): Record<string, unknown> {
  return { type: "object", properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "integer", minimum: i }])) };
}

describe("the compile deadline is checked inside each stage", () => {
  it("normalizing", () => {
    expect(compileTimeError(() => normalizeSchema(wide(600), OPTS, [], "", spent())).message).toMatch(/while normalizing the schema/);
  });

  it("lowering", () => {
    const ir = normalizeSchema(wide(600), OPTS, []);
    const e = compileTimeError(() => lowerSchema(ir, createLowerContext(OPTS, "value", [], spent())));
    expect(e.message).toMatch(/while lowering the schema/);
  });

  it("string automata, and an over-budget product is not mistaken for a too large one (strict: false)", () => {
    const spec = { minLength: 1, maxLength: 500, patterns: ["^(?:\\S+\\s+){0,49}\\S+$"], notPatterns: [], formats: [] };
    const warnings: never[] = [];
    const ctx = { strict: false, limits: OPTS.limits, warnings, path: "/x", rules: new Map<string, GExpr>(), deadline: spent() };
    compileTimeError(() => lowerStringContent(spec, ctx));
    expect(warnings).toEqual([]);
  });

  it("optimizing", () => {
    const rules = new Map<string, GExpr>([["root", ref("r0")]]);
    for (let i = 0; i < 1_000; i++) rules.set(`r${i}`, seq(lit("x"), ref(`r${i + 1}`)));
    rules.set("r1000", lit("y"));
    expect(compileTimeError(() => optimize({ root: "root", rules }, spent())).message).toMatch(/while (optimizing|deduplicating|inlining|analyzing|keying|simplifying)/);
  });
});

describe("compileSchema refuses a slow schema close to limits.maxCompileMs", () => {
  // JSONSchemaBench Handwritten---allany22: an allOf of anyOfs whose product lowers to ~15,000 rules
  const row = readFileSync(join(here, "../fixtures/jsonschemabench/sample.jsonl"), "utf8")
    .split("\n")
    .find((l) => l.includes('"id":"Handwritten---allany22"'));

  // Not a speed assertion (speed lives in benchmarks): a refusal that waited for the end of a stage would take many
  // times the budget here (it took 15 s before the deadline was threaded through); 5× leaves room for a loaded machine.
  it("is refused long before an unchecked stage would end", () => {
    expect(row).toBeDefined();
    const schema = (JSON.parse(row as string) as { schema: unknown }).schema;
    const budget = 400;
    const t = performance.now();
    const e = compileTimeError(() => compileSchema(schema, { unknownKeywords: "ignore", limits: { maxCompileMs: budget } }), "LIMIT_COMPILE_TIME");
    const ms = performance.now() - t;
    expect(e.message).toMatch(/above|over/);
    expect(ms).toBeLessThan(budget * 5);
  });
});
