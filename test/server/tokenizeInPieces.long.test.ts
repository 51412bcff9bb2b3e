import { afterAll, describe, expect, it } from "vitest";
import type { LlamaModel } from "node-llama-cpp";
import { buildTinyModel, tinyModelPath, type TinyModelFamilyName } from "../../src/gguf/buildTinyModel.js";
import { loadLlamaModel } from "../../src/llama-cpp/index.js";
import type { JsonValue } from "../../src/json.js";
import { modelChatFor } from "../../src/prompt/ModelChat.js";
import { pieceEnds, piecesAreExact, tokenizeInPieces } from "../../src/server/tokenizeInPieces.js";
import { serveToolSets } from "../../bench/serve/toolSets.js";
import { tinyQwen3 } from "../support/tinyQwen3.js";

/**
 * A long prompt tokenized in pieces (a turn of the event loop between two) gives the tokens of the whole prompt, for
 * each tiny model's real vocabulary that passes the check, on the 117 GitHub MCP tools' prompt (cut into many
 * pieces). The Qwen3 vocabulary passes the check, so the comparison runs at least once.
 */
const models: LlamaModel[] = [];
afterAll(async () => {
  for (const m of models) await m.dispose();
});

/** The prompt of the 117 GitHub MCP tools, as the server renders it for a Qwen3 model. */
function githubPrompt(): string {
  const github = serveToolSets().find((s) => s.name.startsWith("GitHub"));
  if (github === undefined) throw new Error("the GitHub MCP tool set is missing");
  return modelChatFor(undefined).render([{ role: "user", content: github.prompt }], {
    tools: github.tools as unknown as JsonValue[],
  });
}

/** A chat template for the tiny models (gpt-oss's tokenizer package has none; tokenizing does not read it). */
const TEMPLATE = "{% for m in messages %}{{ m.content }}{% endfor %}";

/** The family's tiny model's tokenizer (special tokens read as such, as the server tokenizes prompts). */
async function tinyTokenizer(family: TinyModelFamilyName): Promise<(text: string) => number[]> {
  const path =
    family === "qwen3"
      ? (await tinyQwen3()).path
      : (await buildTinyModel({ seed: 0, family, chatTemplate: TEMPLATE, outPath: tinyModelPath(0, family, TEMPLATE) }))
          .path;
  const model = await loadLlamaModel(path);
  models.push(model);
  return (text) => [...model.tokenize(text, true)];
}

describe("tokenizeInPieces over real vocabularies", () => {
  it.each(["qwen3", "llama3_1", "gptoss", "deepseek_v3"] as const)(
    "%s: the whole prompt's tokens, or the prompt is tokenized whole",
    async (family) => {
      const tokenize = await tinyTokenizer(family);
      const exact = piecesAreExact(tokenize);
      if (family === "qwen3") expect(exact).toBe(true);
      // a vocabulary that fails the check has its prompts tokenized whole (InProcessEngine)
      if (!exact) return;
      const prompt = githubPrompt();
      const ends = pieceEnds(prompt, 4096);
      expect(ends.length).toBeGreaterThan(5);
      for (const [i, end] of ends.entries()) expect(end - (ends[i - 1] ?? 0)).toBeGreaterThanOrEqual(4096);
      let turns = 0;
      const counting = setInterval(() => turns++, 0);
      const pieces = await tokenizeInPieces(prompt, tokenize, 4096);
      clearInterval(counting);
      expect(pieces).toEqual(tokenize(prompt));
      // the event loop ran other work between the pieces
      expect(turns).toBeGreaterThan(0);
    },
  );
});
