import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Tokenizer } from "@huggingface/tokenizers";
import { describe, expect, it } from "vitest";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { compileTools } from "../../src/compile.js";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "../../src/formats/index.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import { TINY_MODEL_FAMILIES } from "../../src/gguf/tinyModelFamilies.js";
import { renderToolCalls, type CallToRender } from "../../src/parser/renderToolCalls.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { LONG_TIER } from "../support/tier.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";

/**
 * Token-level conformance on Qwen3's real vocabulary for every format whose markers are Qwen's special tokens
 * (`<tool_call>` / `</tool_call>`: Qwen3-Coder, GLM, the layout variants): the matcher agrees with `accepts()` on
 * random walks under its own masks, and a rendered turn of two calls with typed values, tokenized by Qwen3's HF
 * tokenizer (markers as single tokens), is accepted token by token.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261123);
const RUNS = LONG_TIER ? 12 : 2;
const WALK = LONG_TIER ? 40 : 16;
const EOS = 151_645;

const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: {
          city: { type: "string", maxLength: 24 },
          days: { type: "integer", minimum: 1, maximum: 14 },
          units: { type: "object", properties: { metric: { type: "boolean" } }, additionalProperties: false },
        },
        required: ["city"],
        additionalProperties: false,
      },
    },
  },
];

const FORMATS = FORMAT_NAMES.filter((f) => FORMAT_DESCRIPTIONS[f].open === "<tool_call>");
/** Random walks cost seconds each: by default the distinct call units (the layout variants differ only in separators). */
const WALKED = LONG_TIER ? FORMATS : FORMATS.filter((f) => ["qwen3-coder", "glm-4.5", "glm-4.7"].includes(f));

function load(): { vocab: Vocabulary; hf: Tokenizer } {
  const { tokenizerPackage, vocabularySize } = TINY_MODEL_FAMILIES.qwen3;
  const json: unknown = JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve(`${tokenizerPackage}/models/tokenizer.json`), "utf8"),
  );
  return {
    vocab: Vocabulary.fromTokenizerJson(json, { size: vocabularySize, eosTokenIds: [EOS] }),
    hf: new Tokenizer(json as never, {}),
  };
}

describe("Qwen-token formats over Qwen3's vocabulary", () => {
  const { vocab, hf } = load();

  it("covers the formats that write Qwen's <tool_call> tokens", () => {
    expect(FORMATS).toEqual(
      expect.arrayContaining([
        "qwen3",
        "qwen3-coder",
        "glm-4.5",
        "glm-4.7",
        "nemotron-3-nano",
        "step-3.5",
        "reka-edge",
      ]),
    );
  });

  it.each(FORMATS)("%s: two rendered calls, tokenized by Qwen3's tokenizer, are accepted token by token", (format) => {
    const compiled = compileTools(TOOLS, { format, toolChoice: "required", parallel: true });
    const calls: CallToRender[] = [
      { name: "get_weather", arguments: { city: "Paris <b>", days: 3 } },
      { name: "get_weather", arguments: { city: "Oslo", units: { metric: true } } },
    ];
    const text = renderToolCalls(calls, format);
    expect(createAcceptor(compiled.grammar).accepts(text), text).toBe(true);
    const m = createMatcher(compiled.grammar, vocab);
    const ids: number[] = hf.encode(text, { add_special_tokens: false }).ids;
    // the block markers are Qwen's special tokens, not their spelling
    expect(ids.filter((id) => vocab.atoms.get(id) === "<tool_call>")).toHaveLength(2);
    for (const [i, id] of ids.entries())
      expect(m.acceptToken(id), `token ${i} (${id}) of ${JSON.stringify(text)}`).toBe(true);
    expect(m.isCompleted()).toBe(true);
    expect(m.acceptToken(EOS)).toBe(true);
  });

  it.each(WALKED)(
    "%s: the matcher agrees with accepts() on random walks under its masks",
    (format) => {
      checkRandomWalks(compileTools(TOOLS, { format, toolChoice: "auto", parallel: true }).grammar, vocab, {
        seed: SEED,
        numRuns: RUNS,
        maxLength: WALK,
      });
    },
    300_000,
  );
});
