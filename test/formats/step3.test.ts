/**
 * Step-3's calls (`step-3`, vLLM's `step3`): the compact layout vLLM's parser and SGLang's detector document, and the
 * word vLLM's test outputs put between `<｜tool_sep｜>` and `<steptml:invoke` (TEXT_BEFORE_CALL, tolerant only).
 * (vLLM's own outputs: vllmParserOutputs.test.ts; every format's property tests cover it too.)
 */
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";

const TOOLS = [
  {
    name: "run_code",
    parameters: {
      type: "object",
      properties: { code: { type: "string" }, lines: { type: "integer" } },
      required: ["code", "lines"],
    },
  },
];
const CALL = { name: "run_code", arguments: { code: "if a < b: print(a)", lines: 1 } };

describe("step-3", () => {
  const text = renderToolCalls([CALL], "step3");

  it("writes the section, the typed block opening and the steptml call", () => {
    expect(text).toBe(
      '<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="run_code"><steptml:parameter name="code">if a < b: print(a)</steptml:parameter><steptml:parameter name="lines">1</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
    );
    expect(compileTools(TOOLS, { format: "step-3" }).accepts(text)).toBe(true);
    const r = parseToolCalls(text, { tools: TOOLS, format: "step-3", mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual([CALL]);
  });

  it("a word before the call's tag is a repair in tolerant mode and not canonical in strict mode", () => {
    const worded = text.replace("<｜tool_sep｜><steptml", "<｜tool_sep｜>run_code\n<steptml");
    const tolerant = parseToolCalls(worded, { tools: TOOLS, format: "step-3", mode: "tolerant" });
    expect(tolerant.calls.map((c) => c.arguments)).toEqual([CALL.arguments]);
    expect(tolerant.issues.map((i) => i.code)).toEqual(["TEXT_BEFORE_CALL"]);
    expect(parseToolCalls(worded, { tools: TOOLS, format: "step-3", mode: "strict" }).calls).toEqual([]);
    expect(compileTools(TOOLS, { format: "step-3" }).accepts(worded)).toBe(false);
  });

  it("markup before the call's tag is not skipped", () => {
    const marked = text.replace("<｜tool_sep｜><steptml", "<｜tool_sep｜><x>\n<steptml");
    expect(parseToolCalls(marked, { format: "step-3", mode: "tolerant" }).calls).toEqual([]);
  });
});
