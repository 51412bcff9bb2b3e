import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";

/**
 * Solar Open (`<|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>`): the name-then-json
 * unit with its id first (`idFirst`). The generic format suites cover it through FORMAT_NAMES; these pin the id's place.
 */
const TOOLS = [
  { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  { name: "ping", parameters: { type: "object", properties: {} } },
];
const text =
  '<|tool_calls|><|tool_call:begin|>call_1<|tool_call:name|>get_weather<|tool_call:args|>{"city": "Paris"}<|tool_call:end|>' +
  "<|tool_call:begin|><|tool_call:name|>ping<|tool_call:args|>{}<|tool_call:end|><|calls|>";

describe("solar-open", () => {
  it("writes the id before the name marker (none: the marker alone), and the grammar holds the layout", () => {
    expect(
      renderToolCalls(
        [
          { name: "get_weather", arguments: { city: "Paris" }, id: "call_1" },
          { name: "ping", arguments: {} },
        ],
        "solar_open",
      ),
    ).toBe(text);
    const g = compileTools(TOOLS, { format: "solar-open" });
    expect(g.accepts(text)).toBe(true);
    expect(g.accepts(`Checking. ${text}`)).toBe(true);
    // the name before the id, a missing name marker, an id with a space: rejected
    expect(g.accepts(text.replace("call_1<|tool_call:name|>get_weather", "get_weather<|tool_call:name|>call_1"))).toBe(
      false,
    );
    expect(g.accepts(text.replace("<|tool_call:begin|><|tool_call:name|>ping", "<|tool_call:begin|>ping"))).toBe(false);
    expect(g.accepts(text.replace("call_1", "call 1"))).toBe(false);
    const r = parseToolCalls(text, { tools: TOOLS, format: "solar-open", mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.calls.map((c) => [c.name, c.id, c.arguments])).toEqual([
      ["get_weather", "call_1", { city: "Paris" }],
      ["ping", undefined, {}],
    ]);
  });

  it("streams each name once its marker comes, never the id", () => {
    const s = new ToolCallStream({ format: "solar-open" });
    const names: string[] = [];
    for (const ch of text) for (const e of s.push(ch)) if (e.type === "call_name") names.push(e.name);
    expect(names).toEqual(["get_weather", "ping"]);
    expect(s.end().calls.map((c) => c.id)).toEqual(["call_1", undefined]);
  });

  it("reads a block without the name marker tolerantly, as the name", () => {
    const drift =
      '<|tool_calls|><|tool_call:begin|>get_weather<|tool_call:args|>{"city": "Paris"}<|tool_call:end|><|calls|>';
    const r = parseToolCalls(drift, { tools: TOOLS, format: "solar-open" });
    expect(r.calls.map((c) => [c.name, c.id])).toEqual([["get_weather", undefined]]);
    expect(r.issues.map((i) => i.code)).toEqual(["NAME_SEPARATOR"]);
    expect(parseToolCalls(drift, { tools: TOOLS, format: "solar-open", mode: "strict" }).calls).toEqual([]);
  });
});
