/**
 * `not` and overlapping `oneOf` by the IR's complement: random schemas over objects, arrays and scalars, wrapped in
 * `not` or an overlapping `oneOf`; every text a random walk of the grammar spells is valid for ajv (the referee), and
 * every candidate value is accepted exactly when ajv says it is valid (with `propertyOrder: "any"`: a complement's parts
 * declare keys in their own order). Seeded; `FC_SEED=<n>` replays.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { Referee } from "../../src/conformance/referee.js";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";

const SEED = Number(process.env.FC_SEED ?? 20261128);
const referee = new Referee();
const KEYS = ["a", "b", "c"];

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom<JsonValue>({ type: "string" }, { type: "integer" }, { type: "boolean" }, { const: 1 }, {}),
  fc.integer({ min: 0, max: 3 }).map((n) => ({ type: "integer", minimum: n }) as JsonValue),
  fc.constantFrom<JsonValue>(
    { enum: ["x", 1, true] },
    { type: "string", maxLength: 1 },
    { type: "number", minimum: -1.5, maximum: 2 },
    { type: "number", exclusiveMinimum: 0, maximum: 1 },
  ),
);
const objectSchema: fc.Arbitrary<JsonValue> = fc
  .record(
    {
      properties: fc.dictionary(fc.constantFrom(...KEYS), scalar, { maxKeys: 3 }),
      required: fc.subarray(KEYS, { maxLength: 2 }),
      additionalProperties: fc.constantFrom<JsonValue>(false, true),
      propertyNames: fc.constantFrom<JsonValue>({ enum: ["a", "b", "d"] }, { not: { const: "c" } }),
      dependentRequired: fc.constantFrom<JsonValue>({ a: ["b"] }, { c: ["a"] }),
      minProperties: fc.nat(2),
      maxProperties: fc.integer({ min: 1, max: 3 }),
    },
    { requiredKeys: ["properties"] },
  )
  .map((o) => ({ type: "object", ...o }) as JsonValue);
const valueSchema: fc.Arbitrary<JsonValue> = fc.oneof(
  objectSchema,
  scalar,
  fc.constantFrom<JsonValue>(
    { enum: [{ a: 1 }, [true], { a: "x", b: [1] }] },
    { const: { b: true } },
    { prefixItems: [{ type: "integer" }, { const: "x" }], items: false },
    { type: "array", prefixItems: [{ type: "boolean" }] },
  ),
);
const wrapped: fc.Arbitrary<JsonValue> = fc.oneof(
  valueSchema.map((s) => ({ not: s }) as JsonValue),
  fc.array(valueSchema, { minLength: 2, maxLength: 3 }).map((bs) => ({ oneOf: bs }) as JsonValue),
  fc.tuple(valueSchema, valueSchema).map(([x, y]) => ({ allOf: [x, { not: y }] }) as JsonValue),
);
const candidate: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.dictionary(
    fc.constantFrom(...KEYS, "d"),
    fc.constantFrom<JsonValue>(1, 0, 5, "x", "yy", true, null, [1], { a: 1 }),
    { maxKeys: 4 },
  ),
  fc.constantFrom<JsonValue>(
    1,
    1.5,
    -0.5,
    2.25,
    0.001,
    -1,
    2,
    "x",
    "",
    true,
    null,
    [],
    [true],
    [true, "x"],
    [1, "x"],
    { a: 1 },
    { b: true },
  ),
);

/** The object in every order of its keys (itself when not an object). */
function orders(v: JsonValue): JsonValue[] {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return [v];
  const perms = (xs: [string, JsonValue][]): [string, JsonValue][][] =>
    xs.length <= 1 ? [xs] : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
  return perms(Object.entries(v)).map((es) => Object.fromEntries(es));
}

describe(`not and oneOf by complement (seed ${SEED})`, () => {
  it("random walks are valid and candidates are judged as ajv judges them", () => {
    let compiled = 0;
    let refused = 0;
    fc.assert(
      fc.property(wrapped, fc.array(candidate, { maxLength: 25 }), (schema, candidates) => {
        const s = schema;
        let c: ReturnType<typeof compileSchema>;
        try {
          c = compileSchema(s as object, { propertyOrder: "any" });
        } catch (e) {
          if (!(e instanceof ToolgramError)) throw e;
          refused++;
          if (process.env.SHOW_REFUSALS) console.log(e.message.slice(0, 160));
          return;
        }
        compiled++;
        const random = seededRandom(SEED);
        for (let i = 0; i < 15; i++) {
          const t = sampleGrammar(c.grammar, random);
          if (t !== undefined) expect({ s, t, valid: referee.validText(s, t) }).toEqual({ s, t, valid: true });
        }
        for (const v of candidates) {
          const t = canonicalJson(v);
          const valid = referee.validText(s, t);
          // where min/maxProperties count members, undeclared keys come after the declared ones: some order of the
          // valid object's keys is accepted
          const accepted = c.accepts(t) || (valid && orders(v).some((o) => c.accepts(canonicalJson(o))));
          expect({ s, t, accepted }).toEqual({ s, t, accepted: valid });
        }
      }),
      { seed: SEED, numRuns: 150 },
    );
    console.log(`not/oneOf: ${compiled} compiled, ${refused} refused (seed ${SEED})`);
    expect(compiled).toBeGreaterThan(refused);
  }, 120_000);

  it("an overlapping oneOf of const-typed branches, one of them open, compiles exactly", () => {
    const schema = {
      oneOf: [
        {
          type: "object",
          properties: { type: { const: "text" }, text: { type: "string" } },
          required: ["text"],
          additionalProperties: false,
        },
        { type: "object", properties: { type: { const: "image" }, data: { type: "string" } } },
      ],
    };
    const c = compileSchema(schema, { propertyOrder: "any" });
    const values: JsonValue[] = [
      { text: "x" },
      { type: "text", text: "x" },
      { data: "d" },
      { text: "x", data: "d" },
      {},
      { type: "image", text: "x" },
    ];
    for (const v of values) {
      const t = canonicalJson(v);
      expect({ t, accepted: c.accepts(t) }).toEqual({ t, accepted: referee.validText(schema, t) });
    }
  });

  it("a refusal names the part without an exact complement", () => {
    expect(() => compileSchema({ not: { multipleOf: 3 } })).toThrow(/complement of `multipleOf`/);
    expect(() => compileSchema({ oneOf: [{ type: "integer" }, { multipleOf: 2 }] })).toThrow(
      /branch \d has no exact complement: .*multipleOf/,
    );
  });
});
