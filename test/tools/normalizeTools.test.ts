import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostic.js";
import { ToolgramError } from "../../src/errors.js";
import { normalizeTools } from "../../src/tools/normalizeTools.js";
import { toolsHash } from "../../src/tools/schemaHash.js";

const weather = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

function norm(input: unknown): { tools: ReturnType<typeof normalizeTools>; warnings: Diagnostic[] } {
  const warnings: Diagnostic[] = [];
  return { tools: normalizeTools(input, warnings), warnings };
}

function codeOf(f: () => unknown): { code: string; path: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof ToolgramError) return { code: e.code, path: e.schemaPath };
    throw e;
  }
  throw new Error("expected a ToolgramError");
}

describe("normalizeTools: shapes", () => {
  it("reads OpenAI, bare, MCP and Anthropic tools to the same form, without warnings", () => {
    const shapes = [
      [{ type: "function", function: { name: "w", description: "d", parameters: weather } }],
      [{ name: "w", description: "d", parameters: weather }],
      [{ name: "w", description: "d", inputSchema: weather }],
      [{ name: "w", description: "d", input_schema: weather }],
      { tools: [{ name: "w", description: "d", parameters: weather }] },
      { name: "w", description: "d", parameters: weather },
    ];
    for (const s of shapes) {
      const { tools, warnings } = norm(s);
      expect(tools.map(({ name, description, parameters }) => ({ name, description, parameters }))).toEqual([
        { name: "w", description: "d", parameters: weather },
      ]);
      expect(warnings).toEqual([]);
    }
  });

  it("records JSON pointers of tools and their parameters", () => {
    const { tools } = norm({
      tools: [
        { name: "a" },
        { type: "function", function: { name: "b", parameters: weather } },
        { name: "c", inputSchema: weather },
      ],
    });
    expect(tools.map((t) => [t.path, t.parametersPath])).toEqual([
      ["/tools/0", "/tools/0/parameters"],
      ["/tools/1", "/tools/1/function/parameters"],
      ["/tools/2", "/tools/2/inputSchema"],
    ]);
  });

  it("reads <tools> and <tools_input> text blocks: one array, or one tool per line", () => {
    const line = (n: string): string =>
      JSON.stringify({ type: "function", function: { name: n, parameters: weather } });
    const qwenStyle = `You may call tools.\n<tools>\n${line("a")}\n${line("b")}\n</tools>\nmore text`;
    expect(norm(qwenStyle).tools.map((t) => t.name)).toEqual(["a", "b"]);
    const seedStyle = `<tools_input>[${line("x")}, ${line("y")}]</tools_input>`;
    expect(norm(seedStyle).tools.map((t) => t.name)).toEqual(["x", "y"]);
    expect(norm(`[${line("bare")}]`).tools.map((t) => t.name)).toEqual(["bare"]);
    expect(codeOf(() => norm("<tools>not json</tools>")).code).toBe("INVALID_INPUT");
  });

  it("reads Glaive's tools stored as a JSON string", () => {
    expect(norm({ tools: JSON.stringify([{ name: "g", parameters: weather }]) }).tools[0].name).toBe("g");
  });

  it("missing or empty parameters mean no arguments", () => {
    for (const t of [{ name: "n" }, { name: "n", parameters: {} }, { name: "n", parameters: null }]) {
      expect(norm([t]).tools[0].parameters).toEqual({ type: "object", properties: {}, additionalProperties: false });
    }
  });

  it("adds the implicit type: object, and refuses non-object arguments", () => {
    expect(norm([{ name: "n", parameters: { properties: { a: { type: "string" } } } }]).tools[0].parameters).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
    expect(codeOf(() => norm([{ name: "n", parameters: { type: "string" } }]))).toEqual({
      code: "INVALID_TOOL",
      path: "/0/parameters/type",
    });
  });

  it("never mutates its input", () => {
    const input = [{ name: "n", parameters: { city: { type: "str", optional: true } } }];
    const copy = structuredClone(input);
    norm(input);
    expect(input).toEqual(copy);
  });
});

