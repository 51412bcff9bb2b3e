import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls, type CallToRender } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";

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

  it("tolerates spacing drifts and a call without [ARGS], which strict mode drops", () => {
    const r = parseToolCalls('[TOOL_CALLS] get_weather [ARGS] {"city": "Paris"}', {
      tools: TOOLS,
      format: "mistral-v11",
    });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ city: "Paris" }]);
    expect(r.issues.map((i) => i.code)).toEqual(["WHITESPACE_AROUND_TAGS"]);
    const text = '[TOOL_CALLS]get_weather{"city": "Paris"}';
    const bare = parseToolCalls(text, { tools: TOOLS, format: "mistral-v11" });
    expect(bare.calls.map((c) => c.arguments)).toEqual([{ city: "Paris" }]);
    expect(bare.issues.map((i) => i.code)).toEqual(["NAME_SEPARATOR"]);
    const strict = parseToolCalls(text, { tools: TOOLS, format: "mistral-v11", mode: "strict" });
    expect(strict.calls).toEqual([]);
  });

  it("refuses tool names the format cannot write", () => {
    expect(() =>
      compileTools([{ name: "get weather", parameters: { type: "object" } }], { format: "mistral-v11" }),
    ).toThrow(ToolgramError);
    expect(() => renderToolCalls([{ name: "a[ARGS]b", arguments: {} }], "mistral-v11")).toThrow(/cannot be written/);
  });
});

describe("mistral-v11-call-id (Mistral Small 3.2)", () => {
  const text =
    '[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"city": "Paris"}[TOOL_CALLS]ping[CALL_ID]Zz9Yy8Xx7[ARGS]{}';

  it("writes the id between the name and the arguments, and the grammar holds it to 9 alphanumerics", () => {
    expect(
      renderToolCalls(
        [
          { name: "get_weather", arguments: { city: "Paris" }, id: "a1B2c3D4e" },
          { name: "ping", arguments: {}, id: "Zz9Yy8Xx7" },
        ],
        "mistral-v11-call-id",
      ),
    ).toBe(text);
    const g = compileTools(TOOLS, { format: "mistral-v11-call-id" });
    expect(g.accepts(text)).toBe(true);
    expect(g.accepts("[TOOL_CALLS]ping[CALL_ID]a1B2c3D4[ARGS]{}")).toBe(false);
    expect(g.accepts("[TOOL_CALLS]ping[CALL_ID]a1B2c3D4_[ARGS]{}")).toBe(false);
    const r = parseToolCalls(text, { tools: TOOLS, format: "mistral_args_call_id", mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.calls.map((c) => [c.name, c.id])).toEqual([
      ["get_weather", "a1B2c3D4e"],
      ["ping", "Zz9Yy8Xx7"],
    ]);
  });

  it("the grammar requires the id its template writes in every call; tolerant parsing still reads a call without one", () => {
    const g = compileTools(TOOLS, { format: "mistral-v11-call-id" });
    const bare = "[TOOL_CALLS]ping[ARGS]{}";
    expect(g.accepts("[TOOL_CALLS]ping[CALL_ID]a1B2c3D4e[ARGS]{}")).toBe(true);
    expect(g.accepts(bare)).toBe(false);
    expect(g.accepts("[TOOL_CALLS]ping[CALL_ID][ARGS]{}")).toBe(false);
    // strict parsing accepts a call exactly when the grammar does
    expect(parseToolCalls(bare, { tools: TOOLS, format: "mistral-v11-call-id", mode: "strict" }).calls).toEqual([]);
    const r = parseToolCalls(bare, { tools: TOOLS, format: "mistral-v11-call-id" });
    expect(r.calls.map((c) => [c.name, c.id, c.valid])).toEqual([["ping", undefined, true]]);
  });

  it("streams the name before the id", () => {
    const s = new ToolCallStream({ format: "mistral-v11-call-id" });
    const names: string[] = [];
    for (const ch of text) for (const e of s.push(ch)) if (e.type === "call_name") names.push(e.name);
    expect(names).toEqual(["get_weather", "ping"]);
    expect(s.end().calls.map((c) => c.id)).toEqual(["a1B2c3D4e", "Zz9Yy8Xx7"]);
  });
});

describe("mistral-nemo", () => {
  const text = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1B2c3D4e"}]';

  it("writes the id last, and the grammar holds it to 9 alphanumerics", () => {
    expect(
      renderToolCalls([{ name: "get_weather", arguments: { city: "Paris" }, id: "a1B2c3D4e" }], "mistral-nemo"),
    ).toBe(text);
    const g = compileTools(TOOLS, { format: "mistral_nemo" });
    expect(g.accepts(text)).toBe(true);
    expect(g.accepts(text.replace("a1B2c3D4e", "call_1"))).toBe(false);
    expect(g.accepts('[TOOL_CALLS][{"name": "get_weather", "id": "a1B2c3D4e", "arguments": {"city": "Paris"}}]')).toBe(
      false,
    );
    const strict = parseToolCalls(text, { tools: TOOLS, format: "mistral-nemo", mode: "strict" });
    expect(strict.issues).toEqual([]);
    expect(strict.calls[0].id).toBe("a1B2c3D4e");
    // Mistral v0.3's order (id after the name) is read tolerantly, refused strictly
    const v03 = '[TOOL_CALLS][{"name": "get_weather", "id": "a1B2c3D4e", "arguments": {"city": "Paris"}}]';
    expect(parseToolCalls(v03, { tools: TOOLS, format: "mistral-nemo" }).calls.map((c) => c.id)).toEqual(["a1B2c3D4e"]);
    expect(parseToolCalls(v03, { tools: TOOLS, format: "mistral-nemo", mode: "strict" }).calls).toEqual([]);
  });

  it("the grammar requires the id its template writes in every call; tolerant parsing still reads a call without one", () => {
    const g = compileTools(TOOLS, { format: "mistral-nemo" });
    const bare = '[TOOL_CALLS][{"name": "ping", "arguments": {}}]';
    expect(g.accepts('[TOOL_CALLS][{"name": "ping", "arguments": {}, "id": "a1B2c3D4e"}]')).toBe(true);
    expect(g.accepts(bare)).toBe(false);
    expect(
      g.accepts(
        '[TOOL_CALLS][{"name": "ping", "arguments": {}, "id": "a1B2c3D4e"}, {"name": "ping", "arguments": {}}]',
      ),
    ).toBe(false);
    expect(parseToolCalls(bare, { tools: TOOLS, format: "mistral-nemo", mode: "strict" }).calls).toEqual([]);
    const r = parseToolCalls(bare, { tools: TOOLS, format: "mistral-nemo" });
    expect(r.calls.map((c) => [c.name, c.id, c.valid])).toEqual([["ping", undefined, true]]);
  });
});
