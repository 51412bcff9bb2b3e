import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileTools, parseToolCalls, toOpenAIToolCalls } from "../../src/index.js";
import {
  buildTinyModel,
  findLlamaServer,
  generateToolCalls,
  loadLlamaModel,
  renderQwen3Prompt,
  completion,
  startLlamaServer,
  templateTools,
  tinyModelPath,
} from "../../src/llama-cpp/index.js";
import { tinyQwen3 } from "../support/tinyQwen3.js";

/**
 * The two llama.cpp examples of docs/llama-cpp.md are the regions between the `example:` markers below, run here as
 * they are (a generation each: long tier). test/llama-cpp/readmeExamplesShown.test.ts checks, in the quick tier, that
 * the page shows them verbatim (with the package's import names), and that the README shows the llama-server one.
 */
const root = join(import.meta.dirname, "..", "..");
const tools = JSON.parse(readFileSync(join(root, "examples", "weather.tools.json"), "utf8")) as unknown[];
const messages = [{ role: "user" as const, content: "What is the weather in Paris?" }];
const server = await findLlamaServer();

describe("README examples", () => {
  it("node-llama-cpp: generateToolCalls returns valid calls and their exact bytes", async () => {
    // example: node-llama-cpp
    const { path } = await buildTinyModel({ seed: 0, outPath: tinyModelPath(0) }); // or any Qwen3 GGUF
    const model = await loadLlamaModel(path);
    const turn = await generateToolCalls({
      model,
      tools,
      messages,
      toolChoice: "required",
      engine: "matcher", // or "gbnf": llama.cpp's grammar sampler on toolgram's GBNF
      maxTokens: 256, // the call is closed within the budget
    });
    console.log(turn.calls[0].name, turn.calls[0].arguments, turn.calls[0].valid); // get_weather {...} true
    console.log(turn.blocks[0]); // the exact <tool_call>…</tool_call> bytes, to replay into the next prompt
    // end example
    // parallel calls are allowed: the sampled turn holds one or more calls, each valid, the first block leading
    expect(turn.calls.length).toBeGreaterThan(0);
    expect(turn.calls.every((c) => c.valid)).toBe(true);
    expect(turn.blocks.length).toBe(turn.calls.length);
    expect(turn.text.startsWith(turn.blocks[0])).toBe(true);
    await model.dispose();
  });

  it.skipIf(server === undefined)(
    "llama-server: /completion with toolgram's GBNF, calls as OpenAI tool_calls",
    async () => {
      const tiny = await tinyQwen3();
      const llamaServer = await startLlamaServer({ binary: server!, model: tiny.path });
      try {
        const url = llamaServer.url;
        // example: llama-server
        const compiled = compileTools(tools, { toolChoice: "required", parallel: false });
        // llama-server refuses `grammar` together with `tools`: toolgram renders the tools into the prompt itself
        const prompt = renderQwen3Prompt(messages, { tools: templateTools(tools, compiled.tools) });
        const response = await completion(url, { prompt, grammar: compiled.toGbnf(), n_predict: 256 });
        const { calls } = parseToolCalls(response.content, { tools, format: "qwen3", mode: "strict" });
        const toolCalls = toOpenAIToolCalls(calls); // [{ id, type: "function", function: { name, arguments: "{…}" } }]
        // end example
        expect(response.stop_type === "limit" || calls.every((c) => c.valid)).toBe(true);
        if (response.stop_type !== "limit") expect(toolCalls.length).toBe(1);
      } finally {
        await llamaServer.stop();
      }
    },
  );
});
