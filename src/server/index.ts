/**
 * toolgram/server: an OpenAI-compatible chat completions endpoint whose tool calls always parse, validate and replay
 * byte for byte — node-llama-cpp in process, or a llama-server upstream.
 *
 * One function starts it ({@link startServer}, what `toolgram serve` runs); the engines, caches and request readers
 * behind it are internal.
 *
 * `ServeOptions.limits` is a `Partial<Limits>`; `Limits` is imported from `toolgram`, its one home, as is
 * `OnRefusedTool` (`ServeOptions.onRefusedTool`).
 *
 * @packageDocumentation
 */
export { startServer, type RunningServer } from "./startServer.js";
export type { ServeOptions } from "./ServeOptions.js";
