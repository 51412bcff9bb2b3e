import type { LlamaModel } from "node-llama-cpp";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { vocabularyOf } from "../../src/llama-cpp/generateToolCalls.js";
import { LlamaGrammarProbe } from "../../src/llama-cpp/LlamaGrammarProbe.js";
import { loadLlamaModel } from "../../src/llama-cpp/loadNodeLlamaCpp.js";
import { TOKEN_TEXT, type Vocabulary } from "../../src/vocab/Vocabulary.js";
import { tierSample } from "../support/tier.js";
import { tinyQwen3 } from "../support/tinyQwen3.js";

/**
 * The GBNF is shaped for llama.cpp's matcher (repetitions as helper rules whose empty alternative comes first, the
 * widest alternative last), which changes the order llama.cpp tries its stacks in but must not change what it allows:
 * at the positions the shape touches (a string's content, free text before a call), llama.cpp's grammar and the
 * matcher allow exactly the same tokens, over the whole Qwen3 vocabulary.
 */
const here = dirname(fileURLToPath(import.meta.url));
const WEATHER = JSON.parse(readFileSync(join(here, "..", "..", "examples", "weather.tools.json"), "utf8")) as unknown[];

let model: LlamaModel;
let vocab: Vocabulary;

beforeAll(async () => {
  const tiny = await tinyQwen3();
  model = await loadLlamaModel(tiny.path);
  vocab = await vocabularyOf(model);
});
afterAll(async () => {
  await model?.dispose();
});

/**
 * Ordinary tokens and end tokens where llama.cpp and the matcher disagree after `prefix`. Left out, as llama.cpp
 * judges them apart from any grammar: tokens whose text begins with NUL (always refused) and tokens it treats as
 * control tokens (the tiny model's `</s>`, its piece is empty).
 */
async function disagreements(
  compiled: ReturnType<typeof compileTools>,
  prefix: string,
): Promise<{ diffs: string[]; allowed: number; skipped: number }> {
  const probe = await LlamaGrammarProbe.create(model, compiled.toGbnf());
  const matcher = compiled.createMatcher(vocab);
  for (const t of model.tokenize(prefix, true) as number[]) {
    expect(matcher.acceptToken(t), `matcher refuses prefix token ${t} of ${JSON.stringify(prefix)}`).toBe(true);
    probe.accept(t);
  }
  const bits = new Uint32Array(matcher.bitmaskSize);
  matcher.fillNextTokenBitmask(bits);
  const diffs: string[] = [];
  let allowed = 0;
  let skipped = 0;
  for (let id = 0; id < vocab.size; id++) {
    const eos = vocab.eosTokenIds.includes(id);
    if (
      !eos &&
      (vocab.kind[id] !== TOKEN_TEXT || vocab.tokenBytes(id)[0] === 0 || model.detokenize([id as never], false) === "")
    ) {
      if (vocab.kind[id] === TOKEN_TEXT) skipped++;
      continue;
    }
    const ours = ((bits[id >>> 5] >>> (id & 31)) & 1) === 1;
    if (ours) allowed++;
    if (ours !== probe.allows(id))
      diffs.push(`${id} ${JSON.stringify(model.detokenize([id as never], true))}: matcher ${ours}`);
  }
  return { diffs, allowed, skipped };
}

describe("llama.cpp and the matcher agree on every Qwen3 token where the GBNF's shape changed", () => {
  const required = () => compileTools(WEATHER, { format: "qwen3", toolChoice: "required", parallel: false });
  const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "';

  // each case walks the whole vocabulary through llama.cpp's grammar: the quick tier takes every other one
  it.each(
    tierSample(
      [
        ["a string's first character", call],
        ["the middle of a string", `${call}Par`],
        ["after a backslash", `${call}Par\\`],
        ["after an escape", `${call}Par\\n`],
      ],
      2,
    ),
  )("inside a string: %s", async (_name, prefix) => {
    const { diffs, allowed, skipped } = await disagreements(required(), prefix);
    expect(diffs.slice(0, 10)).toEqual([]);
    expect(skipped).toBeLessThanOrEqual(2);
    expect(allowed).toBeGreaterThan(prefix.endsWith("\\") ? 5 : 100_000);
  });

  it.each(
    tierSample(
      [
        ["text that begins like the call tag", "Let me check. <tool"],
        ["the start", ""],
      ],
      2,
    ),
  )("free text before a call: %s", async (_name, prefix) => {
    const { diffs, allowed, skipped } = await disagreements(compileTools(WEATHER, { format: "qwen3" }), prefix);
    expect(diffs.slice(0, 10)).toEqual([]);
    expect(skipped).toBeLessThanOrEqual(2);
    expect(allowed).toBeGreaterThan(100_000);
  });
});
