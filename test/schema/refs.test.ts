import { describe, expect, it } from "vitest";
import { irAccepts, norm, thrown } from "../support/schema/schemaHarness.js";

describe("$ref", () => {
  it("inlines non-recursive local refs ($defs, definitions, deep pointers, escapes)", () => {
    const ir = norm({
      $defs: { "a/b": { type: "string" }, "t~x": { type: "integer" }, "sp ace": { type: "null" } },
      definitions: { d: { type: "boolean" } },
      type: "object",
      properties: {
        p: { $ref: "#/$defs/a~1b" },
        q: { $ref: "#/$defs/t~0x" },
        r: { $ref: "#/definitions/d" },
        s: { $ref: "#/$defs/sp%20ace" },
        arr: { type: "array", items: { type: "number", minimum: 3 } },
        t: { $ref: "#/properties/arr/items" },
      },
    });
    expect(ir.defs.size).toBe(0);
    expect(ir.root).toMatchObject({
      properties: [
        { key: "p", schema: { kind: "string", path: "/properties/p" } },
        { key: "q", schema: { kind: "number", integer: true } },
        { key: "r", schema: { kind: "boolean" } },
        { key: "s", schema: { kind: "null" } },
        { key: "arr" },
        { key: "t", schema: { kind: "number", minimum: { value: 3 } } },
      ],
    });
  });

  it("resolves $anchor and $id-relative refs", () => {
    const ir = norm({
      $id: "https://example.com/root.json",
      $defs: { a: { $anchor: "thing", type: "string" }, b: { $id: "other.json", type: "integer" } },
      type: "array",
      prefixItems: [{ $ref: "#thing" }, { $ref: "other.json" }, { $ref: "https://example.com/root.json#/$defs/a" }],
    });
    expect(ir.root).toMatchObject({
      prefixItems: [{ kind: "string" }, { kind: "number", integer: true }, { kind: "string" }],
    });
  });

  it("recursive refs become ref nodes with a definition", () => {
    const ir = norm({
      $defs: {
        node: {
          type: "object",
          properties: { v: { type: "integer" }, next: { $ref: "#/$defs/node" } },
          required: ["v"],
        },
      },
      $ref: "#/$defs/node",
    });
    expect(ir.root).toEqual({ kind: "ref", path: "", target: "/$defs/node" });
    expect(ir.defs.get("/$defs/node")).toMatchObject({
      kind: "object",
      properties: [{ key: "v" }, { key: "next", schema: { kind: "ref", target: "/$defs/node" } }],
    });
    expect(irAccepts(ir, { v: 1, next: { v: 2 } })).toBe(true);
    expect(irAccepts(ir, { v: 1, next: { v: "x" } })).toBe(false);
  });

  it("recursion through the root", () => {
    const ir = norm({ type: "array", items: { $ref: "#" } });
    expect(ir.root).toMatchObject({ kind: "ref", target: "" });
    expect(irAccepts(ir, [[], [[]]])).toBe(true);
    expect(irAccepts(ir, [1])).toBe(false);
  });

  it("$ref siblings apply (2020-12)", () => {
    const ir = norm({ $defs: { s: { type: "string" } }, $ref: "#/$defs/s", maxLength: 2 });
    expect(ir.root).toMatchObject({ kind: "string", maxLength: 2 });
  });

  it("cycles without a base case are never", () => {
    expect(thrown(() => norm({ $ref: "#" })).code).toBe("UNSATISFIABLE");
    expect(
      thrown(() => norm({ $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" })).code,
    ).toBe("UNSATISFIABLE");
    // a required self-reference has no finite value either
    expect(thrown(() => norm({ type: "object", properties: { x: { $ref: "#" } }, required: ["x"] })).code).toBe(
      "UNSATISFIABLE",
    );
    // an optional one does: the never branch is pruned
    const ir = norm({
      anyOf: [{ $ref: "#/$defs/loop" }, { type: "string" }],
      $defs: { loop: { $ref: "#/$defs/loop" } },
    });
    expect(ir.root.kind).toBe("string");
  });

  it("left recursion through unions is removed (d = X | d | Y is X | Y)", () => {
    const ir = norm({
      $defs: {
        d: { anyOf: [{ type: "string" }, { $ref: "#/$defs/d" }, { type: "array", items: { $ref: "#/$defs/d" } }] },
      },
      $ref: "#/$defs/d",
    });
    const d = ir.defs.get("/$defs/d");
    expect(d).toMatchObject({
      kind: "union",
      options: [{ kind: "string" }, { kind: "array", items: { kind: "ref", target: "/$defs/d" } }],
    });
    expect(irAccepts(ir, ["a", ["b"]])).toBe(true);
    expect(irAccepts(ir, 1)).toBe(false);
  });

  it("additionalProperties 'forbid' reaches objects behind $ref", () => {
    const ir = norm(
      {
        $defs: { o: { type: "object", properties: { a: {} } } },
        type: "object",
        properties: { x: { $ref: "#/$defs/o" } },
      },
      { additionalProperties: "forbid" },
    );
    expect(ir.root).toMatchObject({
      additionalProperties: false,
      properties: [{ key: "x", schema: { additionalProperties: false } }],
    });
  });

  it("unresolvable refs are INVALID_REF naming the ref", () => {
    const e = thrown(() => norm({ properties: { a: { $ref: "#/$defs/missing" } } }));
    expect(e.code).toBe("INVALID_REF");
    expect(e.schemaPath).toBe("/properties/a/$ref");
    expect(e.message).toContain("#/$defs/missing");
    expect(thrown(() => norm({ $ref: "https://elsewhere.example/s.json" })).code).toBe("INVALID_REF");
  });

  it("limits: $ref chains and nesting depth", () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++) defs[`d${i}`] = i === 19 ? { type: "string" } : { $ref: `#/$defs/d${i + 1}` };
    expect(thrown(() => norm({ $defs: defs, $ref: "#/$defs/d0" }, { limits: { maxRefDepth: 10 } })).code).toBe(
      "LIMIT_REF_DEPTH",
    );
    expect(norm({ $defs: defs, $ref: "#/$defs/d0" }).root.kind).toBe("string");
  });

  it("a 10,000-level nested schema is refused quickly with LIMIT_NESTING", () => {
    let s: unknown = { type: "string" };
    for (let i = 0; i < 10_000; i++) s = { type: "array", items: s };
    const e = thrown(() => norm(s));
    expect(e.code).toBe("LIMIT_NESTING");
    let t: unknown = true;
    for (let i = 0; i < 10_000; i++) t = { allOf: [t] };
    expect(thrown(() => norm(t)).code).toBe("LIMIT_NESTING");
  });
});
