import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";
import { vocabularyFromGguf } from "../../src/node.js";
import { modelChatFor } from "../../src/prompt/ModelChat.js";
import { renderQwen3Prompt } from "../../src/prompt/qwen3ChatPrompt.js";
import { serverChatFor } from "../../src/server/serverChat.js";
import { tinyModel } from "../support/server/serverHarness.js";

describe("the server's prompt comes from the model's own template", () => {
  it("the tiny model's embedded Qwen3 template gives toolgram's Qwen3 / Hermes renderer", async () => {
    const vocab = await vocabularyFromGguf(await tinyModel());
    expect(vocab.chatTemplate).toBeDefined();
    const chat = serverChatFor(vocab.chatTemplate);
    expect(chat).toBe(modelChatFor(undefined));
    expect([chat.format, chat.promptSource]).toEqual(["qwen3", "qwen3"]);
  });

  it.each([
    ["Qwen3-Coder.jinja", "qwen3-coder"],
    ["meta-llama-Llama-3.1-8B-Instruct.jinja", "llama3-json"],
    ["openai-gpt-oss-120b.jinja", "openai"],
    ["llama-cpp-deepseek-r1.jinja", "deepseek-v3"],
  ])("llama.cpp's %s is served in its own format (%s), prompted by its template", async (file, format) => {
    const source = await llamaCppSource();
    if (source === undefined) return;
    const template = await readFile(join(source.dir, "models", "templates", file), "utf8");
    const chat = serverChatFor(template, { bosToken: "<s>", eosToken: "</s>" });
    expect([chat.format, chat.promptSource]).toEqual([format, "chat-template"]);
    // a turn that only calls tools comes back from OpenAI's clients with `content: null`
    const prompt = chat.render([
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
        ],
      },
      { role: "tool", content: "sunny" },
    ]);
    expect(prompt).toContain("get_weather");
    expect(prompt).toContain("sunny");
    // a stored turn goes in verbatim where the template takes it, else (gpt-oss checks that tool results follow a turn
    // with calls) as its message
    const call = { id: "call_1", type: "function" as const, function: { name: "get_weather", arguments: "{}" } };
    const replayed = chat.render([
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        verbatim: "VERBATIM_TURN_BYTES",
        message: { role: "assistant", content: null, tool_calls: [call] },
      },
      { role: "tool", content: "sunny" },
    ]);
    expect(replayed).toContain("sunny");
    if (!replayed.includes("VERBATIM_TURN_BYTES")) expect(replayed).toContain("get_weather");
  });

  it("a template that renders no tool call, or does not parse, is refused by name", () => {
    expect(() => serverChatFor("{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}")).toThrow(
      /does not render tool calls/,
    );
    expect(() => serverChatFor("{{ unclosed")).toThrow(/does not render tool calls/);
  });

  it("Qwen3's renderTurn writes a canonical turn back byte for byte (stateless replay)", () => {
    const text = 'Sure\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    const turn = serverChatFor(undefined).renderTurn({
      role: "assistant",
      content: "Sure",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
      ],
    });
    expect(turn).toBe(text);
  });

  it("a replayed turn's bytes go in as they were generated, between the turn's opening and end", () => {
    // not canonical: no newline between the content and the call, compact arguments
    const generated = 'Sure<tool_call>\n{"name": "get_weather", "arguments": {"city":"Paris"}}\n</tool_call>';
    const prompt = serverChatFor(undefined).render([
      { role: "user", content: "Weather?" },
      { role: "assistant", verbatim: generated },
      { role: "tool", content: "sunny" },
    ]);
    expect(prompt).toBe(
      `${renderQwen3Prompt([{ role: "user", content: "Weather?" }], { addGenerationPrompt: false })}<|im_start|>assistant\n${generated}<|im_end|>\n` +
        "<|im_start|>user\n<tool_response>\nsunny\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
    );
  });
});
