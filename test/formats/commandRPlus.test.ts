/**
 * Command R+ (`command-r-plus`): its tool-use template writes the calls as Python's `json.dumps(indent=4)` lays out
 * the list, so every member's indentation follows its depth. The template's own renders of calls with nested, typed
 * arguments (llama.cpp's `models/templates/CohereForAI-c4ai-command-r-plus-tool_use.jinja`) are the reference:
 * the grammar accepts them, the strict parser reads them without issue, and the renderer writes them back byte for
 * byte; a layout off by one space is refused by the grammar and flagged by the strict parser, and read by the
 * tolerant one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { indentedJson, type JsonObject } from "../../src/json.js";
import { MAX_INDENTED_DEPTH } from "../../src/lower/JsonStyle.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ChatTemplate } from "../../src/templates/renderTemplate.js";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";

const source = await llamaCppSource();

const TOOLS = [
  {
    type: "function",
    function: {
      name: "plan_trip",
      description: "Plans a trip",
      parameters: {
        type: "object",
        // the template prints each property's description
        properties: {
          city: { type: "string", description: "City" },
          days: { type: "integer", description: "Days" },
          stops: {
            type: "array",
            description: "Stops",
            items: {
              type: "object",
              properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
              required: ["name"],
            },
          },
          options: { type: "object", description: "Options" },
          flags: { type: "array", description: "Flags", items: { type: "boolean" } },
        },
        required: ["city"],
      },
    },
  },
  {
    type: "function",
    function: { name: "ping", description: "No arguments", parameters: { type: "object", properties: {} } },
  },
];

/** Arguments with every shape the layout spells: nested objects and arrays, empty ones, scalars, non-ASCII text. */
const CALLS: { name: string; arguments: JsonObject }[][] = [
  [
    {
      name: "plan_trip",
      arguments: {
        city: 'Zürich "old" town',
        days: 3,
        stops: [
          { name: "Lake", tags: ["water", "view"] },
          { name: "Museum", tags: [] },
        ],
        options: { pace: { slow: true, rest: null }, empty: {}, list: [1.5, -2, []] },
        flags: [true, false],
      },
    },
  ],
  [
    { name: "plan_trip", arguments: { city: "Oslo" } },
    { name: "ping", arguments: {} },
  ],
];

describe.skipIf(source === undefined)("command-r-plus against Command R+'s own template", () => {
  const template = (): ChatTemplate =>
    new ChatTemplate(
      readFileSync(join(source!.dir, "models", "templates", "CohereForAI-c4ai-command-r-plus-tool_use.jinja"), "utf8"),
    );

  /** The assistant turn the template writes for `calls`: what follows the user turn's end and the turn's opening. */
  const turnOf = (calls: { name: string; arguments: JsonObject }[]): string => {
    const user = { role: "user" as const, content: "Q" };
    const assistant = {
      role: "assistant" as const,
      content: "",
      tool_calls: calls.map((c, i) => ({
        id: `call${i}`,
        type: "function" as const,
        function: { name: c.name, arguments: c.arguments },
      })),
    };
    const text = template().render({ messages: [user, assistant], tools: TOOLS, addGenerationPrompt: false });
    const open = "Q<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>";
    const start = text.indexOf(open) + open.length;
    // the template ends every conversation with a system turn of instructions, after the call turn
    const end = text.indexOf("<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>", start);
    return text.slice(start, end);
  };

  for (const calls of CALLS) {
    it(`${calls.map((c) => c.name).join(" + ")}: accepted, parsed strictly, rendered back`, () => {
      const text = turnOf(calls);
      expect(text.startsWith("\nAction:\n```json\n[\n    {\n")).toBe(true);
      const g = compileTools(TOOLS, { format: "command_r_plus" });
      expect(g.accepts(text)).toBe(true);
      const r = parseToolCalls(text, { tools: TOOLS, format: "command_r_plus", mode: "strict" });
      expect(r.issues).toEqual([]);
      expect(r.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(calls);
      expect(renderToolCalls(calls, "command-r-plus")).toBe(text);
    });
  }

  it("a member indented one space off: the grammar refuses it, strict flags it, tolerant reads it", () => {
    const text = turnOf(CALLS[0]);
    const off = text.replace(/\n( +)"slow": true/, '\n$1 "slow": true');
    expect(off).not.toBe(text);
    const g = compileTools(TOOLS, { format: "command_r_plus" });
    expect(g.accepts(off)).toBe(false);
    expect(
      parseToolCalls(off, { tools: TOOLS, format: "command_r_plus", mode: "strict" }).issues.map((i) => i.code),
    ).toContain("NONCANONICAL");
    const tolerant = parseToolCalls(off, { tools: TOOLS, format: "command_r_plus", mode: "tolerant" });
    expect(tolerant.calls.map((c) => c.arguments)).toEqual([CALLS[0][0].arguments]);
  });
});

describe("indentedJson and the depth bound", () => {
  it("lays a value out as json.dumps(indent=4) does at the given depth", () => {
    // python3 -c 'import json; print(json.dumps({"a": [1, {"b": []}], "c": {}}, indent=4))', then each line but the first indented 8 more
    expect(indentedJson({ a: [1, { b: [] }], c: {} }, 4, 2)).toBe(
      '{\n            "a": [\n                1,\n                {\n                    "b": []\n                }\n            ],\n            "c": {}\n        }',
    );
  });

  it("free-form values nest non-empty containers down to the bound, and only empty ones there", () => {
    const tools = [
      { type: "function", function: { name: "f", parameters: { type: "object", properties: { v: {} } } } },
    ];
    const g = compileTools(tools, { format: "command-r-plus" });
    // the arguments object is at depth 2 of the list; `v` at depth 3
    const nested = (levels: number, leaf: JsonObject): JsonObject =>
      levels === 0 ? leaf : { k: nested(levels - 1, leaf) };
    const within = nested(MAX_INDENTED_DEPTH - 4, { x: 1 }); // its innermost non-empty object at depth MAX - 1
    const beyond = nested(MAX_INDENTED_DEPTH - 3, { x: 1 }); // at depth MAX
    const atBound = nested(MAX_INDENTED_DEPTH - 3, {});
    expect(g.accepts(renderToolCalls([{ name: "f", arguments: { v: within } }], "command-r-plus"))).toBe(true);
    expect(g.accepts(renderToolCalls([{ name: "f", arguments: { v: atBound } }], "command-r-plus"))).toBe(true);
    expect(g.accepts(renderToolCalls([{ name: "f", arguments: { v: beyond } }], "command-r-plus"))).toBe(false);
  });
});
