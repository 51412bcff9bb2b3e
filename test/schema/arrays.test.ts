import { describe, expect, it } from "vitest";
import { irAccepts, norm, thrown } from "../support/schema/schemaHarness.js";

describe("arrays", () => {
  it("prefixItems then items (2020-12)", () => {
    const { root } = norm({
      type: "array",
      prefixItems: [{ type: "string" }],
      items: { type: "integer" },
      minItems: 1,
      maxItems: 3,
    });
    expect(root).toMatchObject({
      kind: "array",
      prefixItems: [{ kind: "string", path: "/prefixItems/0" }],
      items: { kind: "number", integer: true, path: "/items" },
      minItems: 1,
      maxItems: 3,
    });
  });

  it("draft-7 array-form items and additionalItems", () => {
    const ir = norm({ type: "array", items: [{ type: "string" }, { type: "null" }], additionalItems: false });
    expect(ir.root).toMatchObject({ prefixItems: [{ kind: "string" }, { kind: "null" }], items: null, maxItems: 2 });
    expect(irAccepts(ir, ["a", null])).toBe(true);
    expect(irAccepts(ir, ["a", null, 1])).toBe(false);
  });

  it("items: false closes the array after the prefix", () => {
    expect(norm({ type: "array", prefixItems: [{}], items: false }).root).toMatchObject({ items: null, maxItems: 1 });
  });

  it("contains with minContains/maxContains", () => {
    const ir = norm({ type: "array", contains: { type: "string" }, minContains: 2, maxContains: 3 });
    expect(ir.root).toMatchObject({ contains: { schema: { kind: "string" }, min: 2, max: 3 } });
    expect(irAccepts(ir, ["a", 1])).toBe(false);
    expect(irAccepts(ir, ["a", 1, "b"])).toBe(true);
  });

  it("minItems above maxItems is unsatisfiable", () => {
    expect(thrown(() => norm({ type: "array", minItems: 3, maxItems: 2 })).code).toBe("UNSATISFIABLE");
    expect(thrown(() => norm({ type: "array", prefixItems: [{}], items: false, minItems: 2 })).code).toBe(
      "UNSATISFIABLE",
    );
  });

  it("uniqueItems: true is kept for lowering unless at most one item is allowed; false is ignored", () => {
    expect(norm({ type: "array", uniqueItems: true }).root).toMatchObject({ kind: "array", uniqueItems: true });
    expect(norm({ type: "array", uniqueItems: true, maxItems: 1 }).root).not.toHaveProperty("uniqueItems");
    expect(norm({ type: "array", uniqueItems: false }).root).not.toHaveProperty("uniqueItems");
    // allOf merging keeps it
    expect(
      norm({
        allOf: [
          { type: "array", uniqueItems: true },
          { type: "array", maxItems: 3 },
        ],
      }).root,
    ).toMatchObject({
      uniqueItems: true,
      maxItems: 3,
    });
    // its complement (arrays with a repeat) is not representable
    expect(thrown(() => norm({ not: { type: "array", uniqueItems: true } })).code).toBe("UNSUPPORTED_KEYWORD");
  });

  it("unevaluatedItems acts as items when nothing else evaluates items, and is refused beside applicators", () => {
    expect(norm({ type: "array", prefixItems: [{}], unevaluatedItems: false }).root).toMatchObject({
      items: null,
      maxItems: 1,
    });
    expect(norm({ type: "array", items: {}, unevaluatedItems: false }).root).toMatchObject({ items: { kind: "any" } });
    expect(thrown(() => norm({ allOf: [{ prefixItems: [{}] }], unevaluatedItems: false })).code).toBe(
      "UNSUPPORTED_KEYWORD",
    );
  });
});
