/**
 * toolgram/logits: apply the matcher's token masks to logits in JavaScript runtimes (transformers.js, WebLLM-style
 * engines, custom samplers).
 *
 * The types of the root entry these signatures name (`CompiledGrammar`, `Vocabulary`, `MatcherOptions`,
 * `TokenMatcher`) are imported from `toolgram`, their one home; this entry does not export them again.
 *
 * @packageDocumentation
 */
export { applyMask, type LogitsArray } from "./applyMask.js";
export {
  createLogitsProcessor,
  type LogitsProcessorOptions,
  type LogitsTensorLike,
  type TokenIdLike,
  type ToolgramLogitsProcessor,
} from "./LogitsProcessor.js";
