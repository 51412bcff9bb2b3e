import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { Referee } from "../../src/conformance/referee.js";
import type { ToolgramError } from "../../src/errors.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { MAX_UNIQUE_ITEMS_STATES } from "../../src/lower/lowerUniqueArray.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";

const SEED = Number(process.env.FC_SEED ?? 20261128);
const referee = new Referee();

const pool: JsonValue[] = [0, 1, 2, -1, "a", "b", true, false, null, { a: 1, b: 2 }, [1]];
const itemSchema = fc.oneof(
  fc.subarray(pool, { minLength: 1, maxLength: 5 }).map((values) => ({ enum: values }) as JsonValue),
  fc.constant({ type: "boolean" } as JsonValue),
  fc.integer({ min: -3, max: 3 }).map((lo) => ({ type: "integer", minimum: lo, maximum: lo + 3 }) as JsonValue),
  fc
    .tuple(fc.constantFrom(...pool), fc.constantFrom(...pool))
    .map(([a, b]) => ({ anyOf: [{ const: a }, { const: b }, { type: "null" }] }) as JsonValue),
);
const arraySchema = fc.record(
  {
    items: itemSchema,
    minItems: fc.nat(3),
    maxItems: fc.integer({ min: 2, max: 5 }),
    contains: fc.constantFrom({ type: "integer" }, { const: true }, { type: "null" }),
    maxContains: fc.nat(2),
  },
  { requiredKeys: ["items"] },
);

/**
 * The schema's grammar samples are valid for ajv, and it accepts exactly the candidate arrays ajv calls valid; an
 * unsatisfiable combination is the only refusal these schemas may meet.
 */
function agreesWithAjv(schema: JsonValue, candidates: readonly JsonValue[], samples: number): void {
  let compiled: ReturnType<typeof compileSchema>;
  try {
    compiled = compileSchema(schema);
  } catch (e) {
    expect((e as ToolgramError).code).toBe("UNSATISFIABLE");
    return;
  }
  const random = seededRandom(SEED);
  for (let i = 0; i < samples; i++) {
    const t = sampleGrammar(compiled.grammar, random);
    if (t !== undefined) expect({ t, valid: referee.validText(schema, t) }).toEqual({ t, valid: true });
  }
  for (const c of candidates) {
    const t = canonicalJson(c);
    expect({ t, accepted: compiled.accepts(t) }).toEqual({ t, accepted: referee.validText(schema, t) });
  }
}

describe(`uniqueItems over finite domains (seed ${SEED})`, () => {
  it("random walks are valid, and every valid array of the domain's values is accepted", () => {
    fc.assert(
      fc.property(
        arraySchema,
        fc.array(fc.array(fc.constantFrom(...pool), { maxLength: 5 }), { maxLength: 40 }),
        (s, candidates) => {
          const schema = { type: "array", uniqueItems: true, ...(s as object) } as Record<string, JsonValue>;
          agreesWithAjv(schema, candidates, 30);
        },
      ),
      { seed: SEED, numRuns: 60 },
    );
  }, 120_000);

  it("values equal as JSON are one value: 0 and -0, objects in another key order", () => {
    const c = compileSchema({
      type: "array",
      uniqueItems: true,
      items: { anyOf: [{ enum: [0, { a: 1, b: 2 }] }, { enum: [-0, { b: 2, a: 1 }] }] },
    });
    expect(c.accepts('[0, {"a": 1, "b": 2}]')).toBe(true);
    expect(c.accepts("[0, -0]")).toBe(false);
    expect(c.accepts('[{"a": 1, "b": 2}, {"b": 2, "a": 1}]')).toBe(false);
  });

  it("refuses what is not a finite domain, and too many sets, naming the reason and the limit", () => {
    const code = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        return `${(e as ToolgramError).code}: ${(e as Error).message}`;
      }
      return "compiled";
    };
    expect(code(() => compileSchema({ type: "array", items: { type: "string" }, uniqueItems: true }))).toMatch(
      /^UNSUPPORTED_KEYWORD: uniqueItems: the items are not from a finite domain/,
    );
    const many = Array.from({ length: 40 }, (_, i) => i);
    expect(code(() => compileSchema({ type: "array", items: { enum: many }, uniqueItems: true }))).toContain(
      `more than ${MAX_UNIQUE_ITEMS_STATES} sets of used values`,
    );
    // bounded by maxItems: 1 + 40 + 780 sets
    expect(code(() => compileSchema({ type: "array", items: { enum: many }, uniqueItems: true, maxItems: 2 }))).toBe(
      "compiled",
    );
    // at most one item: nothing to enforce
    expect(
      code(() => compileSchema({ type: "array", items: { type: "string" }, uniqueItems: true, maxItems: 1 })),
    ).toBe("compiled");
  });

  it("closed objects of finite properties (a discriminator beside booleans and small ranges) agree with ajv", () => {
    const objectPool: JsonValue[] = [
      {},
      { kind: "a" },
      { kind: "b" },
      { kind: "a", on: true },
      { kind: "a", on: false },
      { kind: "b", on: true, n: 1 },
      { kind: "a", n: 0 },
      { kind: "c" },
      { kind: "a", extra: 1 },
      { on: true },
    ];
    const objectSchema = fc.record({
      kinds: fc.subarray(["a", "b"], { minLength: 1 }),
      required: fc.subarray(["kind", "on", "n"]),
      minProperties: fc.nat(2),
      maxItems: fc.integer({ min: 1, max: 4 }),
      minItems: fc.nat(2),
    });
    fc.assert(
      fc.property(
        objectSchema,
        fc.array(fc.array(fc.constantFrom(...objectPool), { maxLength: 4 }), { maxLength: 30 }),
        (s, candidates) => {
          const schema = {
            type: "array",
            uniqueItems: true,
            minItems: s.minItems,
            maxItems: s.maxItems,
            items: {
              type: "object",
              properties: {
                kind: { enum: s.kinds },
                on: { type: "boolean" },
                n: { type: "integer", minimum: 0, maximum: 1 },
              },
              required: s.required,
              minProperties: s.minProperties,
              additionalProperties: false,
            },
          } as JsonValue;
          agreesWithAjv(schema, candidates, 20);
        },
      ),
      { seed: SEED, numRuns: 12 },
    );
  });

  it("objects of several keys are refused under propertyOrder any, with the reason", () => {
    const schema = {
      type: "array",
      uniqueItems: true,
      items: {
        type: "object",
        properties: { kind: { const: "a" }, on: { type: "boolean" } },
        required: ["kind"],
        additionalProperties: false,
      },
    };
    let err: unknown;
    try {
      compileSchema(schema, { propertyOrder: "any" });
    } catch (e) {
      err = e;
    }
    expect((err as ToolgramError).message).toContain('propertyOrder "declared"');
    expect(compileSchema(schema).accepts('[{"kind": "a"}, {"kind": "a", "on": true}]')).toBe(true);
  });
});
