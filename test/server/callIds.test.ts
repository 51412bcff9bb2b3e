import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callIdFormOf, fitCallId, mintCallId } from "../../src/server/callIds.js";
import { messageTarget, promptMessages } from "../../src/server/promptMessages.js";
import { ReplayStore } from "../../src/server/ReplayStore.js";
import { serverChatFor } from "../../src/server/serverChat.js";
import { TurnAssembler } from "../../src/server/TurnAssembler.js";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";
import type { RequestMessage } from "../../src/server/ChatRequest.js";

const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("served call ids take the shape of the format's ids", () => {
  it("OpenAI's call_ ids where the format takes any word, the format's own shape elsewhere", () => {
    expect(callIdFormOf("qwen3")).toBeUndefined();
    expect(mintCallId(callIdFormOf("qwen3"))).toMatch(/^call_[A-Za-z0-9]{24}$/);
    for (const format of ["mistral-nemo", "mistral-v11-call-id"]) {
      const ids = new Set(Array.from({ length: 50 }, () => mintCallId(callIdFormOf(format))));
      for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
      expect(ids.size).toBe(50);
    }
    // Command R7B's indices: digits, as long as the form lets them be
    expect(mintCallId(callIdFormOf("command-r7b"))).toMatch(/^[0-9]{6}$/);
  });

  it("a call carries the id the model wrote (Mistral), which the grammar and strict reading require", () => {
    const nemo = new TurnAssembler({ format: "mistral-nemo", tools: [WEATHER], stop: [] });
    const turn = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1b2c3d4e"}]';
    // the call's first delta waits for the id, written after the arguments
    const early = nemo.push(turn.slice(0, turn.indexOf('"id"')));
    expect(early.filter((d) => "tool_calls" in d)).toEqual([]);
    const late = [...nemo.push(turn.slice(turn.indexOf('"id"'))), ...nemo.end()];
    expect(late[0]).toEqual({
      tool_calls: [{ index: 0, id: "a1b2c3d4e", type: "function", function: { name: "get_weather", arguments: "" } }],
    });
    expect(nemo.turn.calls).toEqual([{ id: "a1b2c3d4e", name: "get_weather", arguments: '{"city": "Paris"}' }]);

    const small = new TurnAssembler({ format: "mistral-v11-call-id", tools: [WEATHER], stop: [] });
    small.push('[TOOL_CALLS]get_weather[CALL_ID]Zz9Yy8Xx7[ARGS]{"city": "Paris"}');
    small.end();
    expect(small.turn.calls.map((c) => c.id)).toEqual(["Zz9Yy8Xx7"]);
    // the grammar requires the id (the template writes one in every call), and strict reading follows it
    const bare = new TurnAssembler({ format: "mistral-v11-call-id", tools: [WEATHER], stop: [] });
    bare.push('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}');
    bare.end();
    expect(bare.turn.calls).toEqual([]);
    // so no id is minted for such a format: a call without an id of its form is no call
    for (const call of [
      '{"name": "get_weather", "arguments": {"city": "Paris"}}',
      '{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1b2"}',
    ]) {
      const unfit = new TurnAssembler({ format: "mistral-nemo", tools: [WEATHER], stop: [] });
      const deltas = [...unfit.push(`[TOOL_CALLS][${call}]`), ...unfit.end()];
      expect(deltas.filter((d) => "tool_calls" in d)).toEqual([]);
      expect(unfit.turn.calls).toEqual([]);
    }
  });

  it("a client's id of another shape is fitted: the same id to the same id, different ids apart, fitting ids kept", () => {
    const form = callIdFormOf("mistral-nemo");
    const a = fitCallId("call_abcdefghijklmnopqrstuvwx", form);
    expect(a).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(fitCallId("call_abcdefghijklmnopqrstuvwx", form)).toBe(a);
    expect(fitCallId("call_abcdefghijklmnopqrstuvwy", form)).not.toBe(a);
    expect(fitCallId("a1b2c3d4e", form)).toBe("a1b2c3d4e");
    expect(fitCallId("call_x", undefined)).toBe("call_x");
  });
});

/** A user's question, a turn calling get_weather with id `id`, and its result. */
function conversation(id: string, content: string | null): RequestMessage[] {
  return [
    { role: "user", content: "What is the weather in Paris?" },
    {
      role: "assistant",
      content,
      tool_calls: [{ id, type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } }],
    },
    { role: "tool", tool_call_id: id, content: '{"temperature": 21}' },
  ];
}

describe("the messages a chat template gets (as llama.cpp's common_chat gives them)", () => {
  it('a tool result keeps its call id (and name), fitted as its call\'s; a turn without content has content ""', () => {
    const target = messageTarget({ promptSource: "chat-template", format: "mistral-nemo" });
    const id = "call_abcdefghijklmnopqrstuvwx";
    const [, assistant, tool] = promptMessages(
      [...conversation(id, null).slice(0, 2), { role: "tool", tool_call_id: id, name: "get_weather", content: "21" }],
      new ReplayStore(4),
      target,
    );
    const fitted = fitCallId(id, target.idForm);
    expect(assistant).toMatchObject({ content: "", tool_calls: [{ id: fitted }] });
    expect(tool).toEqual({ role: "tool", content: "21", tool_call_id: fitted, name: "get_weather" });
    // toolgram's Qwen3 renderer takes the turn as it came
    const qwen3 = promptMessages(conversation(id, null), new ReplayStore(4), {
      promptSource: "qwen3",
      idForm: undefined,
    });
    expect(qwen3[1]).toMatchObject({ content: null, tool_calls: [{ id }] });
  });

  it.each([
    ["mistralai-Mistral-Nemo-Instruct-2407.jinja", "mistral-nemo"],
    ["Mistral-Small-3.2-24B-Instruct-2506.jinja", "mistral-v11-call-id"],
    ["CohereForAI-c4ai-command-r-plus-tool_use.jinja", "command-r-plus"],
    ["meetkai-functionary-medium-v3.1.jinja", "functionary-v3.1"],
  ])("llama.cpp's %s renders a second turn sent back by an OpenAI client (%s)", async (file, format) => {
    const source = await llamaCppSource();
    if (source === undefined) return;
    const template = await readFile(join(source.dir, "models", "templates", file), "utf8");
    const chat = serverChatFor(template, { bosToken: "<s>", eosToken: "</s>" });
    expect(chat.format).toBe(format);
    const id = "call_abcdefghijklmnopqrstuvwx";
    const prompt = chat.render(promptMessages(conversation(id, null), new ReplayStore(4), messageTarget(chat)), {
      tools: [WEATHER],
    });
    expect(prompt).toContain('{"temperature": 21}');
    const fitted = fitCallId(id, callIdFormOf(format));
    // the template writes ids: the call's and its result's are the same fitted id
    if (format.startsWith("mistral")) {
      expect(prompt.split(fitted).length - 1).toBe(2);
      expect(prompt).not.toContain(id);
    }
    // Command R+ writes empty content as nothing (None would be written "None")
    expect(prompt).not.toContain("None");
  });
});
