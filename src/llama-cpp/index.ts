/**
 * toolgram/llama-cpp: run toolgram's artifacts in llama.cpp, in process through node-llama-cpp (an optional peer
 * dependency, imported on first use) or through a llama-server process.
 */
export { cacheDir } from "../cacheDir.js";
export { loadNodeLlamaCpp, getCpuLlama, loadLlamaModel, modelPathOf, type NodeLlamaCpp } from "./loadNodeLlamaCpp.js";
export {
  generateToolCalls,
  compiledFor,
  vocabularyOf,
  readToolCallTurn,
  modelChatOf,
  formatEogTokens,
  type GenerateToolCallsOptions,
  type GenerationEngine,
  type ToolCallGeneration,
} from "./generateToolCalls.js";
export { generateLazy, QWEN3_TOOL_CALL_TOKEN, type GenerateLazyOptions, type LazyGeneration } from "./generateLazy.js";
export { modelChatFor, type ModelChat, type ModelChatOptions, type ModelTurnOptions } from "./ModelChat.js";
export { LlamaGrammarProbe } from "./LlamaGrammarProbe.js";
export {
  renderQwen3Prompt,
  templateJson,
  templateTools,
  type ChatMessage,
  type ChatToolCall,
  type Qwen3PromptOptions,
} from "./qwen3ChatPrompt.js";
export type { GenerateOptions, GenerateResult, FinishReason } from "./generationTypes.js";
export { generateWithGbnf, type GenerateWithGbnfOptions } from "./generateWithGbnf.js";
export {
  generateWithMask,
  type GenerateWithMaskOptions,
  type GenerateWithMaskResult,
  type TokenMaskMatcher,
} from "./generateWithMask.js";
export {
  startLlamaServer,
  freePort,
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
export { readSse } from "./readSse.js";
export { checkGbnfRepetitions, MAX_GBNF_REPETITION } from "./checkGbnfRepetitions.js";
export { findLlamaServer, llamaCppBundlePath, llamaServerCachePath } from "./llamaServerBinary.js";
export {
  buildTinyModel,
  tinyModelPath,
  TINY_QWEN3,
  type BuildTinyModelOptions,
  type TinyModel,
} from "../gguf/buildTinyModel.js";
export { readGguf, type GgufHeader, type GgufTensorInfo } from "../gguf/readGguf.js";
export { ggufTokenizer, GgufTokenType, type GgufTokenizer } from "../gguf/ggufTokenizer.js";
export { writeGguf, encodeGgufHead } from "../gguf/writeGguf.js";
export type { GgufFile, GgufTensor, GgufValue } from "../gguf/ggufTypes.js";
