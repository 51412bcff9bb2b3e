import { describe, expect, it, vi } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { LimitExceededError } from "../../src/errors.js";
import { ref, seq, lit } from "../../src/grammar/build.js";
import type { GExpr } from "../../src/grammar/Grammar.js";
import { Deadline } from "../../src/Deadline.js";
import { optimize } from "../../src/grammar/passes/optimize.js";
import { createLowerContext, lowerSchema } from "../../src/lower/lowerSchema.js";
import { lowerStringContent } from "../../src/lower/string/lowerStringContent.js";
import { resolveSchemaOptions } from "../../src/options.js";
import { tinyVocab } from "../support/tinyVocab.js";
import { toGbnf } from "../../src/emit/toGbnf.js";
import { toRegex } from "../../src/emit/toRegex.js";
import { normalizeSchema } from "../../src/schema/normalizeSchema.js";
import { sampleRows } from "../../bench/jsonSchemaBenchSample.js";

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
  return {
    type: "object",
    properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "integer", minimum: i }])),
  };
}

describe("the compile deadline is checked inside each stage", () => {
  it("normalizing", () => {
    expect(compileTimeError(() => normalizeSchema(wide(600), OPTS, [], "", spent())).message).toMatch(
      /while normalizing the schema/,
    );
  });

  it("lowering", () => {
    const ir = normalizeSchema(wide(600), OPTS, []);
    const e = compileTimeError(() => lowerSchema(ir, createLowerContext(OPTS, "value", [], spent())));
    expect(e.message).toMatch(/while lowering the schema/);
  });

  it("string automata, and an over-budget product is not mistaken for a too large one (strict: false)", () => {
    const spec = { minLength: 1, maxLength: 500, patterns: ["^(?:\\S+\\s+){0,49}\\S+$"], notPatterns: [], formats: [] };
    const warnings: never[] = [];
    const ctx = {
      strict: false,
      limits: OPTS.limits,
      warnings,
      path: "/x",
      rules: new Map<string, GExpr>(),
      deadline: spent(),
    };
    compileTimeError(() => lowerStringContent(spec, ctx));
    expect(warnings).toEqual([]);
  });

  it("optimizing", () => {
    const rules = new Map<string, GExpr>([["root", ref("r0")]]);
    for (let i = 0; i < 1_000; i++) rules.set(`r${i}`, seq(lit("x"), ref(`r${i + 1}`)));
    rules.set("r1000", lit("y"));
    expect(compileTimeError(() => optimize({ root: "root", rules }, spent())).message).toMatch(
      /while (optimizing|deduplicating|inlining|analyzing|keying|simplifying)/,
    );
  });
});

describe("compileSchema refuses a slow schema close to limits.maxCompileMs", () => {
  // JSONSchemaBench Handwritten---allany22: an allOf of anyOfs whose product lowers to ~15,000 rules
  const row = sampleRows().find((r) => r.id === "Handwritten---allany22");

  // The verdict must not depend on the machine: a fake clock advances 1 ms per reading (Deadline reads it every few
  // dozen steps), so the compile must be refused by the clock, at the first reading past the budget, whatever the
  // machine's speed. That every stage ticks at all is what the step-budget tests below check, with the clock off.
  it("is refused at the first clock reading past limits.maxCompileMs (a fake clock, 1 ms a reading)", () => {
    expect(row).toBeDefined();
    const schema = row!.schema;
    const budget = 400;
    const e = withFakeClock((readings) => {
      const err = compileTimeError(
        () =>
          compileSchema(schema, {
            unknownKeywords: "ignore",
            limits: { maxCompileMs: budget, maxCompileSteps: Number.POSITIVE_INFINITY },
          }),
        "LIMIT_COMPILE_TIME",
      );
      // the deadline started at reading 1 and expired at reading budget + 2: no stage went on reading after that
      expect(readings()).toBeLessThanOrEqual(budget + 3);
      return err;
    });
    expect(e.message).toMatch(/above|over/);
  });
});

/** Runs `f` with `performance.now` replaced by a counter (1 ms per reading); `readings()` tells how many were made. */
function withFakeClock<T>(f: (readings: () => number) => T): T {
  let n = 0;
  const spy = vi.spyOn(performance, "now").mockImplementation(() => ++n);
  try {
    return f(() => n);
  } finally {
    spy.mockRestore();
  }
}

