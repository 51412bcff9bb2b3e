import { describe, expect, it } from "vitest";
import { ANNOTATIONS, IMPLEMENTED } from "../../src/schema/keywords.js";
import { irAccepts, norm, thrown } from "../support/schema/schemaHarness.js";

describe("boolean schemas and type", () => {
  it("true and {} are any; false is unsatisfiable at the root", () => {
    expect(norm(true).root.kind).toBe("any");
    expect(norm({}).root.kind).toBe("any");
    expect(norm({ title: "t", description: "d", default: 1, "x-foo": 2 }).root.kind).toBe("any");
    const e = thrown(() => norm(false));
    expect(e.name).toBe("UnsatisfiableSchemaError");
    expect(e.code).toBe("UNSATISFIABLE");
  });

  it("a type array becomes a union of kind nodes in canonical order", () => {
    const { root } = norm({ type: ["null", "string"] });
    expect(root.kind).toBe("union");
    if (root.kind !== "union") return;
    expect(root.options.map((o) => o.kind)).toEqual(["string", "null"]);
  });

  it("integer is a number node with integer: true; number and integer together is number", () => {
    expect(norm({ type: "integer" }).root).toEqual({ kind: "number", path: "", integer: true });
    expect(norm({ type: ["integer", "number"] }).root).toEqual({ kind: "number", path: "", integer: false });
  });

  it("without type, a type-specific keyword constrains only its kind", () => {
    const ir = norm({ minLength: 2 });
    expect(ir.root.kind).toBe("union");
    expect(irAccepts(ir, "a")).toBe(false);
    expect(irAccepts(ir, "ab")).toBe(true);
    expect(irAccepts(ir, 1)).toBe(true);
    expect(irAccepts(ir, null)).toBe(true);
    expect(irAccepts(ir, { a: 1 })).toBe(true);
  });

  it("OpenAPI nullable adds null, with a warning", () => {
    const w: { code: string }[] = [];
    const ir = norm({ type: "string", nullable: true }, {}, w as never);
    expect(irAccepts(ir, null)).toBe(true);
    expect(irAccepts(ir, 1)).toBe(false);
    expect(w.map((x) => x.code)).toContain("NULLABLE");
  });

  it("a bad type is INVALID_SCHEMA with the keyword's path", () => {
    const e = thrown(() => norm({ properties: { a: { type: "str" } } }));
    expect(e.code).toBe("INVALID_SCHEMA");
    expect(e.schemaPath).toBe("/properties/a/type");
    expect(thrown(() => norm({ type: 3 })).code).toBe("INVALID_SCHEMA");
    expect(thrown(() => norm(42)).code).toBe("INVALID_SCHEMA");
  });

  it("paths are JSON Pointers under basePath", async () => {
    const { normalizeSchema } = await import("../../src/schema/normalizeSchema.js");
    const { resolveSchemaOptions } = await import("../../src/options.js");
    const ir = normalizeSchema(
      { type: "object", properties: { "a/b": { type: "string" } } },
      resolveSchemaOptions({}, { additionalProperties: "spec" }),
      [],
      "/tools/0/parameters",
    );
    expect(ir.root.path).toBe("/tools/0/parameters");
    if (ir.root.kind !== "object") throw new Error("object expected");
    expect(ir.root.properties[0].schema.path).toBe("/tools/0/parameters/properties/a~1b");
  });
});

describe("keyword tables", () => {
  it("implemented and annotation keywords are disjoint", () => {
    for (const k of IMPLEMENTED) expect(ANNOTATIONS.has(k)).toBe(false);
  });

  it('unknownKeywords: "error" refuses every unknown keyword, sorted, with their paths', () => {
    const e = thrown(() =>
      norm({ type: "object", properties: { a: { type: "string", zeta: 1, alpha: 2 } } }, { unknownKeywords: "error" }),
    );
    expect(e.name).toBe("UnsupportedSchemaError");
    expect(e.code).toBe("UNKNOWN_KEYWORD");
    expect(e.schemaPath).toBe("/properties/a");
    expect(e.message).toContain("alpha, zeta");
    expect(e.message).toContain("/properties/a/alpha");
  });

  it("non-strict: a typo of a validation keyword is ignored with an UNKNOWN_KEYWORD warning", () => {
    const w: { code: string; schemaPath: string; message: string }[] = [];
    const ir = norm({ type: "string", maxLenght: 3 }, { strict: false }, w as never);
    expect(ir.root.kind).toBe("string");
    expect(w).toEqual([expect.objectContaining({ code: "UNKNOWN_KEYWORD", schemaPath: "" })]);
    expect(w[0].message).toContain('did you mean "maxLength"');
  });
});

describe("enum and const", () => {
  it("deduplicates and filters by sibling keywords", () => {
    const { root } = norm({ type: "string", enum: ["a", "bb", "a", 1, "ccc"], minLength: 2 });
    expect(root).toEqual({ kind: "enum", path: "", values: ["bb", "ccc"] });
  });

  it("const with enum keeps the common value; object equality ignores key order", () => {
    expect(norm({ const: { a: 1, b: 2 }, enum: [{ b: 2, a: 1 }, 3] }).root).toMatchObject({
      kind: "enum",
      values: [{ b: 2, a: 1 }],
    });
  });

  it("an empty enum, or one emptied by its siblings, is unsatisfiable", () => {
    expect(thrown(() => norm({ enum: [] })).code).toBe("UNSATISFIABLE");
    expect(thrown(() => norm({ type: "integer", enum: [1.5, "x"] })).code).toBe("UNSATISFIABLE");
  });

  it("as an optional property, an empty enum is a never node (the key must be absent)", () => {
    const { root } = norm({ type: "object", properties: { a: { enum: [] } } });
    expect(root).toMatchObject({
      kind: "object",
      properties: [{ key: "a", schema: { kind: "never" }, required: false }],
    });
  });

  it("refuses enums above limits.maxEnumSize", () => {
    const e = thrown(() => norm({ enum: [1, 2, 3] }, { limits: { maxEnumSize: 2 } }));
    expect(e.code).toBe("LIMIT_ENUM_SIZE");
    expect(e.schemaPath).toBe("/enum");
  });

  it("enum must be an array", () => {
    expect(thrown(() => norm({ enum: "a" })).code).toBe("INVALID_SCHEMA");
  });
});
