import { describe, expect, it } from "vitest";
import type { ObjectNode } from "../../src/schema/SchemaNode.js";
import { ajv, lowerNode } from "../support/lower/lowerHarness.js";
import { any, int, obj, str } from "../support/lower/nodes.js";

/** Accepted => ajv-valid on every text; `accepted` lists texts that must be accepted. */
function check(node: ObjectNode, schema: object, texts: string[], accepted: string[]): void {
  const { acceptor } = lowerNode(node);
  const validate = ajv.compile(schema);
  for (const t of [...texts, ...accepted]) {
    const got = acceptor.accepts(t);
    if (got) expect({ t, valid: validate(JSON.parse(t)) }).toEqual({ t, valid: true });
  }
  for (const t of accepted) expect({ t, got: acceptor.accepts(t) }).toEqual({ t, got: true });
}

describe("undeclared keys", () => {
  it("patternProperties with disjoint patterns, additional keys match none", () => {
    check(
      obj({
        properties: [{ key: "a", schema: str(), required: false }],
        patternProperties: [
          { pattern: "^x_", schema: int() },
          { pattern: "^y_", schema: str() },
        ],
        additionalProperties: { kind: "null", path: "/additionalProperties" },
      }),
      {
        properties: { a: { type: "string" } },
        patternProperties: { "^x_": { type: "integer" }, "^y_": { type: "string" } },
        additionalProperties: { type: "null" },
      },
      ['{"x_1": "s"}', '{"y_1": 1}', '{"x_1": null}', '{"a": null}', '{"a": "s", "a": "t"}'],
      ['{"a": "s", "x_1": 1, "y_": "t", "z": null}', '{"x_": 2}', "{}"],
    );
  });
  it("a key matching patterns with different schemas is left out; with equal schemas it is kept", () => {
    const node = obj({
      patternProperties: [
        { pattern: "^x", schema: int() },
        { pattern: "1$", schema: str() },
        { pattern: "^w", schema: int() },
      ],
    });
    const schema = {
      patternProperties: { "^x": { type: "integer" }, "1$": { type: "string" }, "^w": { type: "integer" } },
      additionalProperties: false,
    };
    check(node, schema, ['{"x1": 1}', '{"x1": "s"}', '{"q": 1}'], ['{"x2": 1}', '{"q1": "s"}', '{"wx": 3}']);
    const { acceptor } = lowerNode(node);
    expect(acceptor.accepts('{"x1": 1}')).toBe(false);
  });
  it("propertyNames narrows undeclared keys and removes declared ones it rejects", () => {
    const names = {
      kind: "string" as const,
      path: "/propertyNames",
      minLength: 0,
      maxLength: 2,
      patterns: [],
      notPatterns: [],
      formats: [],
    };
    check(
      obj({
        properties: [
          { key: "long", schema: int(), required: false },
          { key: "ok", schema: int(), required: false },
        ],
        additionalProperties: any(),
        propertyNames: names,
      }),
      { properties: { long: { type: "integer" }, ok: { type: "integer" } }, propertyNames: { maxLength: 2 } },
      ['{"long": 1}', '{"abc": 1}', '{"ok": 1, "ok": 2}'],
      ['{"ok": 1, "ab": [1]}', '{"x": {}}', "{}"],
    );
  });
  it("a dependentRequired trigger that is not declared never appears as an undeclared key", () => {
    const node = obj({
      properties: [{ key: "a", schema: int(), required: false }],
      additionalProperties: int(),
      dependentRequired: { t: ["a"] },
    });
    const schema = {
      properties: { a: { type: "integer" } },
      additionalProperties: { type: "integer" },
      dependentRequired: { t: ["a"] },
    };
    check(node, schema, ['{"t": 1}', '{"a": 1, "t": 1}'], ['{"a": 1, "u": 2}', '{"tt": 2}']);
  });
});