/** Shapes whose grammar (or whose copy, products, automata or printed text) grows exponentially or very fast. */
const EXPLODING: [string, () => unknown][] = [
  [
    "40 nested levels of {anyOf: [S, {type: array, items: S}]} (one object shared at every level)",
    () => {
      let s: unknown = { type: "integer" };
      for (let i = 0; i < 40; i++) s = { anyOf: [s, { type: "array", items: s }] };
      return s;
    },
  ],
  [
    "the same, written out as JSON text 16 levels deep",
    () => {
      let s: unknown = { type: "integer" };
      for (let i = 0; i < 16; i++) s = { anyOf: [s, { type: "array", items: s }] };
      return JSON.parse(JSON.stringify(s));
    },
  ],
  [
    "an allOf of five oneOfs of five objects (a product of 3,125 alternatives)",
    () => ({
      allOf: Array.from({ length: 5 }, (_, i) => ({
        oneOf: Array.from({ length: 5 }, (_, j) => ({
          type: "object",
          properties: { [`p${i}`]: { const: j } },
          required: [`p${i}`],
        })),
      })),
    }),
  ],
  [
    "a long enum excluded from a pattern",
    () => ({
      type: "string",
      pattern: "^[a-z]+[0-9]*$",
      not: { enum: Array.from({ length: 3_000 }, (_, i) => `v${i.toString(36)}x${i}`) },
    }),
  ],
  [
    "a product of eight patterns under a maxLength",
    // 1,213,055 steps unbounded (at maxLength 200 it took 237,855 once the optimizer walked each body once)
    () => ({
      type: "string",
      maxLength: 1000,
      allOf: Array.from({ length: 8 }, (_, i) => ({ pattern: `[${String.fromCharCode(97 + i)}-z]{${i + 2}}` })),
    }),
  ],
];

function refusal(f: () => unknown): LimitExceededError {
  try {
    f();
  } catch (e) {
    if (e instanceof LimitExceededError) return e;
    throw e;
  }
  throw new Error("expected a refusal by a limit");
}

describe("exploding shapes are refused within the budget, in every stage", () => {
  // deterministic: a small step budget with the clock off; each shape spends more than it, whatever the machine
  const STEPS = 300_000;
  for (const [name, shape] of EXPLODING) {
    it(`${name}: LIMIT_COMPILE_STEPS at ${STEPS} steps (clock off)`, () => {
      const e = refusal(() =>
        compileSchema(shape(), { limits: { maxCompileSteps: STEPS, maxCompileMs: Number.POSITIVE_INFINITY } }),
      );
      expect(e.code).toBe("LIMIT_COMPILE_STEPS");
      expect(e.message).toContain(`more than ${STEPS} work steps`);
    }, 120_000);
  }

  // the clock: a refusal with its code, on a fake clock (1 ms a reading) so that no verdict depends on the machine
  it("on the clock: every shape is refused by limits.maxCompileMs (steps unbounded)", () => {
    const budget = 200;
    for (const [name, shape] of EXPLODING) {
      const schema = shape();
      withFakeClock((readings) => {
        const e = refusal(() =>
          compileSchema(schema, { limits: { maxCompileMs: budget, maxCompileSteps: Number.POSITIVE_INFINITY } }),
        );
        expect(e.code, name).toBe("LIMIT_COMPILE_TIME");
        expect(readings(), name).toBeLessThanOrEqual(budget + 3);
      });
    }
  });

  it("the emitters and the matcher built after compiling get the compile's budget again", () => {
    // compiles cheaply (rules are shared), but the regex inlines every rule: 2^12 copies
    let s: unknown = { type: "integer" };
    for (let i = 0; i < 12; i++) s = { anyOf: [s, { type: "array", items: s, maxItems: 2 }] };
    const compiled = compileSchema(s);
    const e = refusal(() =>
      toRegex(compiled.grammar, new Deadline({ maxCompileSteps: 20_000, maxCompileMs: Number.POSITIVE_INFINITY })),
    );
    expect(e.code).toBe("LIMIT_COMPILE_STEPS");
    expect(e.message).toMatch(/while printing the regex/);
    expect(
      refusal(() =>
        toGbnf(compiled.grammar, new Deadline({ maxCompileSteps: 100, maxCompileMs: Number.POSITIVE_INFINITY })),
      ).message,
    ).toMatch(/while (printing the GBNF|analyzing the grammar|rewriting nullable repetitions)/);
    // a compiled grammar gives its own limits to the automaton built later: a long string compiles in a few steps,
    // and its automaton needs thousands of states (a longer one builds only its first chunk of copies when made)
    const long = { type: "object", properties: { s: { type: "string", maxLength: 2_000 } } };
    const need = compileSchema(long, { limits: { maxCompileMs: Number.POSITIVE_INFINITY } }).compileSteps;
    const tight = compileSchema(long, {
      limits: { maxCompileSteps: need + 1_000, maxCompileMs: Number.POSITIVE_INFINITY },
    });
    expect(refusal(() => tight.createMatcher(tinyVocab())).message).toMatch(/while building the token automaton/);
    expect(compileSchema(long).createMatcher(tinyVocab()).acceptString('{"s": "abc"}')).toBe(true);
  }, 120_000);
});
