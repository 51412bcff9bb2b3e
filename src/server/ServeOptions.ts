import type { OnRefusedTool } from "../compile.js";
import type { Limits } from "../options.js";

/** Options of `startServer` / `toolgram serve`. Exactly one of `model` and `upstream`. */
export interface ServeOptions {
  /** A GGUF file to serve in process (node-llama-cpp, toolgram's matcher and token budget). */
  readonly model?: string;
  /** The base URL of a running llama-server to front instead. */
  readonly upstream?: string;
  /**
   * The interface to listen on; anything but loopback exposes the server to the network. @defaultValue "127.0.0.1"
   * (loopback only)
   */
  readonly host?: string;
  /** The port to listen on; 0 picks a free one (read it from `RunningServer.port`). @defaultValue 8080 */
  readonly port?: number;
  /** Generations at once (in process: sequences of one context). @defaultValue 1 */
  readonly parallel?: number;
  /** Requests waiting for a slot before 429. @defaultValue 64 */
  readonly maxQueue?: number;
  /** Required `Authorization: Bearer` key; none by default. */
  readonly apiKey?: string;
  /** Per-request deadline, queueing included. @defaultValue 120000 */
  readonly timeoutMs?: number;
  /** Largest request body in bytes; a larger one is answered 413 `request_too_large`. @defaultValue 4 MiB */
  readonly maxBodyBytes?: number;
  /** The token budget when a request names none. @defaultValue 512 */
  readonly defaultMaxTokens?: number;
  /** Context size per sequence (in process). @defaultValue 4096 */
  readonly contextSize?: number;
  /** CPU threads (in process). @defaultValue 1 */
  readonly threads?: number;
  /** Compiled grammars kept for reuse across requests (least recently used evicted). @defaultValue 256 */
  readonly grammarCacheEntries?: number;
  /** Bytes of GBNF the grammar cache may hold, beside its entry count. @defaultValue 64 MiB */
  readonly grammarCacheBytes?: number;
  /** Turns kept for exact replay when a template would not re-render them byte for byte. @defaultValue 10000 */
  readonly replayTurns?: number;
  /**
   * Compile limits for request schemas; `maxCompileMs` defaults to 2000 here (a compile holds the compile worker, and
   * requests with other new tool sets wait for it).
   */
  readonly limits?: Partial<Limits>;
  /**
   * A request tool whose schema cannot be enforced: "error" answers 400 naming it; "drop" serves the other tools
   * without it; "relax" compiles it with `strict: false` (dropped if still refused). Dropped and relaxed tools are
   * named in the `X-Toolgram-Dropped-Tools` / `X-Toolgram-Relaxed-Tools` response headers and counted in `/metrics`.
   * @defaultValue "error"
   */
  readonly onRefusedTool?: OnRefusedTool;
  /**
   * Where grammars compile: on a worker thread, so a large tool set never pauses other requests' streams, or on the
   * event loop (the behaviour before the worker; kept to measure the difference). @defaultValue "worker"
   */
  readonly compileOn?: "worker" | "event-loop";
  /**
   * Where token masks are computed (in process): on a worker thread per sequence, so that a cold mask (a new tool
   * set's first states, a deep schema's new stacks) never pauses other requests' streams, or on the event loop (the
   * behaviour before the mask workers; kept to measure the difference). @defaultValue "worker"
   */
  readonly masksOn?: "worker" | "event-loop";
  /** Receives operational log lines (a new tool set's compile time and first mask); none by default. */
  readonly log?: (line: string) => void;
}
