import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { toOpenAIToolCalls } from "../../src/convert/openai.js";
import { buildTinyModel, tinyModelPath } from "../../src/gguf/buildTinyModel.js";
import { findLlamaServer } from "../../src/llama-cpp/llamaServerBinary.js";
import { renderQwen3Prompt, templateTools } from "../../src/prompt/qwen3ChatPrompt.js";
import {
  chatCompletion,
  completion,
  LlamaServerHttpError,
  startLlamaServer,
  type LlamaServerHandle,
} from "../../src/llama-cpp/llamaServerClient.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";

const binary = await findLlamaServer();
const SKIP_REASON = "llama-server is not built: run `npm run llama-server` (≈ 15 min once) to enable these tests";
if (binary === undefined) console.warn(`test/llama-cpp/toolCallsServer.long.test.ts skipped: ${SKIP_REASON}`);

const tools = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "examples", "weather.tools.json"), "utf8"),
) as unknown[];
const messages = [{ role: "user" as const, content: "What is the weather in Paris?" }];
// A random-weight model repeats its last token; the penalty lets its strings close within the token budget.
const SAMPLING = { temperature: 1.5, top_k: 40, repeat_penalty: 2, repeat_last_n: 64 };

let server: LlamaServerHandle | undefined;

describe.skipIf(binary === undefined)(
  `toolgram grammars in llama-server${binary === undefined ? ` (skipped: ${SKIP_REASON})` : ""}`,
  () => {
    beforeAll(async () => {
      const tiny = await buildTinyModel({ seed: 0, outPath: tinyModelPath(0) });
      server = await startLlamaServer({ binary: binary as string, model: tiny.path });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("/completion with toolgram's GBNF: every finished output is one valid call, as OpenAI tool_calls", async () => {
      const compiled = compileTools(tools, { toolChoice: "required", parallel: false });
      const prompt = renderQwen3Prompt(messages, { tools: templateTools(tools, compiled.tools) });
      let valid = 0;
      let cut = 0;
      for (let seed = 1; seed <= 10; seed++) {
        const r = await completion(server!.url, {
          prompt,
          grammar: compiled.toGbnf(),
          n_predict: 256,
          seed,
          ...SAMPLING,
        });
        if (r.stop_type === "limit") {
          // cut inside a string by n_predict: still a prefix of the language
          cut++;
          continue;
        }
        const parsed = parseToolCalls(r.content, { tools, format: "qwen3", mode: "strict" });
        expect(parsed.issues, JSON.stringify(r.content)).toEqual([]);
        expect(parsed.calls.map((c) => c.valid)).toEqual([true]);
        const openAi = toOpenAIToolCalls(parsed.calls);
        expect(openAi[0].type).toBe("function");
        expect(JSON.parse(openAi[0].function.arguments)).toEqual(parsed.calls[0].arguments);
        valid++;
      }
      console.log(
        `llama-server /completion + toolgram GBNF: ${valid}/10 valid calls, ${cut} cut at n_predict, 0 invalid`,
      );
      expect(valid + cut).toBe(10);
      expect(valid).toBeGreaterThan(0);
    });

    it("records llama-server's own tools + tool_choice 'required' next to toolgram's grammar", async () => {
      let ownCalls = 0;
      const outcomes: string[] = [];
      for (let seed = 1; seed <= 3; seed++) {
        try {
          const r = await chatCompletion(server!.url, {
            messages,
            tools,
            tool_choice: "required",
            max_tokens: 128,
            seed,
            ...SAMPLING,
          });
          const n = r.choices[0].message.tool_calls?.length ?? 0;
          ownCalls += n;
          outcomes.push(`seed ${seed}: ${n} tool_calls, finish=${r.choices[0].finish_reason}`);
        } catch (error) {
          if (!(error instanceof LlamaServerHttpError)) throw error;
          outcomes.push(`seed ${seed}: HTTP ${error.status}`);
        }
      }
      console.log(
        `llama-server tools + tool_choice "required" (its lazy grammar): ${ownCalls} calls in 3 requests\n  ${outcomes.join("\n  ")}`,
      );
      expect(outcomes.length).toBe(3);
    });
  },
);
