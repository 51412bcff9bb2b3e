import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolgramError } from "../../src/errors.js";
import type { JsonValue } from "../../src/json.js";
import { irAccepts, makeAjv, norm } from "../support/schema/schemaHarness.js";

/**
 * The normalizer's IR, read by its own value checker, must judge values exactly as ajv judges the source schema
 * (strict mode), and never reject what ajv accepts (non-strict mode).
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);

const VALUES: JsonValue[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  2,
  3,
  1.5,
  10,
  100,
  -0.5,
  "",
  "a",
  "ab",
  "abc",
  "b",
  "ba",
  "x@y.io",
  "2024-01-02",
  [],
  [1],
  [1, 2],
  ["a"],
  ["a", 1],
  [null, null, null],
  [[1]],
  {},
  { a: 1 },
  { a: "x" },
  { b: 2 },
  { a: 1, b: "y" },
  { k: "a" },
  { k: "b", x: 1 },
  { k: "a", x: 1, y: 2 },
  { c: null },
  { a: { a: 1 } },
  { a: [1, "a"] },
  { ab: 1, a: 2 },
  { a: { a: { a: "x" } } },
  { b: { k: "a" }, a: null },
  [[["a"]]],
  [{ a: 1 }, { a: 2 }],
  ["a", "b", "ab"],
  { x: [], ba: "b" },
];

const key = fc.constantFrom("a", "b", "k", "x", "ab");
const val = fc.constantFrom<JsonValue>(...VALUES);

type S = Record<string, unknown> | boolean;

const schemaArb: fc.Arbitrary<S> = fc.letrec<{ s: S; leaf: Record<string, unknown> }>((tie) => ({
  leaf: fc.oneof(
    fc.record({
      type: fc.oneof(
        fc.constantFrom("string", "number", "integer", "object", "array", "boolean", "null"),
        fc.subarray(["string", "integer", "null", "object"], { minLength: 1 }),
      ),
    }),
    fc.record({ minLength: fc.nat(3) }),
    fc.record({ maxLength: fc.nat(3) }),
    fc.record({ pattern: fc.constantFrom("^a", "b$", "^[ab]+$", "x") }),
    fc.record({ format: fc.constantFrom("email", "date") }),
    fc.record({ minimum: fc.integer({ min: -1, max: 3 }) }),
    fc.record({ maximum: fc.integer({ min: -1, max: 3 }) }),
    fc.record({ exclusiveMinimum: fc.integer({ min: -1, max: 3 }) }),
    fc.record({ exclusiveMaximum: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ multipleOf: fc.constantFrom(2, 0.5, 3) }),
    fc.record({ const: val }),
    fc.record({ enum: fc.array(val, { minLength: 1, maxLength: 4 }) }),
    fc.record({ required: fc.uniqueArray(key, { maxLength: 2 }) }),
    fc.record({ minItems: fc.nat(2) }),
    fc.record({ maxItems: fc.nat(2) }),
    fc.record({ minProperties: fc.nat(2) }),
    fc.record({ maxProperties: fc.nat(2) }),
    fc.constant({ $ref: "#/$defs/d" }),
    fc.record({ dependentRequired: fc.dictionary(key, fc.uniqueArray(key, { maxLength: 2 }), { maxKeys: 1 }) }),
  ),
  s: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("leaf"),
    fc.boolean(),
    fc.tuple(tie("leaf"), tie("leaf")).map(([x, y]) => ({ ...x, ...y })),
    fc
      .record({ properties: fc.dictionary(key, tie("s"), { maxKeys: 2 }) }, { requiredKeys: [] })
      .chain((p) =>
        fc
          .record(
            { additionalProperties: fc.oneof(fc.boolean(), tie("s")), required: fc.uniqueArray(key, { maxLength: 2 }) },
            { requiredKeys: [] },
          )
          .map((x) => ({ type: "object", ...p, ...x })),
      ),
    fc.record(
      {
        patternProperties: fc.dictionary(fc.constantFrom("^a", "b"), tie("s"), { maxKeys: 1 }),
        additionalProperties: fc.boolean(),
      },
      { requiredKeys: ["patternProperties"] },
    ),
    fc.record({ propertyNames: fc.record({ maxLength: fc.nat(1) }) }),
    fc.record({ items: tie("s") }),
    fc.record(
      { prefixItems: fc.array(tie("s"), { minLength: 1, maxLength: 2 }), items: fc.oneof(fc.boolean(), tie("s")) },
      { requiredKeys: ["prefixItems"] },
    ),
    fc.record({ contains: tie("s"), minContains: fc.nat(2) }, { requiredKeys: ["contains"] }),
    fc.record({ allOf: fc.array(tie("s"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ anyOf: fc.array(tie("s"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("s"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: tie("s") }),
    fc.record({ if: tie("s"), then: tie("s"), else: tie("s") }, { requiredKeys: ["if"] }),
    fc.record({ dependentSchemas: fc.dictionary(key, tie("s"), { minKeys: 1, maxKeys: 1 }) }),
    fc.record({
      properties: fc.dictionary(key, tie("s"), { maxKeys: 2 }),
      unevaluatedProperties: fc.oneof(fc.boolean(), tie("s")),
    }),
    fc.record({
      prefixItems: fc.array(tie("s"), { minLength: 1, maxLength: 2 }),
      unevaluatedItems: fc.oneof(fc.boolean(), tie("s")),
    }),
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(key, tie("s"), { maxKeys: 2 }),
        patternProperties: fc.dictionary(fc.constantFrom("^a", "b"), tie("s"), { maxKeys: 1 }),
        additionalProperties: fc.oneof(fc.boolean(), tie("s")),
      },
      { requiredKeys: ["type"] },
    ),
  ),
})).s;

/** A root schema with one definition `#/$defs/d`, which leaves may reference (recursively too). */
const rootArb: fc.Arbitrary<S> = fc
  .tuple(schemaArb, schemaArb)
  .map(([root, d]) => (typeof root === "object" ? { ...root, $defs: { d } } : root));