describe("normalizeTools: names", () => {
  it("keeps any non-empty name exactly", () => {
    const names = ["math.factorial", "get weather", "天气", 'a"b', "x\ny", "</tool_call>"];
    expect(norm(names.map((name) => ({ name }))).tools.map((t) => t.name)).toEqual(names);
  });

  it("refuses empty, missing and non-string names with INVALID_TOOL at the name", () => {
    expect(codeOf(() => norm([{ name: "" }]))).toEqual({ code: "INVALID_TOOL", path: "/0/name" });
    expect(codeOf(() => norm([{ name: "a" }, { type: "function", function: { name: 3 } }]))).toEqual({
      code: "INVALID_TOOL",
      path: "/1/function/name",
    });
    expect(codeOf(() => norm([{ description: "no name" }])).code).toBe("INVALID_TOOL");
    expect(codeOf(() => norm([42])).code).toBe("INVALID_TOOL");
    expect(codeOf(() => norm([{ type: "code_interpreter", function: { name: "x" } }])).code).toBe("INVALID_TOOL");
    expect(codeOf(() => norm("not tools")).code).toBe("INVALID_INPUT");
    expect(codeOf(() => norm(5)).code).toBe("INVALID_TOOL");
  });

  it("refuses duplicates with DUPLICATE_TOOL at the second one", () => {
    expect(codeOf(() => norm([{ name: "a" }, { name: "b" }, { name: "a" }]))).toEqual({
      code: "DUPLICATE_TOOL",
      path: "/2",
    });
  });

  it("enforces limits.maxTools", () => {
    const warnings: Diagnostic[] = [];
    expect(() => normalizeTools([{ name: "a" }, { name: "b" }], warnings, { maxTools: 1 })).toThrow(
      expect.objectContaining({ code: "LIMIT_TOOLS" }),
    );
    expect(normalizeTools([{ name: "a" }], warnings, { maxTools: 1 })).toHaveLength(1);
  });
});

