import { describe, expect, it } from "vitest";
import { chatFormatFor, qwen3ChatFormat } from "../../src/server/index.js";
import { tinyModel } from "./support.js";
import { vocabularyFromGguf } from "../../src/node.js";

describe("the server's chat format comes from the model's own template", () => {
  it("the tiny model's embedded Qwen3 template gives the Qwen3 / Hermes format", async () => {
    const vocab = await vocabularyFromGguf(await tinyModel());
    expect(vocab.chatTemplate).toBeDefined();
    expect(chatFormatFor(vocab.chatTemplate)).toBe(qwen3ChatFormat);
  });

  it("a template that renders no tool call, or does not parse, is refused by name", () => {
    expect(() => chatFormatFor("{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}")).toThrow(
      /does not render tool calls/,
    );
    expect(() => chatFormatFor("{{ unclosed")).toThrow(/does not render tool calls/);
  });

  it("Qwen3's renderTurn writes a canonical turn back byte for byte (stateless replay)", () => {
    const text = 'Sure\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    const turn = qwen3ChatFormat.renderTurn({
      role: "assistant",
      content: "Sure",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
      ],
    });
    expect(turn).toBe(text);
  });
});
