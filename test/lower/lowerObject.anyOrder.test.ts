/**
 * `propertyOrder: "any"`: every order of the declared properties, each at most once, the required ones present.
 * Random object schemas; candidates are shuffled objects, accepted exactly when ajv (the referee) says valid; random
 * walks of the grammar are valid. Seeded; `FC_SEED=<n>` replays. The cost (one rule per subset) is counted and bounded.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { Referee } from "../../src/conformance/referee.js";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { MAX_ANY_ORDER_PROPERTIES } from "../../src/lower/lowerObject.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";

const SEED = Number(process.env.FC_SEED ?? 20261128);
const referee = new Referee();
const KEYS = ["a", "b", "c", "d"];
const valueSchema = fc.constantFrom<JsonValue>({ type: "integer" }, { type: "string" }, { const: true }, {});

const objectSchema = fc
  .record(
    {
      properties: fc.dictionary(fc.constantFrom(...KEYS), valueSchema, { maxKeys: 4 }),
      required: fc.subarray(KEYS, { maxLength: 3 }),
      additionalProperties: fc.constantFrom<JsonValue>(false, true, { type: "integer" }),
      minProperties: fc.nat(3),
      maxProperties: fc.integer({ min: 1, max: 4 }),
      dependentRequired: fc.constantFrom<JsonValue>({ a: ["b"] }, { c: ["d"] }),
    },
    { requiredKeys: ["properties"] },
  )
  .map((o) => ({ type: "object", ...o }) as Record<string, JsonValue>);
const member = fc.tuple(fc.constantFrom(...KEYS, "x", "y"), fc.constantFrom<JsonValue>(1, "s", true, null));

describe(`propertyOrder "any" (seed ${SEED})`, () => {
  it("accepts an object in any key order exactly when ajv does; random walks are valid", () => {
    let compiled = 0;
    fc.assert(
      fc.property(objectSchema, fc.array(fc.array(member, { maxLength: 5 }), { maxLength: 20 }), (schema, cands) => {
        let c: ReturnType<typeof compileSchema>;
        try {
          c = compileSchema(schema, { propertyOrder: "any" });
        } catch (e) {
          if (!(e instanceof ToolgramError)) throw e;
          return;
        }
        compiled++;
        const random = seededRandom(SEED);
        for (let i = 0; i < 15; i++) {
          const t = sampleGrammar(c.grammar, random);
          if (t !== undefined) expect({ t, valid: referee.validText(schema, t) }).toEqual({ t, valid: true });
        }
        for (const members of cands) {
          const t = canonicalJson(Object.fromEntries(members));
          const valid = referee.validText(schema, t);
          const accepted = c.accepts(t);
          if (accepted) expect({ schema, t, valid }).toEqual({ schema, t, valid: true });
          // undeclared members are only placed after the declared ones when min/maxProperties count them
          const counted = schema.minProperties !== undefined || schema.maxProperties !== undefined;
          if (valid && !counted) expect({ schema, t, accepted }).toEqual({ schema, t, accepted: true });
        }
      }),
      { seed: SEED, numRuns: 120 },
    );
    expect(compiled).toBeGreaterThan(60);
  }, 120_000);

  it("keeps declaration order by default and rejects a repeated key", () => {
    const schema = { type: "object", properties: { a: { type: "integer" }, b: { type: "string" } }, required: ["a"] };
    expect(compileSchema(schema).accepts('{"b": "x", "a": 1}')).toBe(false);
    const any = compileSchema(schema, { propertyOrder: "any" });
    expect(any.accepts('{"b": "x", "a": 1}')).toBe(true);
    expect(any.accepts('{"a": 1, "b": "x"}')).toBe(true);
    expect(any.accepts('{"b": "x"}')).toBe(false);
    expect(any.accepts('{"a": 1, "a": 2}')).toBe(false);
    expect(any.accepts('{"a": 1, "b": "x", "a": 2}')).toBe(false);
    expect(() => compileSchema(schema, { propertyOrder: "random" as "any" })).toThrow(/propertyOrder must be/);
  });

  it("costs one rule per subset of the declared properties, and refuses above the limit naming it", () => {
    const sizes: number[] = [];
    const objectOf = (n: number): JsonValue => ({
      type: "object",
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "integer" }])),
      additionalProperties: false,
    });
    for (const n of [2, 4, 6, 8, MAX_ANY_ORDER_PROPERTIES]) {
      const g = compileSchema(objectOf(n) as object, { propertyOrder: "any" }).grammar;
      sizes.push(g.rules.size);
      // 2^n subset rules, and the few rules of the value itself
      expect(g.rules.size).toBeLessThanOrEqual(2 ** n + 8);
    }
    console.log(
      `propertyOrder "any": rules for 2, 4, 6, 8, ${MAX_ANY_ORDER_PROPERTIES} properties: ${sizes.join(", ")}`,
    );
    let err: unknown;
    try {
      compileSchema(objectOf(MAX_ANY_ORDER_PROPERTIES + 1) as object, { propertyOrder: "any" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ToolgramError);
    expect((err as ToolgramError).code).toBe("LIMIT_GRAMMAR_SIZE");
    expect((err as ToolgramError).message).toMatch(/11 declared properties, above MAX_ANY_ORDER_PROPERTIES 10/);
  });
});