describe("normalizeTools: non-standard schemas", () => {
  const params = (p: unknown): { parameters: unknown; warnings: Diagnostic[] } => {
    const { tools, warnings } = norm([{ name: "t", parameters: p }]);
    return { parameters: tools[0].parameters, warnings };
  };

  it.each([
    ["dict", { type: "object" }],
    ["HashMap", { type: "object" }],
    ["Map", { type: "object" }],
    ["Object", { type: "object" }],
    ["float", { type: "number" }],
    ["double", { type: "number" }],
    ["Float", { type: "number" }],
    ["Double", { type: "number" }],
    ["int", { type: "integer" }],
    ["long", { type: "integer" }],
    ["Integer", { type: "integer" }],
    ["Long", { type: "integer" }],
    ["short", { type: "integer" }],
    ["tuple", { type: "array" }],
    ["list", { type: "array" }],
    ["List", { type: "array" }],
    ["ArrayList", { type: "array" }],
    ["Array", { type: "array" }],
    ["str", { type: "string" }],
    ["String", { type: "string" }],
    ["char", { type: "string" }],
    ["bool", { type: "boolean" }],
    ["Boolean", { type: "boolean" }],
    ["any", {}],
    ["Any", {}],
    ["List[int]", { type: "array", items: { type: "integer" } }],
    ["list[str]", { type: "array", items: { type: "string" } }],
    ["Dict[str, int]", { type: "object", additionalProperties: { type: "integer" } }],
    ["List[Dict[str, Any]]", { type: "array", items: { type: "object", additionalProperties: {} } }],
    [
      "Tuple[int, str]",
      { type: "array", prefixItems: [{ type: "integer" }, { type: "string" }], items: false, minItems: 2 },
    ],
    ["Union[int, str]", { anyOf: [{ type: "integer" }, { type: "string" }] }],
    ["String[]", { type: "array", items: { type: "string" } }],
    ["List<String>", { type: "array", items: { type: "string" } }],
  ])("type %j → %j with NONSTANDARD_TYPE", (type, expected) => {
    const { parameters, warnings } = params({
      type: "object",
      properties: { a: { type, description: "d" } },
      required: ["a"],
    });
    expect(parameters).toEqual({
      type: "object",
      properties: { a: { ...expected, description: "d" } },
      required: ["a"],
    });
    expect(warnings).toEqual([
      expect.objectContaining({ code: "NONSTANDARD_TYPE", schemaPath: "/0/parameters/properties/a/type" }),
    ]);
  });

  it("dict at the top level is an object", () => {
    const { parameters, warnings } = params({ type: "dict", properties: { a: { type: "string" } }, required: ["a"] });
    expect(parameters).toEqual({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    expect(warnings.map((w) => w.code)).toEqual(["NONSTANDARD_TYPE"]);
  });

  it("refuses an unknown type name with INVALID_SCHEMA at the type", () => {
    expect(codeOf(() => params({ type: "object", properties: { a: { type: "widget" } } }))).toEqual({
      code: "INVALID_SCHEMA",
      path: "/0/parameters/properties/a/type",
    });
  });

  it("'str, optional' and Optional[str] make the property optional", () => {
    const { parameters } = params({
      type: "object",
      properties: { a: { type: "str, optional" }, b: { type: "Optional[str]" }, c: { type: "int" } },
      required: ["a", "b", "c"],
    });
    expect(parameters).toEqual({
      type: "object",
      properties: {
        a: { type: "string" },
        b: { anyOf: [{ type: "string" }, { type: "null" }] },
        c: { type: "integer" },
      },
      required: ["c"],
    });
  });

  it("optional: true and boolean required flags become the required list", () => {
    const { parameters, warnings } = params({
      type: "object",
      properties: {
        a: { type: "string", optional: true },
        b: { type: "string", required: true },
        c: { type: "string" },
      },
      required: ["a", "c"],
    });
    expect(parameters).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } },
      required: ["c", "b"],
    });
    expect(warnings.map((w) => [w.code, w.schemaPath])).toEqual([
      ["NONSTANDARD_SCHEMA", "/0/parameters/properties/a/optional"],
      ["NONSTANDARD_SCHEMA", "/0/parameters/properties/b/required"],
    ]);
  });

  it("reads the map-of-parameters form with per-property flags", () => {
    const { parameters, warnings } = params({
      city: { type: "string", required: true },
      days: { type: "integer", required: false },
    });
    expect(parameters).toEqual({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    });
    expect(warnings[0]).toEqual(expect.objectContaining({ code: "NONSTANDARD_SCHEMA", schemaPath: "/0/parameters" }));
  });

  it("map form without flags: every parameter not marked optional is required (xLAM)", () => {
    const { parameters } = params({
      query: { type: "str", description: "q" },
      limit: { type: "int, optional", default: 10 },
    });
    expect(parameters).toEqual({
      type: "object",
      properties: { query: { type: "string", description: "q" }, limit: { type: "integer", default: 10 } },
      required: ["query"],
    });
  });

  it("xLAM: `required` beside `parameters` is the required list", () => {
    const { tools, warnings } = norm([
      { name: "x", parameters: { a: { type: "str" }, b: { type: "int" } }, required: ["b"] },
    ]);
    expect(tools[0].parameters).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer" } },
      required: ["b"],
    });
    expect(warnings.some((w) => w.schemaPath === "/0/required")).toBe(true);
  });

  it("draft-4 boolean exclusive bounds use the sibling minimum/maximum", () => {
    const { parameters, warnings } = params({
      type: "object",
      properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: false } },
    });
    expect(parameters).toEqual({
      type: "object",
      properties: { n: { type: "number", exclusiveMinimum: 0, maximum: 5 } },
    });
    expect(warnings.map((w) => w.schemaPath)).toEqual([
      "/0/parameters/properties/n/exclusiveMinimum",
      "/0/parameters/properties/n/exclusiveMaximum",
    ]);
  });

  it("OpenAPI nullable adds null (to type, enum, or around a composite)", () => {
    const { parameters } = params({
      type: "object",
      properties: {
        a: { type: "string", nullable: true },
        b: { type: "string", enum: ["x"], nullable: true },
        c: { anyOf: [{ type: "string" }, { type: "integer" }], nullable: true, description: "d" },
        d: { type: "string", nullable: false },
      },
    });
    expect(parameters).toEqual({
      type: "object",
      properties: {
        a: { type: ["string", "null"] },
        b: { type: ["string", "null"], enum: ["x", null] },
        c: { anyOf: [{ anyOf: [{ type: "string" }, { type: "integer" }] }, { type: "null" }], description: "d" },
        d: { type: "string" },
      },
    });
  });

  it("default: null on a non-nullable property is kept and noted", () => {
    const { parameters, warnings } = params({
      type: "object",
      properties: {
        a: { type: "string", default: null },
        b: { anyOf: [{ type: "string" }, { type: "null" }], default: null },
      },
    });
    expect((parameters as { properties: { a: unknown } }).properties.a).toEqual({ type: "string", default: null });
    expect(warnings).toEqual([
      expect.objectContaining({ code: "DEFAULT_NULL", schemaPath: "/0/parameters/properties/a/default" }),
    ]);
  });

  it("recurses into items, anyOf, $defs and additionalProperties", () => {
    const { parameters, warnings } = params({
      type: "object",
      properties: { xs: { type: "array", items: { type: "object", properties: { v: { type: "float" } } } } },
      additionalProperties: { type: "bool" },
      $defs: { D: { anyOf: [{ type: "int" }, { type: "null" }] } },
    });
    expect(parameters).toEqual({
      type: "object",
      properties: { xs: { type: "array", items: { type: "object", properties: { v: { type: "number" } } } } },
      additionalProperties: { type: "boolean" },
      $defs: { D: { anyOf: [{ type: "integer" }, { type: "null" }] } },
    });
    expect(warnings.map((w) => w.schemaPath).sort()).toEqual([
      "/0/parameters/$defs/D/anyOf/0/type",
      "/0/parameters/additionalProperties/type",
      "/0/parameters/properties/xs/items/properties/v/type",
    ]);
  });

  it("type arrays with non-standard names", () => {
    expect(params({ type: "object", properties: { a: { type: ["str", "None"] } } }).parameters).toEqual({
      type: "object",
      properties: { a: { type: ["string", "null"] } },
    });
  });
});

