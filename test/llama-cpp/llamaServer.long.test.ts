import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTinyModel, tinyModelPath } from "../../src/gguf/buildTinyModel.js";
import { findLlamaServer } from "../../src/llama-cpp/llamaServerBinary.js";
import {
  chatCompletion,
  chatCompletionStream,
  completion,
  completionStream,
  LlamaServerHttpError,
  startLlamaServer,
  type LlamaServerHandle,
} from "../../src/llama-cpp/llamaServerClient.js";

const binary = await findLlamaServer();
const SKIP_REASON = "llama-server is not built: run `npm run llama-server` (≈ 15 min once) to enable these tests";
if (binary === undefined) console.warn(`test/llama-cpp/llamaServer.long.test.ts skipped: ${SKIP_REASON}`);

const SEED = 0;
const PROMPT = "<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n<|im_start|>assistant\n";
const TOOL_CALL_GBNF =
  'root ::= "<tool_call>\\n{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"" [a-zA-Z ]{1,20} "\\"}}\\n</tool_call>"';
const TOOL_CALL_SHAPE =
  /^<tool_call>\n\{"name": "get_weather", "arguments": \{"city": "[a-zA-Z ]{1,20}"\}\}\n<\/tool_call>$/;
const WEATHER_TOOL = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

let server: LlamaServerHandle | undefined;

describe.skipIf(binary === undefined)(
  `llama-server on the tiny model${binary === undefined ? ` (skipped: ${SKIP_REASON})` : ""}`,
  () => {
    beforeAll(async () => {
      const tiny = await buildTinyModel({ seed: SEED, outPath: tinyModelPath(SEED) });
      const started = performance.now();
      server = await startLlamaServer({ binary: binary as string, model: tiny.path });
      console.log(
        `llama-server ready in ${(performance.now() - started).toFixed(0)} ms at ${server.url} (pid ${server.pid})`,
      );
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("/completion without a grammar generates", async () => {
      const r = await completion(server!.url, { prompt: PROMPT, n_predict: 64, temperature: 1, seed: 1 });
      console.log(`unconstrained: ${r.tokens_predicted} tokens, ${r.timings?.predicted_per_second?.toFixed(0)} tok/s`);
      expect(r.tokens_predicted).toBeGreaterThan(0);
    });

    it("/completion with a grammar returns exactly the tool-call shape", async () => {
      for (const seed of [1, 2]) {
        const r = await completion(server!.url, {
          prompt: PROMPT,
          grammar: TOOL_CALL_GBNF,
          n_predict: 200,
          temperature: 1,
          seed,
        });
        console.log(
          `GBNF seed ${seed}: ${r.tokens_predicted} tokens, ${r.timings?.predicted_per_second?.toFixed(0)} tok/s ${JSON.stringify(r.content)}`,
        );
        expect(r.content).toMatch(TOOL_CALL_SHAPE);
      }
    });

    it("streams /completion chunks that add up to the non-streamed text", async () => {
      const request = { prompt: PROMPT, grammar: TOOL_CALL_GBNF, n_predict: 200, temperature: 0 };
      const whole = await completion(server!.url, request);
      let streamed = "";
      let chunks = 0;
      for await (const chunk of completionStream(server!.url, request)) {
        streamed += chunk.content;
        chunks++;
      }
      expect(chunks).toBeGreaterThan(5);
      expect(streamed).toBe(whole.content);
      expect(streamed).toMatch(TOOL_CALL_SHAPE);
    });

    it("/v1/chat/completions with a grammar returns the shape; streamed deltas agree", async () => {
      const request = {
        messages: [{ role: "user", content: "What is the weather in Paris?" }],
        grammar: TOOL_CALL_GBNF,
        max_tokens: 200,
        temperature: 0,
      };
      const r = await chatCompletion(server!.url, request);
      const message = r.choices[0].message;
      // The server parses Qwen3 <tool_call> blocks out of the text into tool_calls, or leaves them as content.
      console.log(`chat + grammar: ${JSON.stringify(message)}`);
      const text = message.content ?? "";
      const calls = message.tool_calls ?? [];
      expect(text.match(TOOL_CALL_SHAPE) !== null || calls.length === 1).toBe(true);
      let streamed = "";
      for await (const chunk of chatCompletionStream(server!.url, request))
        streamed += chunk.choices[0]?.delta.content ?? "";
      if (calls.length === 0) expect(streamed).toBe(text);
    });

    it("refuses an unparsable grammar with HTTP 400", async () => {
      const error = await completion(server!.url, {
        prompt: "x",
        grammar: 'root ::= "unterminated',
        n_predict: 4,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlamaServerHttpError);
      expect((error as LlamaServerHttpError).status).toBe(400);
    });

    it("refuses grammar together with tools", async () => {
      const error = await chatCompletion(server!.url, {
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [WEATHER_TOOL],
        grammar: TOOL_CALL_GBNF,
        max_tokens: 50,
      }).catch((e: unknown) => e);
      console.log(
        `grammar + tools: ${error instanceof LlamaServerHttpError ? `HTTP ${error.status} ${error.body}` : JSON.stringify(error)}`,
      );
      expect(error).toBeInstanceOf(LlamaServerHttpError);
      expect((error as LlamaServerHttpError).status).toBe(400);
    });

    it("records what tools + tool_choice 'required' does with a random model", async () => {
      const outcomes: string[] = [];
      for (const seed of [1, 2, 3]) {
        try {
          const r = await chatCompletion(server!.url, {
            messages: [{ role: "user", content: "What is the weather in Paris?" }],
            tools: [WEATHER_TOOL],
            tool_choice: "required",
            max_tokens: 64,
            temperature: 1,
            seed,
          });
          const m = r.choices[0].message;
          outcomes.push(
            `seed ${seed}: finish=${r.choices[0].finish_reason} tool_calls=${m.tool_calls?.length ?? 0} content=${JSON.stringify((m.content ?? "").slice(0, 60))}`,
          );
        } catch (error) {
          if (!(error instanceof LlamaServerHttpError)) throw error;
          outcomes.push(`seed ${seed}: HTTP ${error.status} ${error.body.slice(0, 120)}`);
        }
      }
      console.log(`tools + tool_choice "required":\n  ${outcomes.join("\n  ")}`);
      expect(outcomes.length).toBe(3);
    });
  },
);
