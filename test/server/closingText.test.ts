import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { closingText } from "../../src/server/closingText.js";
import { closingReserve } from "../../src/server/UpstreamEngine.js";
import { TOOLS } from "../support/server/serverHarness.js";

/** A call cut anywhere is finished by the grammar's shortest completion: the whole turn parses and validates. */
const CASES = [
  {
    format: "qwen3",
    turn: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>',
  },
  {
    format: "qwen3-coder",
    turn: "<tool_call>\n<function=get_time>\n<parameter=zone>\nEurope/Paris\n</parameter>\n</function>\n</tool_call>",
  },
  { format: "llama3-json", turn: '{"name": "get_weather", "parameters": {"city": "Lyon"}}' },
  { format: "openai", turn: ' to=functions.get_time<|channel|>commentary json<|message|>{"zone": "UTC"}<|call|>' },
  { format: "deepseek-v3", turn: undefined },
] as const;

describe("closingText: the shortest completion of a cut turn", () => {
  it.each(CASES)("$format: every prefix of a turn closes into one valid call", ({ format, turn }) => {
    const grammar = compileTools(TOOLS, { format, toolChoice: "required", parallel: false });
    const full = turn ?? closingText(grammar, "");
    expect(full).toBeDefined();
    expect(grammar.accepts(full!)).toBe(true);
    let longest = 0;
    for (let i = 0; i <= full!.length; i++) {
      const prefix = full!.slice(0, i);
      const closing = closingText(grammar, prefix);
      expect(closing, JSON.stringify(prefix)).toBeDefined();
      const text = prefix + closing;
      expect(grammar.accepts(text), JSON.stringify(text)).toBe(true);
      const parsed = parseToolCalls(text, { format, tools: TOOLS, mode: "strict" });
      expect(parsed.calls.map((c) => c.valid)).toEqual([true]);
      longest = Math.max(longest, closing!.length);
    }
    // nothing to add to a complete turn
    expect(closingText(grammar, full!)).toBe("");
    expect(longest).toBeGreaterThan(0);
  });

  it("a text the grammar cannot continue has no closing", () => {
    const grammar = compileTools(TOOLS, { format: "qwen3", toolChoice: "required" });
    expect(closingText(grammar, '<tool_call>\n{"name": "delete_everything')).toBeUndefined();
  });

  it("the reserve is an eighth of the budget, at least 8, never the whole budget", () => {
    expect([1, 2, 9, 64, 256, 1000].map(closingReserve)).toEqual([0, 1, 8, 8, 32, 125]);
  });
});
