import { readFile } from "node:fs/promises";
import { Vocabulary, type VocabularyOptions } from "./Vocabulary.js";

/**
 * A model's vocabulary read from a Hugging Face `tokenizer.json` file: {@link Vocabulary.fromTokenizerJson} of the
 * parsed file. Node-only (it reads a file): exported from `toolgram/node`; in a browser, fetch and parse the file and
 * call `Vocabulary.fromTokenizerJson`.
 *
 * @example const vocab = await vocabularyFromTokenizerFile("tokenizer.json", { size: 151936, eosTokenIds: [151645] });
 */
export async function vocabularyFromTokenizerFile(path: string, options: VocabularyOptions): Promise<Vocabulary> {
  return Vocabulary.fromTokenizerJson(JSON.parse(await readFile(path, "utf8")), options);
}
