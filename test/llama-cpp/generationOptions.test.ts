import type { LlamaModel } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { generateLazy } from "../../src/llama-cpp/generateLazy.js";
import { generateToolCalls } from "../../src/llama-cpp/generateToolCalls.js";

/**
 * A JavaScript caller that leaves `engine` out or misspells it gets INVALID_OPTION naming the choices, before the model
 * is touched (so no model is needed here), never an unconstrained generation it did not ask for.
 */
describe("generation options", () => {
  const base = { model: {} as LlamaModel, tools: [{ name: "f", parameters: { type: "object" } }], messages: [] };

  it("generateToolCalls refuses a missing or unknown engine", async () => {
    for (const engine of [undefined, "grammar"]) {
      await expect(generateToolCalls({ ...base, engine } as never)).rejects.toMatchObject({
        code: "INVALID_OPTION",
        message: expect.stringMatching(/^engine must be "gbnf", "matcher", "none"; got /),
      });
    }
  });

  it("generateLazy refuses an engine it has no path for", async () => {
    await expect(generateLazy({ ...base, engine: "none" } as never)).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: 'engine must be "gbnf", "matcher"; got "none"',
    });
  });
});
