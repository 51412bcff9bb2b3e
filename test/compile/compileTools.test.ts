import AjvModule from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema, compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson, type JsonObject, type JsonValue } from "../../src/json.js";

const Ajv = AjvModule.default;
const SEED = 7_2026;

function call(name: string, args: JsonValue): string {
  return `<tool_call>\n${canonicalJson({ name, arguments: args })}\n</tool_call>`;
}

const cityTool = (name: string): JsonObject => ({
  name,
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});

describe("compileTools: names", () => {
  const names = [
    "math.factorial",
    "get weather",
    'say "hi"',
    "back\\slash",
    "line\nbreak",
    "</tool_call>",
    "<tool_call>",
    "天气",
    "root",
    "tool-call",
    "free-text",
    "7up",
    "a-b",
    "a_b",
  ];
  const compiled = compileTools(names.map(cityTool));

  it.each(names)("a call of %j is accepted, spelled as its JSON string", (name) => {
    expect(compiled.accepts(call(name, { city: "Oslo" }))).toBe(true);
    expect(compiled.accepts(call(name, {}))).toBe(false);
  });

  it("a name must be spelled exactly (no raw newline or unescaped quote)", () => {
    expect(compiled.accepts(`<tool_call>\n{"name": "line\nbreak", "arguments": {"city": "Oslo"}}\n</tool_call>`)).toBe(
      false,
    );
    expect(compiled.accepts(`<tool_call>\n{"name": "say "hi"", "arguments": {"city": "Oslo"}}\n</tool_call>`)).toBe(
      false,
    );
    expect(compiled.accepts(call("a.b", { city: "Oslo" }))).toBe(false);
  });

  it("the GBNF of such names is produced", () => {
    expect(compiled.toGbnf()).toMatch(/^root ::= /);
  });
});

describe("compileTools: artifacts", () => {
  const tools = [
    {
      type: "function",
      function: {
        name: "get_weather",
        description: "d",
        parameters: {
          type: "object",
          properties: { city: { type: "string", maxLength: 8 }, unit: { type: "string", enum: ["c", "f"] } },
          required: ["city"],
        },
      },
    },
    {
      type: "function",
      function: {
        name: "count",
        parameters: {
          type: "object",
          properties: {
            n: { type: "integer", minimum: 0, maximum: 99 },
            tags: { type: "array", items: { type: "string" }, maxItems: 2 },
          },
          required: ["n"],
        },
      },
    },
  ];
  const compiled = compileTools(tools);

  it("carries format, tools, hash and no warnings", () => {
    expect(compiled.format).toBe("qwen3");
    expect(compiled.tools.map((t) => t.name)).toEqual(["get_weather", "count"]);
    expect(compiled.schemaHash).toMatch(/^[0-9a-f]{64}$/);
    expect(compiled.warnings).toEqual([]);
    expect(compiled.grammar.root).toBe("root");
    expect([...compiled.grammar.rules.keys()][0]).toBe("root");
  });

  it("is deterministic", () => {
    const again = compileTools(tools);
    expect(again.toGbnf()).toBe(compiled.toGbnf());
    expect(again.schemaHash).toBe(compiled.schemaHash);
  });

  it("the JSON-schema union and the grammar agree on random calls (ajv is the referee)", () => {
    const union = compiled.toJsonSchema() as JsonObject;
    expect(union).toEqual({ anyOf: expect.any(Array) });
    const validate = new Ajv({ strict: false }).compile(union);
    const args = fc.record(
      {
        city: fc.string({ maxLength: 10 }),
        unit: fc.constantFrom("c", "f", "k"),
        n: fc.integer({ min: -5, max: 120 }),
        tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.constantFrom("get_weather", "count"), args, (name, a) => {
        const value = { name, arguments: a };
        return compiled.accepts(call(name, a)) === validate(value);
      }),
      { seed: SEED, numRuns: 300, verbose: true },
    );
  });

  it("toRegex matches the same calls", () => {
    const re = new RegExp(compiled.toRegex(), "u");
    expect(re.test(`Sure.\n${call("count", { n: 3, tags: ["a"] })}`)).toBe(true);
    expect(re.test(call("count", { n: 100 }))).toBe(false);
  });

  it("toJsonSchema returns a copy", () => {
    (compiled.toJsonSchema() as JsonObject).anyOf = [];
    expect((compiled.toJsonSchema() as { anyOf: unknown[] }).anyOf).toHaveLength(2);
  });

  it("only the allowed tools are in a named choice's union", () => {
    expect((compileTools(tools, { toolChoice: "count" }).toJsonSchema() as { anyOf: unknown[] }).anyOf).toHaveLength(1);
    expect(compileTools(tools, { toolChoice: "none" }).toJsonSchema()).toBe(false);
  });
});

