import { describe, expect, it } from "vitest";
import { irAccepts, norm, thrown } from "../support/schema/schemaHarness.js";

describe("strings", () => {
  it("collects lengths, patterns and formats", () => {
    expect(norm({ type: "string", minLength: 1, maxLength: 5, pattern: "^a", format: "email" }).root).toEqual({
      kind: "string",
      path: "",
      minLength: 1,
      maxLength: 5,
      patterns: ["^a"],
      notPatterns: [],
      formats: ["email"],
    });
  });

  it("lengths count code points, as ajv does", () => {
    const ir = norm({ type: "string", maxLength: 1 });
    expect(irAccepts(ir, "😀")).toBe(true);
    expect(irAccepts(ir, "ab")).toBe(false);
  });

  it("an invalid pattern (under the u flag) is INVALID_PATTERN", () => {
    const e = thrown(() => norm({ type: "string", pattern: "\\d{" }));
    expect(e.code).toBe("INVALID_PATTERN");
    expect(e.schemaPath).toBe("/pattern");
    expect(thrown(() => norm({ patternProperties: { "(": {} } })).code).toBe("INVALID_PATTERN");
  });

  it('unknown formats under unknownKeywords: "error": strict refuses, non-strict ignores with a warning', () => {
    expect(thrown(() => norm({ type: "string", format: "phone" }, { unknownKeywords: "error" })).code).toBe(
      "UNSUPPORTED_FORMAT",
    );
    const w: { code: string }[] = [];
    expect(
      norm({ type: "string", format: "phone" }, { strict: false, unknownKeywords: "error" }, w as never).root.kind,
    ).toBe("string");
    expect(w[0].code).toBe("OVER_APPROXIMATED");
  });

  it("minLength above maxLength is unsatisfiable; negative minLength is invalid", () => {
    expect(thrown(() => norm({ type: "string", minLength: 3, maxLength: 2 })).code).toBe("UNSATISFIABLE");
    expect(thrown(() => norm({ minLength: -1 })).code).toBe("INVALID_SCHEMA");
    expect(thrown(() => norm({ maxLength: 1.5 })).code).toBe("INVALID_SCHEMA");
  });

  it("a string format does not constrain numbers, and password constrains nothing", () => {
    const ir = norm({ format: "email" });
    expect(irAccepts(ir, 3)).toBe(true);
    expect(irAccepts(ir, "nope")).toBe(false);
    expect(norm({ type: "string", format: "password" }).root).toMatchObject({ formats: [] });
  });
});

describe("numbers", () => {
  it("bounds, exclusive bounds and multipleOf", () => {
    expect(norm({ type: "number", minimum: 1, exclusiveMaximum: 5, multipleOf: 0.5 }).root).toEqual({
      kind: "number",
      path: "",
      integer: false,
      minimum: { value: 1, exclusive: false },
      maximum: { value: 5, exclusive: true },
      multipleOf: [0.5],
    });
  });

  it("the tighter of minimum and exclusiveMinimum wins", () => {
    expect(norm({ type: "number", minimum: 3, exclusiveMinimum: 3 }).root).toMatchObject({
      minimum: { value: 3, exclusive: true },
    });
    expect(norm({ type: "number", minimum: 4, exclusiveMinimum: 3 }).root).toMatchObject({
      minimum: { value: 4, exclusive: false },
    });
  });

  it("draft-4 boolean exclusiveMinimum/Maximum become exclusive bounds with a warning", () => {
    const w: { code: string }[] = [];
    const ir = norm(
      { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
      {},
      w as never,
    );
    expect(ir.root).toMatchObject({ minimum: { value: 0, exclusive: true }, maximum: { value: 9, exclusive: false } });
    expect(w.map((x) => x.code)).toContain("DRAFT4_KEYWORD");
  });

  it("empty ranges are unsatisfiable, including integer ranges with no integer", () => {
    expect(thrown(() => norm({ type: "number", minimum: 2, maximum: 1 })).code).toBe("UNSATISFIABLE");
    expect(thrown(() => norm({ type: "number", minimum: 1, exclusiveMaximum: 1 })).code).toBe("UNSATISFIABLE");
    expect(thrown(() => norm({ type: "integer", minimum: 1.2, maximum: 1.8 })).code).toBe("UNSATISFIABLE");
  });

  it("int32 format makes an integer range; multipleOf must be positive", () => {
    expect(norm({ type: "number", format: "int32" }).root).toMatchObject({
      integer: true,
      maximum: { value: 2147483647 },
    });
    expect(thrown(() => norm({ multipleOf: 0 })).code).toBe("INVALID_SCHEMA");
  });
});
