import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls, type CallToRender } from "../../src/parser/renderToolCalls.js";

/**
 * Mistral v11 (`[TOOL_CALLS]NAME[ARGS]{…}`): a format added as a description plus one unit kind (name-then-json);
 * the generic format suites (stream = batch, fuzzing, strict ⇔ grammar, llama.cpp GBNF) cover it through FORMAT_NAMES.
 */
const TOOLS = [
  { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  { name: "ping", parameters: { type: "object", properties: {} } },
];

describe("mistral-v11", () => {
  const text = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]ping[ARGS]{}';

  it("renders, compiles and parses the template's spelling", () => {
    const calls: CallToRender[] = [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "ping", arguments: {} },
    ];
    expect(renderToolCalls(calls, "mistral-v11")).toBe(text);
    const g = compileTools(TOOLS, { format: "mistral-v11" });
    expect(g.accepts(text)).toBe(true);
    expect(g.accepts(`Let me check. ${text}`)).toBe(true);
    expect(g.accepts('[TOOL_CALLS]get_weather[ARGS]{"city": 3}')).toBe(false);
    expect(g.accepts('[TOOL_CALLS]get_weather {"city": "Paris"}')).toBe(false);
    const r = parseToolCalls(`Let me check. ${text}`, { tools: TOOLS, format: "mistral-v11", mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.content).toBe("Let me check. ");
    expect(r.calls.map((c) => [c.name, c.arguments, c.raw])).toEqual([
      ["get_weather", { city: "Paris" }, '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}'],
      ["ping", {}, "[TOOL_CALLS]ping[ARGS]{}"],
    ]);
  });

  it("tolerates spacing drifts, drops a call without [ARGS]", () => {
    const r = parseToolCalls('[TOOL_CALLS] get_weather [ARGS] {"city": "Paris"}', { tools: TOOLS, format: "mistral-v11" });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ city: "Paris" }]);
    expect(r.issues.map((i) => i.code)).toEqual(["WHITESPACE_AROUND_TAGS"]);
    const bad = parseToolCalls('[TOOL_CALLS]get_weather{"city": "Paris"}', { tools: TOOLS, format: "mistral-v11" });
    expect(bad.calls).toEqual([]);
    expect(bad.dropped).toBe(1);
  });

  it("refuses tool names the format cannot write", () => {
    expect(() => compileTools([{ name: "get weather", parameters: { type: "object" } }], { format: "mistral-v11" })).toThrow(ToolgramError);
    expect(() => renderToolCalls([{ name: "a[ARGS]b", arguments: {} }], "mistral-v11")).toThrow(/cannot be written/);
  });
});