function check(strict: boolean): { compared: number; refused: number } {
  const ajv = makeAjv();
  let compared = 0;
  let refused = 0;
  fc.assert(
    fc.property(rootArb, fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), (schema, extra) => {
      const values = [...VALUES, ...(extra as JsonValue[])];
      let verdicts: boolean[];
      try {
        const validate = ajv.compile(schema as object);
        verdicts = values.map((v) => validate(v) as boolean);
      } catch {
        // not a valid schema for ajv (the generator can build some), or one ajv loops on (left recursion)
        return;
      }
      let ir;
      try {
        ir = norm(schema, { strict });
      } catch (e) {
        if (!(e instanceof ToolgramError)) throw e;
        refused++;
        if (e.code === "UNSATISFIABLE") {
          values.forEach((v, i) => expect(verdicts[i], `ajv accepts ${JSON.stringify(v)}`).toBe(false));
        }
        return;
      }
      for (const [i, v] of values.entries()) {
        const want = verdicts[i];
        const got = irAccepts(ir, v);
        if (strict) expect(got, `value ${JSON.stringify(v)}`).toBe(want);
        else if (want) expect(got, `value ${JSON.stringify(v)}`).toBe(true);
        compared++;
      }
    }),
    {
      seed: SEED,
      numRuns: Number(process.env.TOOLGRAM_RUNS ?? 500),
      endOnFailure: true,
      reporter: (d) => {
        if (d.failed) throw new Error(`seed ${SEED}: ${fc.defaultReportMessage(d)}`);
      },
    },
  );
  return { compared, refused };
}

describe("normalizeSchema against ajv", () => {
  it("strict: the IR accepts exactly what ajv accepts", () => {
    const r = check(true);
    expect(r.compared).toBeGreaterThan(5_000);
    if (process.env.TOOLGRAM_VERBOSE) console.log(r);
  });
  it("non-strict: the IR accepts at least what ajv accepts", () => {
    check(false);
  });
});
