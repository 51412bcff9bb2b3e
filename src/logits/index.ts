/**
 * toolgram/logits: apply the matcher's token masks to logits in JavaScript runtimes (transformers.js, WebLLM-style
 * engines, custom samplers).
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
