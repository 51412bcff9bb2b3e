/**
 * Keys matching several `patternProperties`: their value must satisfy every matching pattern's schema (the
 * intersection), and such keys were once left out of the grammar. Random objects with two to four overlapping
 * patterns; every text a random walk of the grammar spells is valid for ajv (the referee), and every candidate is
 * accepted exactly when ajv says it is valid. Seeded; `FC_SEED=<n>` replays.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { Referee } from "../../src/conformance/referee.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { MAX_OVERLAPPING_PATTERNS } from "../../src/schema/patternOverlaps.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { tierRuns } from "../support/tier.js";

const SEED = Number(process.env.FC_SEED ?? 20261128);
const referee = new Referee();
// patterns that overlap in many ways: a prefix, a letter anywhere, a length, everything
const PATTERNS = ["^h", "a", "^.{2}$", ".*", "^[hx]+$"];
const KEYS = ["h", "ha", "hh", "xa", "x", "a", "hat", "b"];

const valueSchema: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom<JsonValue>({ type: "string" }, { type: "integer" }, { type: "boolean" }, {}, { const: 1 }),
  fc.constantFrom<JsonValue>(
    { type: "integer", minimum: 2 },
    { enum: [1, "x", true] },
    { type: ["integer", "string"] },
  ),
  fc
    .record({
      properties: fc.dictionary(
        fc.constantFrom("u", "v"),
        fc.constantFrom<JsonValue>({ type: "string" }, { type: "boolean" }),
        { maxKeys: 2 },
      ),
      additionalProperties: fc.boolean(),
      required: fc.subarray(["u"]),
    })
    .map((o) => ({ type: "object", ...o }) as JsonValue),
);
const schemaArb: fc.Arbitrary<JsonValue> = fc
  .record({
    patternProperties: fc.dictionary(fc.constantFrom(...PATTERNS), valueSchema, {
      minKeys: 2,
      maxKeys: MAX_OVERLAPPING_PATTERNS,
    }),
    additionalProperties: fc.constantFrom<JsonValue>(false, true, { type: "integer" }),
  })
  .map((o) => ({ type: "object", ...o }) as JsonValue);
const memberValue = fc.constantFrom<JsonValue>(1, 3, "x", true, null, {}, { u: "s" }, { u: true }, { v: false, u: "" });
const candidate = fc.dictionary(fc.constantFrom(...KEYS), memberValue, { maxKeys: 2 });

describe(`keys matching several patternProperties (seed ${SEED})`, () => {
  it("random walks are valid and candidates are judged as ajv judges them", () => {
    let keysInOverlaps = 0;
    fc.assert(
      fc.property(schemaArb, fc.array(candidate, { minLength: 10, maxLength: 30 }), (s, candidates) => {
        const c = compileSchema(s as object, { propertyOrder: "any" });
        const random = seededRandom(SEED);
        for (let i = 0; i < 10; i++) {
          const t = sampleGrammar(c.grammar, random);
          if (t !== undefined) expect({ s, t, valid: referee.validText(s, t) }).toEqual({ s, t, valid: true });
        }
        const patterns = Object.keys((s as { patternProperties: object }).patternProperties);
        for (const v of candidates) {
          const t = canonicalJson(v);
          const valid = referee.validText(s, t);
          if (valid && Object.keys(v).some((k) => patterns.filter((p) => new RegExp(p, "u").test(k)).length > 1))
            keysInOverlaps++;
          expect({ s, t, accepted: c.accepts(t) }).toEqual({ s, t, accepted: valid });
        }
      }),
      { seed: SEED, numRuns: tierRuns(25, 200) },
    );
    // the property judged valid objects with keys in overlaps, which the grammar once left out
    console.log(`keys in overlaps: ${keysInOverlaps}`);
    expect(keysInOverlaps).toBeGreaterThan(tierRuns(3, 30));
  }, 120_000);

  it("a key matching a closed and an open pattern schema takes the values of both", () => {
    const s = {
      type: "object",
      patternProperties: {
        hipchat: { properties: { url: { type: "string" } }, additionalProperties: false },
        ".*": { properties: { enabled: { type: "boolean" } } },
      },
    };
    const c = compileSchema(s);
    expect(c.accepts('{"hipchat": {"url": "x"}}')).toBe(true);
    expect(c.accepts('{"my-hipchat": {}}')).toBe(true);
    expect(c.accepts('{"hipchat": {"enabled": true}}')).toBe(false); // closed: no `enabled`
    expect(c.accepts('{"other": {"enabled": 1}}')).toBe(false);
    expect(c.accepts('{"other": {"enabled": true, "x": 1}}')).toBe(true);
  });
});
