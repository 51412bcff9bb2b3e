/**
 * toolgram/node: the readers that take a file path — a vocabulary from a GGUF model or a `tokenizer.json` file, and
 * a fine-tuning set validated as a streamed JSONL/JSON file. They import `node:` modules, so they live here and the
 * root entry `toolgram` stays isomorphic (it bundles for browsers and workers as it is). Everything else, including
 * `Vocabulary.fromTokenizerJson` (a parsed object), `Vocabulary.fromGgufTokenizer` and `validateDataset` (rows in
 * memory), comes from `toolgram`, as do the types these signatures name (`Vocabulary`, `VocabularyOptions`,
 * `ValidateOptions`, `DatasetReport`): this entry does not export them again.
 *
 * @example
 * import { compileTools } from "toolgram";
 * import { vocabularyFromGguf } from "toolgram/node";
 * const matcher = compileTools(tools).createMatcher(await vocabularyFromGguf("model.gguf"));
 *
 * @packageDocumentation
 */
export { vocabularyFromGguf } from "./vocab/vocabularyFromGguf.js";
export { vocabularyFromTokenizerFile } from "./vocab/vocabularyFromTokenizerFile.js";
export { validateDatasetFile } from "./dataset/validateDatasetFile.js";
