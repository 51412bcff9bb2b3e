import { describe, expect, it } from "vitest";
import { irAccepts, norm, thrown } from "../support/schema/schemaHarness.js";

describe("allOf", () => {
  it("merges scalars: types intersect, bounds tighten, patterns/formats/multipleOf collect", () => {
    expect(
      norm({
        allOf: [
          { type: ["string", "number"] },
          { type: ["number", "null"] },
          { minimum: 1 },
          { minimum: 3, maximum: 9 },
          { multipleOf: 2 },
          { multipleOf: 3 },
        ],
      }).root,
    ).toEqual({
      kind: "number",
      path: "",
      integer: false,
      minimum: { value: 3, exclusive: false },
      maximum: { value: 9, exclusive: false },
      multipleOf: [2, 3],
    });
    expect(
      norm({ type: "string", allOf: [{ pattern: "^a" }, { pattern: "b$", maxLength: 4 }, { format: "email" }] }).root,
    ).toMatchObject({ kind: "string", patterns: ["^a", "b$"], maxLength: 4, formats: ["email"] });
  });

  it("intersects enums", () => {
    expect(norm({ allOf: [{ enum: [1, 2, 3] }, { enum: [2, 3, 4] }, { not: { const: 3 } }] }).root).toEqual({
      kind: "enum",
      path: "",
      values: [2],
    });
  });

  it("merges object properties, required and additionalProperties", () => {
    const ir = norm({
      allOf: [
        { type: "object", properties: { a: { type: "string" }, b: {} }, required: ["a"], additionalProperties: false },
        { properties: { a: { maxLength: 3 }, c: { type: "number" } }, required: ["b"] },
      ],
    });
    expect(ir.root).toMatchObject({
      kind: "object",
      additionalProperties: false,
      properties: [
        { key: "a", required: true, schema: { kind: "string", maxLength: 3 } },
        { key: "b", required: true },
        // c is declared by one branch but forbidden by the other's additionalProperties: false
        { key: "c", required: false, schema: { kind: "never" } },
      ],
    });
    expect(irAccepts(ir, { a: "x", b: 1 })).toBe(true);
    expect(irAccepts(ir, { a: "x", b: 1, c: 2 })).toBe(false);
  });

  it("a key required by one branch and forbidden by another makes the schema unsatisfiable", () => {
    expect(
      thrown(() =>
        norm({ allOf: [{ type: "object", properties: { a: {} }, additionalProperties: false }, { required: ["z"] }] }),
      ).code,
    ).toBe("UNSATISFIABLE");
  });

  it("distributes over unions", () => {
    const ir = norm({
      allOf: [
        { anyOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }] },
        { anyOf: [{ type: "number" }, { type: "boolean" }] },
      ],
    });
    expect(ir.root).toMatchObject({ kind: "union", options: [{ kind: "number", integer: true }, { kind: "boolean" }] });
  });

  it("merges arrays item by item", () => {
    const ir = norm({
      allOf: [
        { type: "array", prefixItems: [{ type: "string" }], items: { type: "number" } },
        { type: "array", items: { minimum: 0 }, maxItems: 3 },
      ],
    });
    expect(ir.root).toMatchObject({
      kind: "array",
      prefixItems: [{ kind: "string" }],
      items: { kind: "number", minimum: { value: 0 } },
      maxItems: 3,
    });
  });

  it("conflicting types are unsatisfiable at the root", () => {
    const e = thrown(() => norm({ allOf: [{ type: "string" }, { type: "number" }] }));
    expect(e.name).toBe("UnsatisfiableSchemaError");
  });

  it("combining patternProperties with another branch's additionalProperties is refused in strict mode", () => {
    const s = {
      allOf: [{ patternProperties: { "^x": { type: "string" } } }, { additionalProperties: { type: "number" } }],
    };
    expect(thrown(() => norm(s)).code).toBe("UNSUPPORTED_KEYWORD");
    const w: { code: string }[] = [];
    const ir = norm(s, { strict: false }, w as never);
    expect(irAccepts(ir, { y: 1 })).toBe(true);
    expect(w[0].code).toBe("OVER_APPROXIMATED");
  });
});

describe("anyOf and oneOf", () => {
  it("anyOf is a union; never branches are pruned", () => {
    expect(norm({ anyOf: [{ type: "string" }, { type: "null" }, false] }).root).toMatchObject({
      kind: "union",
      options: [{ kind: "string" }, { kind: "null" }],
    });
  });

  it("oneOf with disjoint kinds, enums, ranges or discriminators is a union", () => {
    for (const s of [
      { oneOf: [{ type: "string" }, { type: "integer" }] },
      { oneOf: [{ enum: ["a", "b"] }, { enum: ["c"] }] },
      {
        oneOf: [
          { type: "number", maximum: 0 },
          { type: "number", exclusiveMinimum: 0 },
        ],
      },
      {
        oneOf: [
          { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } }, required: ["kind"] },
          { type: "object", properties: { kind: { const: "square" }, side: { type: "number" } }, required: ["kind"] },
        ],
      },
    ]) {
      const { root } = norm(s);
      expect(root.kind, JSON.stringify(s)).toBe(root.kind === "enum" ? "enum" : "union");
    }
  });

  it("overlapping oneOf branches are made exclusive when complements exist", () => {
    const ir = norm({ type: "object", oneOf: [{ required: ["a"] }, { required: ["b"] }] });
    expect(irAccepts(ir, { a: 1 })).toBe(true);
    expect(irAccepts(ir, { b: 1 })).toBe(true);
    expect(irAccepts(ir, { a: 1, b: 1 })).toBe(false);
    expect(irAccepts(ir, {})).toBe(false);
  });

  it("overlapping oneOf branches without complements: strict names the branches, non-strict unions with a warning", () => {
    const s = { oneOf: [{ type: "number" }, { multipleOf: 2 }, { type: "string" }] };
    const e = thrown(() => norm(s));
    expect(e.code).toBe("UNSUPPORTED_KEYWORD");
    expect(e.schemaPath).toBe("/oneOf");
    expect(e.message).toContain("0 and 1");
    const w: { code: string }[] = [];
    const ir = norm(s, { strict: false }, w as never);
    expect(irAccepts(ir, 1.5)).toBe(true);
    expect(w.map((x) => x.code)).toEqual(["OVER_APPROXIMATED"]);
  });
});

