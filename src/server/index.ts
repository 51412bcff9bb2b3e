/**
 * toolgram/server: an OpenAI-compatible chat completions endpoint whose tool calls always parse, validate and replay
 * byte for byte — node-llama-cpp in process, or a llama-server upstream.
 */
export { startServer, type RunningServer } from "./startServer.js";
export type { ServeOptions } from "./ServeOptions.js";
export { createApp } from "./createApp.js";
export { ApiError, type ApiErrorBody, type ApiErrorType } from "./ApiError.js";
export type { Engine, EngineRequest, EngineResult } from "./Engine.js";
export { InProcessEngine, type InProcessEngineOptions } from "./InProcessEngine.js";
export { UpstreamEngine, type UpstreamEngineOptions } from "./UpstreamEngine.js";
export { GrammarCache } from "./GrammarCache.js";
export { ReplayStore } from "./ReplayStore.js";
export { readChatRequest, MAX_TOOLS } from "./readChatRequest.js";
export type { ChatRequest, RequestMessage, ResponseFormat } from "./ChatRequest.js";
