import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { describeFormat } from "../../src/formats/describeFormat.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "f",
      parameters: {
        type: "object",
        properties: { a: { type: "string" } },
        required: ["a"],
        additionalProperties: false,
      },
    },
  },
];

/**
 * A list format's opening marker with no call list after it (the end, another marker, text): the grammar refuses the
 * text, so strict parsing reports it; tolerant parsing reads it as before (an unclosed, empty block).
 */
describe("a list format's opening marker without its list", () => {
  for (const format of ["mistral", "hunyuan-a13b", "lfm2", "olmo-3"] as const satisfies readonly FormatName[]) {
    it(`${format}: refused by the grammar, NONCANONICAL in strict mode, the calls still read`, () => {
      const d = describeFormat(format);
      const open = d.open as string;
      const call = renderToolCalls([{ name: "f", arguments: { a: "x" } }], format);
      const g = compileTools(TOOLS, { format, reasoning: "none" });
      expect(g.accepts(call)).toBe(true);
      const texts = [open, `hi ${open}`, `${open}${call}`, `hi ${open}${call}`, `${call}${open}`];
      for (const text of texts) {
        expect(g.accepts(text), text).toBe(false);
        const strict = parseToolCalls(text, { tools: TOOLS, format, mode: "strict", reasoning: "none" });
        expect(
          strict.issues.map((i) => i.code),
          text,
        ).toContain("NONCANONICAL");
        expect(strict.issues.find((i) => i.code === "NONCANONICAL")?.message).toMatch(
          /is not followed by its call list|not the canonical/,
        );
        expect(strict.calls.length, text).toBe(text.includes(call) ? 1 : 0);
        // the stream reads as the batch does
        const s = new ToolCallStream({ tools: TOOLS, format, mode: "strict", reasoning: "none" });
        for (const ch of text) s.push(ch);
        const streamed = s.end();
        expect(streamed.issues.map((i) => i.code)).toEqual(strict.issues.map((i) => i.code));
        const tolerant = parseToolCalls(text, { tools: TOOLS, format, mode: "tolerant", reasoning: "none" });
        expect(tolerant.issues.map((i) => i.code)).toContain("UNCLOSED_BLOCK");
        expect(tolerant.calls.length, text).toBe(text.includes(call) ? 1 : 0);
      }
    });
  }
});
