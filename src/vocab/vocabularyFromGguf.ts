import { ggufTokenizer } from "../gguf/ggufTokenizer.js";
import { readGguf } from "../gguf/readGguf.js";
import { Vocabulary, type VocabularyOptions } from "./Vocabulary.js";

/**
 * A model's vocabulary read from its GGUF file's tokenizer metadata (`tokenizer.ggml.*`), through the one GGUF reader
 * (`readGguf`, which never reads tensor data). The GGUF's `tokenizer.chat_template`, if any, becomes
 * {@link Vocabulary.chatTemplate}; `options.eosTokenIds` defaults to `tokenizer.ggml.eos_token_id`. Node-only (it
 * reads a file): exported from `toolgram/node`.
 *
 * @example const vocab = await vocabularyFromGguf("model.gguf");
 */
export async function vocabularyFromGguf(path: string, options?: Partial<VocabularyOptions>): Promise<Vocabulary> {
  return Vocabulary.fromGgufTokenizer(ggufTokenizer(await readGguf(path)), options);
}
