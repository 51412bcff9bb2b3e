import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Referee } from "../../src/conformance/referee.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { expectValidCalls, tinyModel, TOOLS, withoutIds } from "../support/server/serverHarness.js";

/**
 * `toolgram serve --model` (in process, the tiny random-weight Qwen3 model) driven by the official openai client:
 * whatever the weights, every call it returns parses and validates, and streaming adds up to the same turn.
 */
let server: RunningServer;
let client: OpenAI;
const messages = [{ role: "user" as const, content: "What is the weather in Paris, and the time in Tokyo?" }];

describe("toolgram serve (in process) with the openai client", () => {
  beforeAll(async () => {
    server = await startServer({ model: await tinyModel(), port: 0 });
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused" });
  });
  it("lists the model and reports health", async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["tiny-qwen3-0.gguf"]);
    const health = (await (await fetch(`${server.url}/health`)).json()) as { status: string };
    expect(health.status).toBe("ok");
  });

  afterAll(async () => {
    // what the requests above (every test of this file) left left in /metrics: grammar compiles and cache hits, mask time per token, tokens
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    for (const name of [
      "toolgram_grammar_compile_seconds_count",
      'toolgram_grammar_cache_lookups_total{result="hit"}',
      "toolgram_mask_seconds_per_token_count",
      'toolgram_tokens_total{kind="cached"}',
    ]) {
      expect(
        Number(new RegExp(`^${name.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(metrics)?.[1]),
        name,
      ).toBeGreaterThan(0);
    }
    expect(metrics).toMatch(/^toolgram_queue_depth 0$/m);
    await server?.close();
  });

  it("tool_choice required: valid calls, finish_reason tool_calls; streamed = non-streamed for the same seed", async () => {
    const request = {
      model: "tiny",
      messages,
      tools: TOOLS,
      tool_choice: "required" as const,
      max_completion_tokens: 96,
      seed: 7,
      temperature: 1,
    };
    const whole = await client.chat.completions.create(request);
    const choice = whole.choices[0];
    expect(choice.finish_reason).toBe("tool_calls");
    const calls = (choice.message.tool_calls ?? []).filter((c) => c.type === "function");
    expect(calls.length).toBeGreaterThan(0);
    expectValidCalls(calls);
    for (const c of calls) expect(c.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(whole.usage?.completion_tokens).toBeLessThanOrEqual(96);

    const stream = await client.chat.completions.create({
      ...request,
      stream: true,
      stream_options: { include_usage: true },
    });
    const streamed: Array<{ id: string; name: string; arguments: string }> = [];
    let content = "";
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const c = chunk.choices[0];
      if (c === undefined) continue;
      content += c.delta.content ?? "";
      for (const d of c.delta.tool_calls ?? []) {
        if (d.id !== undefined) {
          // the first delta of a call carries its index, id and name
          expect(d.index).toBe(streamed.length);
          streamed.push({ id: d.id, name: d.function?.name ?? "", arguments: d.function?.arguments ?? "" });
        } else {
          streamed[d.index].arguments += d.function?.arguments ?? "";
        }
      }
      if (c.finish_reason) finish = c.finish_reason;
    }
    expect(finish).toBe("tool_calls");
    expect(usage).toMatchObject({
      completion_tokens: whole.usage?.completion_tokens,
      prompt_tokens: whole.usage?.prompt_tokens,
    });
    expect(content).toBe(choice.message.content ?? "");
    expect(streamed.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(withoutIds(calls));
  });

  it("tool_choice named and allowed_tools: only that tool; auto: valid calls or text", async () => {
    const named = await client.chat.completions.create({
      model: "tiny",
      messages,
      tools: TOOLS,
      tool_choice: { type: "function", function: { name: "get_time" } },
      max_tokens: 96,
      seed: 3,
    });
    const namedCalls = named.choices[0].message.tool_calls ?? [];
    expect(namedCalls.length).toBeGreaterThan(0);
    expectValidCalls(namedCalls.filter((c) => c.type === "function"));
    expect(namedCalls.every((c) => c.type === "function" && c.function.name === "get_time")).toBe(true);

    const allowed = await client.chat.completions.create({
      model: "tiny",
      messages,
      tools: TOOLS,
      max_tokens: 96,
      seed: 4,
      parallel_tool_calls: false,
      tool_choice: {
        type: "allowed_tools",
        allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: "get_weather" } }] },
      },
    });
    const allowedCalls = allowed.choices[0].message.tool_calls ?? [];
    expect(allowedCalls.length).toBe(1);
    expect(allowedCalls[0].type === "function" && allowedCalls[0].function.name).toBe("get_weather");

    for (const seed of [1, 2]) {
      const auto = await client.chat.completions.create({
        model: "tiny",
        messages,
        tools: TOOLS,
        tool_choice: "auto",
        max_tokens: 64,
        seed,
      });
      const m = auto.choices[0].message;
      expectValidCalls((m.tool_calls ?? []).filter((c) => c.type === "function"));
      expect(["stop", "tool_calls", "length"]).toContain(auto.choices[0].finish_reason);
      if ((m.tool_calls ?? []).length > 0) expect(auto.choices[0].finish_reason).toBe("tool_calls");
      expect(m.content ?? "").not.toContain("<tool_call>");
    }
  });

  it("a URI under maxLength 2048 (a counted string, which GBNF cannot hold) is served by the masks: calls validate", async () => {
    const parameters = {
      type: "object",
      properties: { url: { type: "string", format: "uri", maxLength: 2048 } },
      required: ["url"],
      additionalProperties: false,
    };
    const tools = [{ type: "function" as const, function: { name: "fetch_page", parameters } }];
    const validate = new Referee().validator(parameters);
    let ended = 0;
    for (const seed of [1, 2, 3]) {
      const r = await client.chat.completions.create({
        model: "tiny",
        messages,
        tools,
        tool_choice: "required",
        max_tokens: 400,
        seed,
      });
      if (r.choices[0].finish_reason === "length") continue;
      expect(r.choices[0].finish_reason).toBe("tool_calls");
      for (const call of r.choices[0].message.tool_calls ?? []) {
        if (call.type !== "function") continue;
        expect(validate(JSON.parse(call.function.arguments)), call.function.arguments).toBe(true);
        ended++;
      }
    }
    expect(ended).toBeGreaterThan(0);
  });

  it("two turns: the calls and their results go back; the second prompt reuses the first turn's KV cache", async () => {
    const first = await client.chat.completions.create({
      model: "tiny",
      messages,
      tools: TOOLS,
      tool_choice: "required",
      max_tokens: 96,
      seed: 11,
    });
    const assistant = first.choices[0].message;
    const calls = (assistant.tool_calls ?? []).filter((c) => c.type === "function");
    expectValidCalls(calls);
    const second = await client.chat.completions.create({
      model: "tiny",
      tools: TOOLS,
      tool_choice: "auto",
      max_tokens: 48,
      seed: 12,
      messages: [
        ...messages,
        { role: "assistant", content: assistant.content, tool_calls: assistant.tool_calls },
        ...calls.map((c) => ({
          role: "tool" as const,
          tool_call_id: c.id,
          content: JSON.stringify({ ok: true, for: c.function.name }),
        })),
      ],
    });
    expectValidCalls((second.choices[0].message.tool_calls ?? []).filter((c) => c.type === "function"));
    const firstPrompt = first.usage!.prompt_tokens;
    const cached = second.usage!.prompt_tokens_details?.cached_tokens ?? 0;
    console.log(
      `turn 1: ${firstPrompt} prompt + ${first.usage!.completion_tokens} generated tokens; turn 2: ${second.usage!.prompt_tokens} prompt tokens, ${cached} reused from the KV cache`,
    );
    // The whole first prompt and the generated tokens after it were already evaluated (all but the last, which the
    // turn ended on without feeding it back): the replayed turn is the model's exact bytes, tokenized as sampled.
    expect(cached).toBeGreaterThanOrEqual(firstPrompt + first.usage!.completion_tokens - 1);
    expect(cached).toBeLessThan(second.usage!.prompt_tokens);
  });

  it("reasoning_mode required: reasoning_content in the message and in the stream, then valid calls", async () => {
    const request = {
      model: "tiny",
      messages,
      tools: TOOLS,
      tool_choice: "required" as const,
      max_tokens: 96,
      seed: 9,
      reasoning_mode: "required",
    };
    const whole = await client.chat.completions.create(request as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const message = whole.choices[0].message as (typeof whole.choices)[0]["message"] & { reasoning_content?: string };
    expect(typeof message.reasoning_content).toBe("string");
    expect(whole.choices[0].finish_reason).toBe("tool_calls");
    expectValidCalls((message.tool_calls ?? []).filter((c) => c.type === "function"));
    const stream = await client.chat.completions.create({
      ...request,
      stream: true,
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    let reasoning = "";
    for await (const chunk of stream)
      reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? "";
    expect(reasoning).toBe(message.reasoning_content);
    // a mode the request cannot have is a 400 naming the parameter
    await expect(
      client.chat.completions.create({
        ...request,
        reasoning_mode: "always",
      } as OpenAI.ChatCompletionCreateParamsNonStreaming),
    ).rejects.toMatchObject({ status: 400, param: "reasoning_mode" });
  });

  it("response_format json_schema strict: the content is one JSON value of the schema", async () => {
    const schema = {
      type: "object",
      properties: { answer: { type: "integer", minimum: 0, maximum: 9 } },
      required: ["answer"],
      additionalProperties: false,
    };
    const r = await client.chat.completions.create({
      model: "tiny",
      messages: [{ role: "user", content: "Pick a digit." }],
      max_tokens: 48,
      seed: 5,
      response_format: { type: "json_schema", json_schema: { name: "digit", schema, strict: true } },
    });
    const value = JSON.parse(r.choices[0].message.content ?? "") as { answer: number };
    expect(Object.keys(value)).toEqual(["answer"]);
    expect(value.answer).toBeGreaterThanOrEqual(0);
    expect(value.answer).toBeLessThanOrEqual(9);
  });
});
