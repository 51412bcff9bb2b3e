/**
 * toolgram/llama-cpp: run toolgram's artifacts in llama.cpp, in process through node-llama-cpp (an optional peer
 * dependency, imported on first use) or through a llama-server process.
 *
 * In process: load a GGUF ({@link loadLlamaModel}) and generate tool calls that always parse ({@link generateToolCalls},
 * {@link generateLazy}, or the lower-level {@link generateWithGbnf} / {@link generateWithMask}). Through llama-server:
 * find or start one ({@link findLlamaServer}, {@link startLlamaServer}) and call its completion endpoints with a
 * toolgram grammar. Prompts: {@link modelChatFor} (a model's own chat template) and {@link renderQwen3Prompt}.
 * GGUF files: {@link readGguf} (metadata without tensors) and a tiny random-weight model for tests
 * ({@link buildTinyModel}).
 *
 * Types of the root entry that these signatures name (`Vocabulary`, `ToolChoice`, `ParallelOption`, `FormatOption`,
 * `FormatName`, `DerivedFormatName`, `ReasoningMode`, `ParsedToolCall`, `ParseIssue`, `NormalizedTool`, `JsonValue`,
 * `JsonObject`) are imported from `toolgram`, their one home; this entry does not export them again.
 *
 * @packageDocumentation
 */

// in process: node-llama-cpp
export { loadLlamaModel } from "./loadNodeLlamaCpp.js";
export {
  generateToolCalls,
  vocabularyOf,
  type GenerateToolCallsOptions,
  type GenerationEngine,
  type ToolCallGeneration,
} from "./generateToolCalls.js";
export { generateLazy, type GenerateLazyOptions, type LazyGeneration } from "./generateLazy.js";
export type { GenerateOptions, GenerateResult, FinishReason } from "./generationTypes.js";
export { generateWithGbnf, type GenerateWithGbnfOptions, type GenerateWithGbnfResult } from "./generateWithGbnf.js";
export {
  generateWithMask,
  type GenerateWithMaskOptions,
  type GenerateWithMaskResult,
  type TokenMaskMatcher,
} from "./generateWithMask.js";

// prompts
export {
  modelChatFor,
  type ModelChat,
  type ModelChatOptions,
  type ModelTurnOptions,
  type PromptMessage,
  type PromptOptions,
} from "../prompt/ModelChat.js";
export {
  renderQwen3Prompt,
  templateTools,
  type ChatMessage,
  type ChatToolCall,
  type Qwen3PromptOptions,
} from "../prompt/qwen3ChatPrompt.js";

// llama-server
export { findLlamaServer } from "./llamaServerBinary.js";
export {
  startLlamaServer,
  completion,
  completionStream,
  chatCompletion,
  chatCompletionStream,
  LlamaServerHttpError,
  type StartLlamaServerOptions,
  type LlamaServerHandle,
  type CompletionRequest,
  type CompletionResponse,
  type ChatCompletionRequest,
  type ChatCompletionResponse,
  type ChatCompletionChunk,
} from "./llamaServerClient.js";

// GGUF files
export { readGguf, type GgufHeader, type GgufTensorInfo } from "../gguf/readGguf.js";
export type { GgufValue, GgufScalar, GgufScalarTypeName, GgufNumericTypeName } from "../gguf/ggufTypes.js";
export { buildTinyModel, tinyModelPath, type BuildTinyModelOptions, type TinyModel } from "../gguf/buildTinyModel.js";
export type { TinyModelFamilyName } from "../gguf/tinyModelFamilies.js";