describe("not", () => {
  it("of types: the other kinds", () => {
    expect(norm({ not: { type: ["string", "object", "array", "number"] } }).root).toMatchObject({
      kind: "union",
      options: [{ kind: "boolean" }, { kind: "null" }],
    });
  });

  it("of const/enum on strings: notValues", () => {
    expect(norm({ type: "string", not: { enum: ["a", "b"] } }).root).toMatchObject({
      kind: "string",
      notValues: ["a", "b"],
    });
  });

  it("of a number: the open intervals around it", () => {
    const ir = norm({ type: "number", not: { const: 3 } });
    expect(irAccepts(ir, 3)).toBe(false);
    expect(irAccepts(ir, 2.9)).toBe(true);
    expect(irAccepts(ir, 3.1)).toBe(true);
  });

  it("of a pattern: notPatterns", () => {
    expect(norm({ type: "string", not: { pattern: "^x" } }).root).toMatchObject({
      kind: "string",
      notPatterns: ["^x"],
    });
  });

  it("of required: objects lacking a key", () => {
    const ir = norm({ type: "object", not: { required: ["a", "b"] } });
    expect(irAccepts(ir, { a: 1 })).toBe(true);
    expect(irAccepts(ir, { a: 1, b: 2 })).toBe(false);
  });

  it("of integer: the numbers with a fraction part", () => {
    const ir = norm({ not: { type: "integer" } });
    for (const [v, want] of [
      [1.5, true],
      [-0.25, true],
      [2, false],
      [-0, false],
      ["x", true],
    ] as const)
      expect({ v, ok: irAccepts(ir, v) }).toEqual({ v, ok: want });
    expect(norm({ type: "integer", not: { not: { type: "integer" } } }).root).toMatchObject({
      kind: "number",
      integer: true,
    });
  });

  it("of what cannot be complemented is refused (strict) or dropped (non-strict)", () => {
    const s = {
      type: "array",
      not: { uniqueItems: false, items: { type: "string" }, prefixItems: [{ type: "number" }] },
    };
    const e = thrown(() => norm(s));
    expect(e.code).toBe("UNSUPPORTED_KEYWORD");
    expect(e.schemaPath).toBe("/not");
    expect(norm(s, { strict: false }).root.kind).toBe("array");
    expect(thrown(() => norm({ not: { multipleOf: 2 } })).code).toBe("UNSUPPORTED_KEYWORD");
  });

  it("never complements a relaxed (over-approximated) node", () => {
    const w: { code: string }[] = [];
    // the inner uniqueItems is relaxed to "any array", whose complement would wrongly reject every array
    const ir = norm({ not: { type: "array", uniqueItems: true } }, { strict: false }, w as never);
    expect(irAccepts(ir, [1, 1])).toBe(true);
  });
});

describe("if/then/else", () => {
  it("a type condition", () => {
    const ir = norm({ if: { type: "string" }, then: { minLength: 2 }, else: { type: "number" } });
    expect(irAccepts(ir, "a")).toBe(false);
    expect(irAccepts(ir, "ab")).toBe(true);
    expect(irAccepts(ir, 1)).toBe(true);
    expect(irAccepts(ir, null)).toBe(false);
  });

  it("a const discriminator on a required property", () => {
    const ir = norm({
      type: "object",
      properties: { kind: { enum: ["a", "b"] } },
      required: ["kind"],
      if: { properties: { kind: { const: "a" } } },
      then: { required: ["x"] },
      else: { required: ["y"] },
    });
    expect(irAccepts(ir, { kind: "a", x: 1 })).toBe(true);
    expect(irAccepts(ir, { kind: "a", y: 1 })).toBe(false);
    expect(irAccepts(ir, { kind: "b", y: 1 })).toBe(true);
    expect(irAccepts(ir, { kind: "b", x: 1 })).toBe(false);
  });

  it("then/else without if are ignored", () => {
    expect(norm({ type: "string", then: false }).root.kind).toBe("string");
  });

  it("an undecidable condition is refused", () => {
    expect(thrown(() => norm({ if: { multipleOf: 2 }, then: { minimum: 0 } })).code).toBe("UNSUPPORTED_KEYWORD");
  });
});