describe("toolsHash", () => {
  it("ignores descriptions and changes with names, parameters and their order", () => {
    const a = norm([{ name: "a", description: "x", parameters: weather }]).tools;
    const b = norm([{ name: "a", description: "y", parameters: weather }]).tools;
    const c = norm([{ name: "b", parameters: weather }]).tools;
    expect(toolsHash(a)).toBe(toolsHash(b));
    expect(toolsHash(a)).not.toBe(toolsHash(c));
    expect(toolsHash(a)).toMatch(/^[0-9a-f]{64}$/);
    // the same tool written non-standardly hashes like its standard form
    const d = norm([{ name: "a", parameters: { city: { type: "str" } } }]).tools;
    expect(toolsHash(d)).toBe(toolsHash(a));
  });
});

describe("normalizeTools: arbitrary input", () => {
  it("returns or throws a ToolgramError, never anything else", async () => {
    const fc = (await import("fast-check")).default;
    const schemaish = fc.jsonValue({ maxDepth: 4 });
    const tool = fc.oneof(
      fc.record(
        { name: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })), parameters: schemaish },
        { requiredKeys: [] },
      ),
      fc.record({ type: fc.constant("function"), function: fc.record({ name: fc.string(), parameters: schemaish }) }),
      fc.record({
        name: fc.string(),
        inputSchema: fc.dictionary(
          fc.constantFrom(
            "type",
            "properties",
            "required",
            "items",
            "nullable",
            "optional",
            "anyOf",
            "exclusiveMinimum",
            "minimum",
          ),
          schemaish,
        ),
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.array(tool, { maxLength: 3 }), fc.jsonValue({ maxDepth: 3 }), fc.string()), (input) => {
        try {
          normalizeTools(input, []);
        } catch (e) {
          if (!(e instanceof ToolgramError)) throw e;
        }
      }),
      { seed: 424242, numRuns: 1500, verbose: true },
    );
  });
});
