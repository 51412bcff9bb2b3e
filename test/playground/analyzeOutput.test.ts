import { describe, expect, it } from "vitest";
import { analyzeOutput, describeBytes } from "../../playground/src/analyzeOutput.js";
import { compileTools } from "../../src/index.js";

// The playground's verdict on typed model output: the longest accepted prefix and what the grammar expected there.
const tools = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 7 } },
        required: ["city"],
      },
    },
  },
];
const compiled = compileTools(tools, { toolChoice: "required", parallel: false });
const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>';

describe("analyzeOutput", () => {
  it("accepts a whole call", () => {
    expect(analyzeOutput(compiled, call)).toMatchObject({
      acceptedLength: call.length,
      complete: true,
      leaves: false,
      bytesToComplete: 0,
    });
  });

  it("stops where the text leaves the language and names what was expected", () => {
    const bad = call.replace('"days": 3', '"days": 9');
    const a = analyzeOutput(compiled, bad);
    expect(a.leaves).toBe(true);
    expect(bad.slice(0, a.acceptedLength)).toBe(call.slice(0, call.indexOf("3")));
    expect(a.expected).toEqual(["1–7"]);
  });

  it("calls a valid start incomplete, with the forced continuation", () => {
    const a = analyzeOutput(compiled, '<tool_call>\n{"name": "get_w');
    expect(a).toMatchObject({ complete: false, leaves: false, forced: 'eather", "arguments": {"city": "' });
    expect(a.bytesToComplete).toBeGreaterThan(20);
  });

  it("walks non-ASCII text by characters", () => {
    const text = call.replace("Paris", "東京 🎉");
    expect(analyzeOutput(compiled, text)).toMatchObject({ acceptedLength: text.length, complete: true });
  });

  it("describes allowed bytes as characters and ranges", () => {
    expect(describeBytes([0x0a, 0x20, 0x30, 0x31, 0x32, 0x33, 0x7d, 0xc3])).toEqual([
      "a non-ASCII character",
      "\\n",
      "space",
      "0–3",
      "}",
    ]);
  });
});
