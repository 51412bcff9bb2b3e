import { describe, expect, it } from "vitest";
import { irAccepts, norm, thrown } from "../support/schema/schemaHarness.js";

describe("objects", () => {
  it("keeps declaration order and marks required", () => {
    const { root } = norm({
      type: "object",
      properties: { z: { type: "string" }, a: { type: "number" } },
      required: ["a"],
    });
    expect(root).toMatchObject({
      kind: "object",
      properties: [
        { key: "z", required: false },
        { key: "a", required: true },
      ],
    });
  });

  it("a required key not declared gets the additionalProperties schema", () => {
    const { root } = norm({
      type: "object",
      properties: { a: {} },
      required: ["b"],
      additionalProperties: { type: "integer" },
    });
    expect(root).toMatchObject({
      properties: [{ key: "a" }, { key: "b", required: true, schema: { kind: "number", integer: true } }],
    });
  });

  it("a required key matching a pattern gets the pattern's schema", () => {
    const { root } = norm({
      type: "object",
      patternProperties: { "^x": { type: "string" } },
      required: ["xa"],
      additionalProperties: false,
    });
    expect(root).toMatchObject({ properties: [{ key: "xa", required: true, schema: { kind: "string" } }] });
  });

  it("a required key that additionalProperties: false forbids makes the object unsatisfiable", () => {
    const e = thrown(() =>
      norm({ type: "object", properties: { a: {} }, required: ["b"], additionalProperties: false }),
    );
    expect(e.code).toBe("UNSATISFIABLE");
    expect(e.message).toContain('"b"');
  });

  it("declared properties also obey matching patternProperties", () => {
    const ir = norm({
      type: "object",
      properties: { ab: { type: "string" } },
      patternProperties: { "^a": { minLength: 2 } },
    });
    expect(irAccepts(ir, { ab: "x" })).toBe(false);
    expect(irAccepts(ir, { ab: "xy" })).toBe(true);
  });

  it("additionalProperties: 'forbid' closes objects that declare properties and say nothing else", () => {
    const opts = { additionalProperties: "forbid" as const };
    const closed = norm({ type: "object", properties: { a: {} } }, opts);
    expect(closed.root).toMatchObject({ additionalProperties: false });
    expect(norm({ type: "object", properties: { a: {} }, additionalProperties: true }, opts).root).toMatchObject({
      additionalProperties: { kind: "any" },
    });
    expect(norm({ type: "object", properties: { a: {} }, patternProperties: { x: {} } }, opts).root).toMatchObject({
      additionalProperties: { kind: "any" },
    });
    expect(norm({ type: "object" }, opts).root).toMatchObject({ additionalProperties: { kind: "any" } });
    expect(norm({ type: "object", properties: { a: {} } }).root).toMatchObject({
      additionalProperties: { kind: "any" },
    });
  });

  it("propertyNames, min/maxProperties, dependentRequired and draft-7 dependencies", () => {
    const ir = norm({
      type: "object",
      propertyNames: { maxLength: 2 },
      minProperties: 1,
      maxProperties: 2,
      dependentRequired: { a: ["b"] },
      dependencies: { c: ["a"] },
    });
    expect(ir.root).toMatchObject({
      minProperties: 1,
      maxProperties: 2,
      dependentRequired: { a: ["b"], c: ["a"] },
      propertyNames: { kind: "string", maxLength: 2 },
    });
    expect(irAccepts(ir, { abc: 1 })).toBe(false);
    expect(irAccepts(ir, { a: 1 })).toBe(false);
    expect(irAccepts(ir, { a: 1, b: 2 })).toBe(true);
    expect(irAccepts(ir, {})).toBe(false);
  });

  it("propertyNames: false allows only the empty object", () => {
    const ir = norm({ type: "object", propertyNames: false });
    expect(ir.root).toMatchObject({ maxProperties: 0, propertyNames: { kind: "never" } });
    expect(irAccepts(ir, {})).toBe(true);
    expect(irAccepts(ir, { a: 1 })).toBe(false);
  });

  it("a required key that propertyNames rejects makes the object unsatisfiable", () => {
    expect(thrown(() => norm({ type: "object", required: ["long"], propertyNames: { maxLength: 2 } })).code).toBe(
      "UNSATISFIABLE",
    );
  });

  it("dependentSchemas and schema-form dependencies apply when the key is present", () => {
    for (const s of [{ dependentSchemas: { a: { required: ["b"] } } }, { dependencies: { a: { required: ["b"] } } }]) {
      const ir = norm({ type: "object", ...s });
      expect(irAccepts(ir, {})).toBe(true);
      expect(irAccepts(ir, { a: 1 })).toBe(false);
      expect(irAccepts(ir, { a: 1, b: 1 })).toBe(true);
    }
  });

  it("unevaluatedProperties: like additionalProperties without applicators, refused with them", () => {
    expect(norm({ type: "object", properties: { a: {} }, unevaluatedProperties: false }).root).toMatchObject({
      additionalProperties: false,
    });
    const e = thrown(() => norm({ allOf: [{ properties: { a: {} } }], unevaluatedProperties: false }));
    expect(e.code).toBe("UNSUPPORTED_KEYWORD");
    expect(e.schemaPath).toBe("/unevaluatedProperties");
    // applicators that evaluate no property do not matter
    expect(
      norm({ type: "object", anyOf: [{ required: ["a"] }], properties: { a: {} }, unevaluatedProperties: false }).root,
    ).toMatchObject({ additionalProperties: false });
  });

  it("required must be an array of strings", () => {
    const e = thrown(() => norm({ required: "a" }));
    expect(e.code).toBe("INVALID_SCHEMA");
    expect(e.schemaPath).toBe("/required");
  });

  it("keys such as __proto__ and constructor are ordinary keys", () => {
    const ir = norm({
      type: "object",
      properties: { constructor: { type: "string" } },
      required: ["constructor"],
      dependentRequired: { toString: ["x"] },
    });
    expect(irAccepts(ir, { constructor: "x" })).toBe(true);
    expect(irAccepts(ir, {})).toBe(false);
  });
});
