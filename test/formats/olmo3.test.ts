/**
 * OLMo 3's calls stand one a line without brackets inside `<function_calls>` (FormatDescription.list): each call ends
 * where its parenthesis closes, whatever its strings hold. (vLLM's own outputs: vllmParserOutputs.test.ts; every
 * format's property tests cover it too.)
 */
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import type { JsonObject } from "../../src/json.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";

const TOOLS = [
  {
    name: "write",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, text: { type: "string" } },
      required: ["path", "text"],
    },
  },
  { name: "now", parameters: { type: "object", properties: {} } },
];
const CALLS: { name: string; arguments: JsonObject }[] = [
  { name: "write", arguments: { path: "a.txt", text: 'f(x)\n</function_calls>\n"done")' } },
  { name: "now", arguments: {} },
];

describe("olmo-3", () => {
  const text = renderToolCalls(CALLS, "olmo3", { content: "Writing it." });

  it("writes one call a line inside the block, strings escaped as JSON", () => {
    expect(text).toBe(
      'Writing it.<function_calls>write(path="a.txt", text="f(x)\\n</function_calls>\\n\\"done\\")")\nnow()</function_calls>',
    );
  });

  it("the grammar accepts it and strict parsing reads exactly the calls, strings holding ) and the closing marker", () => {
    expect(compileTools(TOOLS, { format: "olmo-3" }).accepts(text)).toBe(true);
    const r = parseToolCalls(text, { tools: TOOLS, format: "olmo-3", mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.content).toBe("Writing it.");
    expect(r.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(CALLS);
  });

  it("strict parsing refuses another separator (the grammar's one spelling), tolerant parsing reads it", () => {
    const commas = text.replace(")\nnow()", "), now()");
    expect(compileTools(TOOLS, { format: "olmo-3" }).accepts(commas)).toBe(false);
    expect(parseToolCalls(commas, { format: "olmo-3", mode: "strict" }).calls).toEqual([]);
    expect(parseToolCalls(commas, { format: "olmo-3", mode: "tolerant" }).calls.map((c) => c.name)).toEqual([
      "write",
      "now",
    ]);
  });

  it("a stream reports each call's name before its arguments end", () => {
    const s = new ToolCallStream({ format: "olmo-3" });
    const events = [...text].flatMap((ch) => s.push(ch));
    const names = events.filter((e) => e.type === "call_name").map((e) => (e as { name: string }).name);
    expect(names).toEqual(["write", "now"]);
    expect(s.end().calls.map((c) => c.arguments)).toEqual(CALLS.map((c) => c.arguments));
  });

  it("OLMo 3 Think: the turn starts inside the reasoning its prompt opened, and </think> ends it before the calls", () => {
    const think = renderToolCalls(CALLS, "olmo-3", { reasoning: "I should write the file.", content: "Writing it." });
    expect(think.startsWith("I should write the file.</think>Writing it.<function_calls>")).toBe(true);
    const g = compileTools(TOOLS, { format: "olmo-3", reasoning: "required" });
    expect(g.accepts(think)).toBe(true);
    expect(g.accepts(text)).toBe(false);
    const r = parseToolCalls(think, { tools: TOOLS, format: "olmo-3", mode: "strict", reasoning: "required" });
    expect(r.issues).toEqual([]);
    expect(r.reasoning).toBe("I should write the file.");
    expect(r.calls.map((c) => c.name)).toEqual(["write", "now"]);
    // a call inside the reasoning is not a call
    const inside = parseToolCalls("<function_calls>now()</function_calls></think>Done.", {
      format: "olmo-3",
      reasoning: "required",
    });
    expect(inside.calls).toEqual([]);
    // without reasoning asked for (the Instruct models), the default reads no block
    expect(compileTools(TOOLS, { format: "olmo-3" }).reasoning).toBeNull();
    expect(() => compileTools(TOOLS, { format: "olmo-3", reasoning: "optional" })).toThrow(/needs an opening marker/);
  });

  it("a block cut off inside a call keeps the complete calls before it", () => {
    const r = parseToolCalls('<function_calls>now()\nwrite(path="a', { format: "olmo-3", mode: "tolerant" });
    expect(r.calls.map((c) => c.name)).toEqual(["now"]);
    expect(r.dropped).toBe(1);
    expect(r.issues.map((i) => i.code)).toEqual(["TRUNCATED", "UNCLOSED_BLOCK"]);
  });
});
