/**
 * Overlapping `oneOf` branches whose complement the IR cannot express alone, complemented within a closed branch
 * (src/schema/relativeComplement.ts), in the shapes real schemas have: each compiles, and values are accepted exactly
 * when ajv says they are valid. The seeded property test is test/schema/relativeComplement.long.test.ts.
 */
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { Referee } from "../../src/conformance/referee.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";

const referee = new Referee();
const KEYS = ["k1", "k2", "k3", "k4", "k5", "k6", "k7"];

function agrees(schema: object, values: JsonValue[]): void {
  const c = compileSchema(schema, { propertyOrder: "any" });
  for (const v of values) {
    const t = canonicalJson(v);
    expect({ t, accepted: c.accepts(t) }).toEqual({ t, accepted: referee.validText(schema, t) });
  }
}

describe("oneOf branches complemented within a closed branch", () => {
  it("closed branches over 7 keys whose discriminator is optional (both match {})", () => {
    const branch = (kind: string) => ({
      type: "object",
      properties: { kind: { enum: [kind] }, ...Object.fromEntries(KEYS.map((k) => [k, { type: "string" }])) },
      additionalProperties: false,
    });
    agrees({ oneOf: [branch("a"), branch("b")] }, [
      {},
      { kind: "a" },
      { kind: "b", k1: "x" },
      { k7: "x" },
      { kind: "c" },
    ]);
  });

  it("an open branch with patternProperties and an additionalProperties schema beside a closed one", () => {
    const schema = {
      oneOf: [
        { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, additionalProperties: false },
        {
          type: "object",
          properties: { a: { type: "string", maxLength: 1 } },
          patternProperties: { "^b": { type: "integer", minimum: 1 } },
          additionalProperties: { type: "boolean" },
        },
      ],
    };
    const values: JsonValue[] = [
      {},
      { a: "x" },
      { a: "xy" },
      { b: 0 },
      { b: 2 },
      { a: "x", b: 2 },
      { c: true },
      { b: 1.5 },
    ];
    agrees(schema, values);
  });

  it("the same item schema with a format ajv checks in code: only the lengths differ", () => {
    const items = { type: "string", format: "uri" };
    const schema = {
      oneOf: [
        { type: "object", properties: { u: { type: "array", items, maxItems: 1 } }, additionalProperties: false },
        { type: "object", properties: { u: { type: "array", items, minItems: 1 }, v: { type: "integer" } } },
      ],
    };
    const values: JsonValue[] = [
      {},
      { u: [] },
      { u: ["http://a"] },
      { u: ["http://a", "http://b"] },
      { u: ["x"] },
      { v: 1 },
    ];
    agrees(schema, values);
  });

  it("values that differ only under a key named `path` stay different (a node's source path is not compared)", () => {
    const schema = {
      oneOf: [
        { type: "object", properties: { a: { const: { path: 1 } } }, additionalProperties: false },
        { type: "object", properties: { a: { const: { path: 2 } } }, additionalProperties: { type: "integer" } },
      ],
    };
    agrees(schema, [{}, { a: { path: 1 } }, { a: { path: 2 } }, { b: 1 }, { a: { path: 1 }, b: 1 }]);
  });
});
