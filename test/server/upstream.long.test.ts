import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findLlamaServer, startLlamaServer, type LlamaServerHandle } from "../../src/llama-cpp/index.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { expectValidCalls, postRaw, tinyModel, TOOLS, withoutIds } from "../support/server/serverHarness.js";

/**
 * `toolgram serve --upstream` in front of a real llama-server on the tiny model: the same client tests as in
 * process, the KV-cache reuse llama-server reports, and the upstream killed mid-stream.
 */
const binary = await findLlamaServer();
const SKIP_REASON = "llama-server is not built: run `npm run llama-server` (≈ 15 min once) to enable these tests";
if (binary === undefined) console.warn(`test/server/upstream.long.test.ts skipped: ${SKIP_REASON}`);

let llama: LlamaServerHandle;
let server: RunningServer;
let client: OpenAI;
let modelPath: string;
const messages = [{ role: "user" as const, content: "What is the weather in Paris, and the time in Tokyo?" }];

describe.skipIf(binary === undefined)(
  `toolgram serve --upstream llama-server${binary === undefined ? ` (skipped: ${SKIP_REASON})` : ""}`,
  () => {
    beforeAll(async () => {
      modelPath = await tinyModel();
      llama = await startLlamaServer({ binary: binary!, model: modelPath });
      server = await startServer({ upstream: llama.url, port: 0 });
      client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused", maxRetries: 0 });
    });
    afterAll(async () => {
      await server?.close();
      await llama?.stop();
    });

    it("tool_choice required and named: valid calls; streamed = non-streamed for the same seed", async () => {
      const request = {
        model: "tiny",
        messages,
        tools: TOOLS,
        tool_choice: "required" as const,
        max_tokens: 160,
        seed: 7,
        temperature: 1,
      };
      const whole = await client.chat.completions.create(request);
      const calls = (whole.choices[0].message.tool_calls ?? []).filter((c) => c.type === "function");
      if (whole.choices[0].finish_reason !== "length") {
        expect(whole.choices[0].finish_reason).toBe("tool_calls");
        expectValidCalls(calls);
      }
      const stream = await client.chat.completions.create({ ...request, stream: true });
      const streamed: Array<{ name: string; arguments: string }> = [];
      for await (const chunk of stream) {
        for (const d of chunk.choices[0]?.delta.tool_calls ?? []) {
          if (d.id !== undefined)
            streamed.push({ name: d.function?.name ?? "", arguments: d.function?.arguments ?? "" });
          else streamed[d.index].arguments += d.function?.arguments ?? "";
        }
      }
      expect(streamed).toEqual(withoutIds(calls));

      const named = await client.chat.completions.create({
        ...request,
        seed: 8,
        tool_choice: { type: "function", function: { name: "get_time" } },
      });
      const namedCalls = (named.choices[0].message.tool_calls ?? []).filter((c) => c.type === "function");
      if (named.choices[0].finish_reason !== "length") expectValidCalls(namedCalls);
      expect(namedCalls.every((c) => c.function.name === "get_time")).toBe(true);
    });

    it("two turns: llama-server reuses the first turn from its KV cache (tokens_cached)", async () => {
      const first = await client.chat.completions.create({
        model: "tiny",
        messages,
        tools: TOOLS,
        tool_choice: "required",
        max_tokens: 160,
        seed: 11,
        parallel_tool_calls: false,
      });
      const assistant = first.choices[0].message;
      const calls = (assistant.tool_calls ?? []).filter((c) => c.type === "function");
      expect(first.choices[0].finish_reason).toBe("tool_calls");
      expectValidCalls(calls);
      const second = await client.chat.completions.create({
        model: "tiny",
        tools: TOOLS,
        max_tokens: 32,
        seed: 12,
        messages: [
          ...messages,
          { role: "assistant", content: assistant.content, tool_calls: assistant.tool_calls },
          ...calls.map((c) => ({ role: "tool" as const, tool_call_id: c.id, content: '{"ok": true}' })),
        ],
      });
      const cached = second.usage?.prompt_tokens_details?.cached_tokens ?? 0;
      console.log(
        `upstream: turn 1 ${first.usage?.prompt_tokens} prompt + ${first.usage?.completion_tokens} generated; turn 2 ${second.usage?.prompt_tokens} prompt, ${cached} cached`,
      );
      expect(cached).toBeGreaterThan(first.usage!.prompt_tokens);
    });

    it("the upstream killed mid-stream: the client gets a clean error and the server keeps serving", async () => {
      const stream = await client.chat.completions.create({
        model: "tiny",
        messages: [{ role: "user", content: "Tell me a long story." }],
        max_tokens: 4000,
        seed: 1,
        stream: true,
      });
      let chunks = 0;
      const read = (async () => {
        for await (const _ of stream) {
          chunks++;
          if (chunks === 5) void llama.stop();
        }
      })();
      await expect(read).rejects.toThrow(/llama-server|upstream|terminated|fetch failed/i);
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(503);
      const down = await postRaw(server.url, JSON.stringify({ messages, max_tokens: 4 }));
      expect(down.status).toBe(502);
      expect(down.json.error.code).toBe("upstream_error");
      // a new llama-server on the same port: the same toolgram server serves again
      llama = await startLlamaServer({ binary: binary!, model: modelPath, port: llama.port });
      const up = await postRaw(
        server.url,
        JSON.stringify({ messages, tools: TOOLS, tool_choice: "required", max_tokens: 160, seed: 2 }),
      );
      expect(up.status).toBe(200);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    });

    it("a tool GBNF cannot hold (a URI under maxLength 2048) is a 400 naming the schema, and the server serves on", async () => {
      const url = { type: "string", format: "uri", maxLength: 2048 };
      const tools = [
        {
          type: "function",
          function: {
            name: "fetch_page",
            parameters: { type: "object", properties: { url }, required: ["url"], additionalProperties: false },
          },
        },
      ];
      const r = await postRaw(server.url, JSON.stringify({ messages, tools, tool_choice: "required", max_tokens: 16 }));
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe("LIMIT_GRAMMAR_SIZE");
      expect(r.json.error.message).toContain("GBNF");
      expect(r.json.error.message).toContain("/properties/url");
      const ok = await postRaw(
        server.url,
        JSON.stringify({ messages, tools: TOOLS, tool_choice: "required", max_tokens: 16 }),
      );
      expect(ok.status).toBe(200);
    });
  },
);
