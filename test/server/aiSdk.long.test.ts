import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { expectValidCalls, tinyModel, TOOLS } from "../support/server/serverHarness.js";

/** The Vercel AI SDK's OpenAI-compatible provider, a second client people use, against `toolgram serve`. */
let server: RunningServer;

function sdkTools() {
  return Object.fromEntries(
    TOOLS.map((t) => [
      t.function.name,
      tool({ description: t.function.description, inputSchema: jsonSchema(t.function.parameters as never) }),
    ]),
  );
}

describe("toolgram serve with the Vercel AI SDK", () => {
  beforeAll(async () => {
    server = await startServer({ model: await tinyModel(), port: 0, apiKey: "sdk-key" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("generateText and streamText return the same valid calls for the same seed", async () => {
    const provider = createOpenAICompatible({ name: "toolgram", baseURL: `${server.url}/v1`, apiKey: "sdk-key" });
    const request = {
      model: provider.chatModel("tiny"),
      tools: sdkTools(),
      toolChoice: "required" as const,
      prompt: "Weather in Paris?",
      seed: 21,
      maxOutputTokens: 96,
    };
    const whole = await generateText(request);
    expect(whole.toolCalls.length).toBeGreaterThan(0);
    const asOpenAI = whole.toolCalls.map((c) => ({
      function: { name: c.toolName, arguments: JSON.stringify(c.input) },
    }));
    expectValidCalls(asOpenAI);
    expect(whole.finishReason).toBe("tool-calls");

    const streamed = streamText(request);
    const calls = await streamed.toolCalls;
    expect(calls.map((c) => [c.toolName, c.input])).toEqual(whole.toolCalls.map((c) => [c.toolName, c.input]));
    expect(await streamed.finishReason).toBe("tool-calls");
  });

  it("a wrong key is refused with 401", async () => {
    const provider = createOpenAICompatible({ name: "toolgram", baseURL: `${server.url}/v1`, apiKey: "wrong" });
    await expect(
      generateText({ model: provider.chatModel("tiny"), prompt: "hi", maxOutputTokens: 4, maxRetries: 0 }),
    ).rejects.toThrow(/API key/);
  });
});
