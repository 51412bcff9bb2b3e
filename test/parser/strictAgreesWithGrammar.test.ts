/**
 * Strict parsing gives the compiled grammar's verdict: for Qwen3 with the default call policy (free text, then any
 * number of calls), a text parses with no issues and nothing dropped exactly when `compileTools(tools).accepts(text)`
 * — on rendered calls, grammar samples and their mutations.
 */
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import type { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { TOOLS } from "../support/parser/tools.js";

const SEED = Number(process.env.FC_SEED ?? 20261122);

const TOOL_SETS: Record<string, unknown[]> = {
  fixtures: TOOLS,
  nested: [
    {
      name: "book",
      parameters: {
        type: "object",
        properties: {
          guests: {
            type: "array",
            items: {
              type: "object",
              properties: { name: { type: "string", maxLength: 8 }, age: { type: "integer" } },
              required: ["name"],
            },
            maxItems: 3,
          },
          when: { enum: ["today", "tomorrow"] },
          note: { type: ["string", "null"] },
        },
        required: ["guests"],
      },
    },
    { name: "ping", parameters: { type: "object", properties: {} } },
  ],
  openai: [
    {
      type: "function",
      function: {
        name: "lookup",
        parameters: {
          type: "object",
          properties: { id: { type: "integer", minimum: 0 }, flag: { type: "boolean" } },
          required: ["id", "flag"],
        },
      },
    },
  ],
};

/** Characters that matter to the envelope and to JSON, and whole markers. */
const ALPHABET = [
  "<",
  ">",
  "/",
  "\n",
  " ",
  "t",
  "l",
  "_",
  "{",
  "}",
  "[",
  "]",
  '"',
  ",",
  ":",
  "1",
  "a",
  "\\",
  "<tool_call>",
  "</tool_call>",
  "<tool_call",
  "tool_call>",
];

function strictClean(text: string, tools: readonly unknown[]): boolean {
  const r = parseToolCalls(text, { tools, mode: "strict" });
  return r.issues.length === 0 && r.dropped === 0;
}

/** The calls of the text, read tolerantly, are all declared and valid (so the grammar's verdict is about layout). */
function callsValidate(text: string, tools: readonly unknown[]): boolean {
  const r = parseToolCalls(text, { tools, mode: "tolerant" });
  return r.dropped === 0 && r.calls.every((c) => c.valid);
}

function disagreement(g: CompiledGrammar, tools: readonly unknown[], text: string): string | undefined {
  const accepted = g.accepts(text);
  const clean = strictClean(text, tools);
  if (accepted === clean) return undefined;
  const r = parseToolCalls(text, { tools, mode: "strict" });
  return `accepts=${accepted} strict=${clean} ${JSON.stringify(r.issues.map((i) => i.code))} :: ${JSON.stringify(text)}`;
}

describe("strict mode agrees with the compiled grammar", () => {
  for (const [setName, tools] of Object.entries(TOOL_SETS)) {
    it(`${setName}: grammar samples and their mutations (seed ${SEED})`, () => {
      const g = compileTools(tools);
      const random = seededRandom(SEED);
      const problems: string[] = [];
      let samples = 0;
      let mutants = 0;
      let rejected = 0;
      for (let k = 0; k < 60; k++) {
        const sample = sampleGrammar(g.grammar, random, { maxLength: 600 });
        // numbers beyond double range (1e400) are JSON the grammar spells but no call can carry: not compared
        if (sample === undefined || !callsValidate(sample, tools)) continue;
        samples++;
        const p = disagreement(g, tools, sample);
        if (p) problems.push(`sample: ${p}`);
        for (let m = 0; m < 8; m++) {
          const text = mutateText(sample, ALPHABET, random, 1 + Math.floor(random() * 3));
          if (!callsValidate(text, tools)) continue;
          mutants++;
          if (!g.accepts(text)) rejected++;
          const q = disagreement(g, tools, text);
          if (q) problems.push(`mutant: ${q}`);
        }
      }
      expect(samples, `seed ${SEED}`).toBeGreaterThan(30);
      expect(mutants, `seed ${SEED}`).toBeGreaterThan(30);
      expect(rejected, `seed ${SEED}: mutations must reach texts the grammar rejects`).toBeGreaterThan(0);
      expect(problems.slice(0, 5), `seed ${SEED}`).toEqual([]);
    });
  }

  const tools = TOOLS;
  const g = compileTools(tools);
  const call = renderToolCalls([{ name: "get_weather", arguments: { city: "Paris" } }]);
  const two = renderToolCalls([
    { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } },
    { name: "search", arguments: { query: "q", limit: 2 } },
  ]);

  it.each([
    ["rendered call", call, true],
    ["rendered calls", two, true],
    ["text before the calls", `Let me check.\n${two}`, true],
    ["'<' characters in the text before", `<<<t${call}`, true],
    ["a partial marker in the text before", `<tool_call <tool_call${call}`, true],
    ["a closing marker in the text before", `</tool_call>${call}`, true],
    ["text only", "no calls <tool_call here", true],
    ["text after the last call", `${call}\n]<too,l`, false],
    ["a newline after the last call", `${call}\n`, false],
    ["text between calls", `${call}\nand\n${call}`, false],
    ["no separator between calls", call + call, false],
    ["an undeclared argument", renderToolCalls([{ name: "f", arguments: { anything: 1 } }]), true],
    ["a number in exponent notation", '<tool_call>\n{"name": "f", "arguments": {"x": 1E+2}}\n</tool_call>', true],
    [
      "a string escape the grammar does not spell",
      '<tool_call>\n{"name": "f", "arguments": {"x": "\\u0041"}}\n</tool_call>',
      false,
    ],
    ["compact separators", '<tool_call>\n{"name": "f", "arguments": {"x":1}}\n</tool_call>', false],
  ])("%s", (_label, text, expected) => {
    expect(g.accepts(text)).toBe(expected);
    expect(strictClean(text, tools)).toBe(expected);
  });

  it("reports an undeclared key as UNDECLARED_ARGUMENT, as the grammar rejects it", () => {
    const set = [
      {
        name: "t",
        parameters: {
          type: "object",
          properties: { a: { type: "integer" }, o: { type: "object", properties: { x: { type: "string" } } } },
        },
      },
    ];
    const cg = compileTools(set);
    const top = renderToolCalls([{ name: "t", arguments: { a: 1, b: 2 } }]);
    const inner = renderToolCalls([{ name: "t", arguments: { o: { x: "s", y: true } } }]);
    for (const text of [top, inner]) {
      expect(cg.accepts(text)).toBe(false);
      const r = parseToolCalls(text, { tools: set, mode: "strict" });
      expect(r.calls[0].valid).toBe(false);
      expect(r.issues.map((i) => i.code)).toEqual(["UNDECLARED_ARGUMENT"]);
      expect(r.issues[0].instancePath).toBe(text === top ? "" : "/o");
      // plain JSON Schema, as compileTools with additionalProperties "spec"
      expect(parseToolCalls(text, { tools: set, additionalProperties: "spec" }).calls[0].valid).toBe(true);
      expect(compileTools(set, { additionalProperties: "spec" }).accepts(text)).toBe(true);
    }
    // a schema that closes its object itself keeps the ordinary code
    const closed = [
      {
        name: "t",
        parameters: { type: "object", properties: { a: { type: "integer" } }, additionalProperties: false },
      },
    ];
    const r = parseToolCalls(top, { tools: closed });
    expect(r.issues.map((i) => i.code)).toEqual(["INVALID_ARGUMENTS"]);
  });
});
