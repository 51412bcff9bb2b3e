import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { normalizeSchema } from "../../src/schema/normalizeSchema.js";
import { resolveSchemaOptions } from "../../src/options.js";
import { closeObjects } from "../../src/tools/closeObjects.js";
import { cloneJson } from "../../src/tools/cloneJson.js";

const IGNORE = { unknownKeywords: "ignore" as const };

describe("a property named __proto__", () => {
  const schema = JSON.parse('{"properties":{"__proto__":{"type":"number"}}}') as unknown;

  it("is kept by cloneJson and closeObjects as an own property", () => {
    const copy = cloneJson(schema, "", 64) as { properties: Record<string, unknown> };
    expect(Object.keys(copy.properties)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(copy.properties)).toBe(Object.prototype);
    const closed = closeObjects(JSON.parse('{"properties":{},"__proto__":{"type":"string"}}')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(closed)).toEqual(["properties", "__proto__", "additionalProperties"]);
    expect(Object.getPrototypeOf(closed)).toBe(Object.prototype);
  });

  it("constrains its value", () => {
    const g = compileSchema(schema, IGNORE);
    expect(g.accepts('{"__proto__": "foo"}')).toBe(false);
    expect(g.accepts('{"__proto__": 12}')).toBe(true);
    expect(g.accepts('{"toString": "foo"}')).toBe(true);
  });

  it("is a dependentRequired trigger like any other key", () => {
    const g = compileSchema(
      JSON.parse('{"properties":{"__proto__":{},"a":{}},"dependentRequired":{"__proto__":["a"]}}'),
    );
    expect(g.accepts('{"__proto__": 1}')).toBe(false);
    expect(g.accepts('{"__proto__": 1, "a": 2}')).toBe(true);
    const ir = normalizeSchema(
      JSON.parse('{"dependencies":{"__proto__":["a"]}}'),
      resolveSchemaOptions({}, { additionalProperties: "spec" }),
      [],
    );
    expect(ir.root.kind === "union" ? JSON.stringify(ir.root.options[0]) : JSON.stringify(ir.root)).toContain(
      '"dependentRequired":{"__proto__":["a"]}',
    );
  });
});

describe("draft 7: a $id beside $ref", () => {
  // JSON-Schema-Test-Suite draft7 ref.json "$ref prevents a sibling $id from changing the base uri"
  const schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "http://localhost:1234/sibling_id/base/",
    definitions: {
      foo: { $id: "http://localhost:1234/sibling_id/foo.json", type: "string" },
      base_foo: { $id: "foo.json", type: "number" },
    },
    allOf: [{ $id: "http://localhost:1234/sibling_id/", $ref: "foo.json" }],
  };

  it("does not change the base the $ref resolves against", () => {
    const g = compileSchema(schema, IGNORE);
    expect(g.accepts('"a"')).toBe(false);
    expect(g.accepts("1")).toBe(true);
  });

  it("still sets the base in draft 2020-12", () => {
    const g = compileSchema({ ...schema, $schema: "https://json-schema.org/draft/2020-12/schema" }, IGNORE);
    expect(g.accepts('"a"')).toBe(true);
    expect(g.accepts("1")).toBe(false);
  });
});

describe("a $id inside an unknown keyword", () => {
  // JSON-Schema-Test-Suite optional/unknownKeyword.json
  const id = "https://localhost:1234/unknownKeyword/my_identifier.json";
  const schema = {
    definitions: {
      id_in_unknown0: { not: { array_of_schemas: [{ $id: id, type: "null" }] } },
      real_id_in_schema: { $id: id, type: "string" },
      id_in_unknown1: { not: { object_of_schemas: { foo: { $id: id, type: "integer" } } } },
    },
    anyOf: [{ $ref: "#/definitions/id_in_unknown0" }, { $ref: "#/definitions/id_in_unknown1" }, { $ref: id }],
  };

  it("is not an identifier", () => {
    const g = compileSchema(schema, IGNORE);
    expect(g.accepts('"a string"')).toBe(true);
    expect(g.accepts("null")).toBe(false);
    expect(g.accepts("1")).toBe(false);
  });

  it("nor is one inside an annotation or an extension keyword, while one in a real subschema is", () => {
    const decoy = { $id: "https://example.com/t.json", type: "integer" };
    const real = {
      $ref: "https://example.com/t.json",
      definitions: { t: { $id: "https://example.com/t.json", type: "string" } },
    };
    for (const place of [{ "x-decoy": decoy }, { default: decoy }, { _decoy: { items: decoy } }]) {
      const g = compileSchema({ ...real, ...place }, IGNORE);
      expect(g.accepts('"s"'), JSON.stringify(place)).toBe(true);
      expect(g.accepts("1"), JSON.stringify(place)).toBe(false);
    }
  });
});