describe("compileTools: options and errors", () => {
  it("tool arguments forbid undeclared keys by default; additionalProperties: spec allows them", () => {
    const t = [{ name: "f", parameters: { type: "object", properties: { a: { type: "integer" } } } }];
    expect(compileTools(t).accepts(call("f", { a: 1, b: 2 }))).toBe(false);
    expect(compileTools(t, { additionalProperties: "spec" }).accepts(call("f", { a: 1, b: 2 }))).toBe(true);
  });

  it("no-argument tools accept only {}", () => {
    const c = compileTools([{ name: "ping" }]);
    expect(c.accepts(call("ping", {}))).toBe(true);
    expect(c.accepts(call("ping", { x: 1 }))).toBe(false);
  });

  it("errors in a tool's schema point into the input and name the tool", () => {
    const t = {
      tools: [
        cityTool("ok"),
        {
          type: "function",
          function: {
            name: "bad",
            parameters: { type: "object", properties: { x: { type: "number", multipleOf: 0.2049 } } },
          },
        },
      ],
    };
    try {
      compileTools(t);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ToolgramError);
      const err = e as ToolgramError;
      expect(err.code).toBe("UNSUPPORTED_KEYWORD");
      expect(err.schemaPath).toBe("/tools/1/function/parameters/properties/x/multipleOf");
      expect(err.message).toContain('tool "bad"');
      expect(err.constructor.name).toBe("UnsupportedSchemaError");
    }
  });

  it("strict: false relaxes with warnings pointing into the input", () => {
    const t = [
      { name: "f", parameters: { type: "object", properties: { x: { type: "number", multipleOf: 0.2049 } } } },
    ];
    const c = compileTools(t, { strict: false });
    expect(c.warnings.length).toBeGreaterThan(0);
    expect(c.warnings.every((w) => w.schemaPath.startsWith("/0/parameters"))).toBe(true);
  });

  it("ingestion warnings are reported", () => {
    const c = compileTools([{ name: "f", parameters: { n: { type: "float" } } }]);
    expect(c.warnings.map((w) => w.code)).toEqual(["NONSTANDARD_SCHEMA", "NONSTANDARD_TYPE"]);
    expect(c.accepts(call("f", { n: 1.5 }))).toBe(true);
  });

  it("limits: maxCompileMs and maxTools", () => {
    expect(() => compileTools([cityTool("a")], { limits: { maxCompileMs: 1e-9 } })).toThrow(
      expect.objectContaining({ code: "LIMIT_COMPILE_TIME" }),
    );
    expect(() => compileTools([cityTool("a"), cityTool("b")], { limits: { maxTools: 1 } })).toThrow(
      expect.objectContaining({ code: "LIMIT_TOOLS" }),
    );
  });

  it("misspelled options are INVALID_OPTION, with a suggestion", () => {
    expect(() => compileTools([cityTool("a")], { tool_choice: "required" } as never)).toThrow(
      /did you mean "toolChoice"/,
    );
    expect(() => compileSchema({}, { toolChoice: "auto" } as never)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
  });

  it("unknown format and specialTokens values are INVALID_OPTION", () => {
    expect(() => compileTools([cityTool("a")], { format: "no-such-format" as "qwen3" })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
    expect(() => compileTools([cityTool("a")], { specialTokens: "both" as "token-only" })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
  });

  it("flexible whitespace applies inside the envelope JSON and the arguments", () => {
    const c = compileTools([cityTool("a")], { whitespace: { flexible: { maxRun: 2 } } });
    expect(c.accepts(`<tool_call>\n{ "name":"a" ,"arguments": {"city" : "x"} }\n</tool_call>`)).toBe(true);
    expect(c.accepts(`<tool_call>\n{   "name":"a","arguments":{"city":"x"}}\n</tool_call>`)).toBe(false);
  });
});

describe("compileSchema", () => {
  it("compiles one JSON value with spec additionalProperties", () => {
    const schema = { type: "object", properties: { a: { type: "integer" } }, required: ["a"] };
    const c = compileSchema(schema);
    expect(c.format).toBe("json");
    expect(c.tools).toEqual([]);
    expect(c.accepts('{"a": 1}')).toBe(true);
    expect(c.accepts('{"a": 1, "b": true}')).toBe(true);
    expect(c.accepts('{"b": 1}')).toBe(false);
    expect(c.toJsonSchema()).toEqual(schema);
    expect(c.schemaHash).toBe(compileSchema({ ...schema }).schemaHash);
  });

  it("a non-recursive schema has a regex", () => {
    const c = compileSchema({
      type: "object",
      properties: { a: { type: "integer" } },
      required: ["a"],
      additionalProperties: false,
    });
    const re = new RegExp(c.toRegex(), "u");
    expect(re.test('{"a": 12}')).toBe(true);
    expect(re.test('{"a": 1.5}')).toBe(false);
  });

  it("a recursive schema has GBNF but no regex", () => {
    const c = compileSchema({ $defs: { t: { type: "array", items: { $ref: "#/$defs/t" } } }, $ref: "#/$defs/t" });
    expect(c.accepts("[[], [[]]]")).toBe(true);
    expect(c.toGbnf()).toContain("::=");
    expect(() => c.toRegex()).toThrow(expect.objectContaining({ code: "NOT_REGULAR" }));
  });

  it("a schema rule cannot be named root twice", () => {
    const c = compileSchema({
      type: "object",
      properties: { root: { type: "object", properties: { root: { type: "integer" } } } },
    });
    expect(c.accepts('{"root": {"root": 1}}')).toBe(true);
  });
});

describe("compileTools: additionalProperties forbid", () => {
  it("an explicit empty `properties` is closed too (no invented arguments)", () => {
    const c = compileTools([{ name: "noop", parameters: { type: "object", properties: {}, required: [] } }]);
    expect(c.accepts(call("noop", {}))).toBe(true);
    expect(c.accepts(call("noop", { x: 1 }))).toBe(false);
    expect(
      compileTools([{ name: "noop", parameters: { type: "object", properties: {} } }], {
        additionalProperties: "spec",
      }).accepts(call("noop", { x: 1 })),
    ).toBe(true);
  });

  it("a free-form object (no `properties`) stays open", () => {
    const c = compileTools([{ name: "f", parameters: { type: "object", properties: { meta: { type: "object" } } } }]);
    expect(c.accepts(call("f", { meta: { any: [1] } }))).toBe(true);
  });

  it("keys declared in allOf branches are merged before closing", () => {
    const c = compileTools([
      {
        name: "f",
        parameters: {
          type: "object",
          properties: { a: { type: "integer" } },
          allOf: [{ properties: { b: { type: "integer" } } }],
        },
      },
    ]);
    expect(c.accepts(call("f", { a: 1, b: 2 }))).toBe(true);
    expect(c.accepts(call("f", { a: 1, c: 2 }))).toBe(false);
  });
});

describe("compileTools: rule names across tools", () => {
  it("tools whose rule names meet (a + b/x, a-b + x) keep their own grammars", () => {
    // recursive properties force named rules that survive optimization; both are named "a-b-x" before merging
    const tree = (leaf: string, self: string): JsonObject => ({
      type: "array",
      items: { anyOf: [{ type: leaf }, { $ref: self }] },
    });
    const a = {
      name: "a",
      parameters: {
        type: "object",
        properties: { b: { type: "object", properties: { x: tree("integer", "#/properties/b/properties/x") } } },
      },
    };
    const ab = { name: "a-b", parameters: { type: "object", properties: { x: tree("string", "#/properties/x") } } };
    const c = compileTools([a, ab]);
    expect([...c.grammar.rules.keys()].filter((n) => n.startsWith("a-b-x"))).toHaveLength(2);
    expect(c.accepts(call("a", { b: { x: [1, [2, []]] } }))).toBe(true);
    expect(c.accepts(call("a", { b: { x: ["s"] } }))).toBe(false);
    expect(c.accepts(call("a-b", { x: ["s", ["t"]] }))).toBe(true);
    expect(c.accepts(call("a-b", { x: [1] }))).toBe(false);
    expect(c.grammar.rules.size).toBeGreaterThan(2);
  });
});

describe("compileTools: grammar size across tools", () => {
  it("the whole tool set must fit limits.maxGrammarSize, not only each tool", () => {
    const tools = Array.from({ length: 40 }, (_, i) => ({
      name: `t${i}`,
      parameters: { type: "object", properties: { v: { type: "string", enum: ["alpha", "beta", "gamma", `d${i}`] } } },
    }));
    const one = compileTools(tools.slice(0, 1), { limits: { maxGrammarSize: 60 } });
    expect(one.accepts(call("t0", { v: "beta" }))).toBe(true);
    expect(() => compileTools(tools, { limits: { maxGrammarSize: 60 } })).toThrow(
      expect.objectContaining({ code: "LIMIT_GRAMMAR_SIZE" }),
    );
  });
});
