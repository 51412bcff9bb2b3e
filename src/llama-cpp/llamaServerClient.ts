import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { readSse } from "./readSse.js";

/**
 * Options of {@link startLlamaServer}: the llama-server binary, the model, the port, threads, context size and extra
 * arguments.
 */
export interface StartLlamaServerOptions {
  /** Path of the llama-server executable (see `findLlamaServer`). */
  readonly binary: string;
  /** Path of a GGUF model. */
  readonly model: string;
  /** Port on 127.0.0.1; @defaultValue a free port chosen by the OS */
  readonly port?: number;
  /** CPU threads for generation (`-t`). @defaultValue 1 */
  readonly threads?: number;
  /** Context size in tokens (`-c`). @defaultValue 4096 */
  readonly contextSize?: number;
  /** Extra command-line arguments, appended last. */
  readonly extraArgs?: readonly string[];
  /**
   * Milliseconds to wait for `/health` to answer 200; past it the server is stopped and the call rejects with its
   * log. @defaultValue 60000
   */
  readonly startupTimeoutMs?: number;
  /** Receives the server's stdout/stderr lines (default: kept, and shown only if startup fails). */
  readonly onLog?: (line: string) => void;
}

/** A llama-server process started by {@link startLlamaServer}: its URL, port and pid, and `stop()`. */
export interface LlamaServerHandle {
  /** Base URL, e.g. "http://127.0.0.1:41234". */
  readonly url: string;
  /** The port it listens on, on 127.0.0.1. */
  readonly port: number;
  /** The process id (-1 when the OS gave none). */
  readonly pid: number;
  /** Terminates the server (SIGTERM, then SIGKILL after 5 s) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** A non-2xx answer from llama-server; `body` is its text (usually a JSON error object). */
export class LlamaServerHttpError extends Error {
  /** `endpoint` (e.g. `/completion`) is named in the message, with the status and the body's first 500 characters. */
  constructor(
    /** The HTTP status code. */
    readonly status: number,
    /** The answer's whole body, as text. */
    readonly body: string,
    endpoint: string,
  ) {
    super(`llama-server ${endpoint} answered HTTP ${status}: ${body.slice(0, 500)}`);
    this.name = "LlamaServerHttpError";
  }
}

/** Asks the OS for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Starts llama-server on 127.0.0.1 (never on a public interface) with the chat template from the model (`--jinja`)
 * and waits until `/health` answers 200. Rejects with the server's log if it exits or does not become ready in time.
 */
export async function startLlamaServer(options: StartLlamaServerOptions): Promise<LlamaServerHandle> {
  const port = options.port ?? (await freePort());
  const args = [
    "-m",
    options.model,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "-t",
    String(options.threads ?? 1),
    "-c",
    String(options.contextSize ?? 4096),
    "--jinja",
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(options.binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  const onChunk = (chunk: Buffer): void => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line === "") continue;
      if (options.onLog) options.onLog(line);
      log.push(line);
      if (log.length > 200) log.shift();
    }
  };
  child.stdout?.on("data", onChunk);
  child.stderr?.on("data", onChunk);
  let spawnError: Error | undefined;
  child.once("error", (error) => {
    spawnError = error;
  });

  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await waitForExit(child);
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.startupTimeoutMs ?? 60_000);
  while (true) {
    if (spawnError !== undefined || child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `llama-server did not start (${spawnError?.message ?? `exit ${child.exitCode ?? child.signalCode}`}):\n${log.slice(-30).join("\n")}`,
      );
    }
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `llama-server was not ready after ${options.startupTimeoutMs ?? 60_000} ms:\n${log.slice(-30).join("\n")}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, pid: child.pid ?? -1, stop };
}

/** Body of llama-server's native `/completion` (the fields toolgram uses; others pass through). */
export interface CompletionRequest {
  /** The prompt text, sent as is (the chat template is not applied). */
  readonly prompt: string;
  /** GBNF constraining the output. */
  readonly grammar?: string;
  /** Most tokens to generate (llama-server's default when absent: until end of generation or the context's end). */
  readonly n_predict?: number;
  /** Sampling temperature (llama-server's default when absent). */
  readonly temperature?: number;
  /** Sampling seed, for reproducible runs (llama-server's default when absent: random). */
  readonly seed?: number;
  /** Any other `/completion` field, sent as given (`stream` is set by the function called). */
  readonly [field: string]: unknown;
}

/** llama-server's answer to `/completion` (the fields toolgram reads). */
export interface CompletionResponse {
  /** The generated text (in a streamed chunk: the new text only). */
  readonly content: string;
  /** Tokens generated. */
  readonly tokens_predicted?: number;
  /** Why generation stopped, as llama-server says (`"eos"`, `"limit"`, `"word"`…). */
  readonly stop_type?: string;
  /** llama-server's timings of the generation: tokens, milliseconds, tokens per second. */
  readonly timings?: {
    readonly predicted_n?: number;
    readonly predicted_ms?: number;
    readonly predicted_per_second?: number;
  };
  /** The answer's other fields, unread by toolgram. */
  readonly [field: string]: unknown;
}

/** Body of `/v1/chat/completions` (OpenAI-compatible; `grammar` is llama.cpp's extension). */
export interface ChatCompletionRequest {
  /** The conversation, in OpenAI's message shape; llama-server renders it with the model's chat template. */
  readonly messages: ReadonlyArray<{
    readonly role: string;
    readonly content: string | null;
    readonly [field: string]: unknown;
  }>;
  /** GBNF constraining the reply (llama.cpp's extension), e.g. a compiled grammar's `toGbnf()`. */
  readonly grammar?: string;
  /** OpenAI-shape tool declarations, for the chat template (and llama-server's own tool-call handling). */
  readonly tools?: readonly unknown[];
  /** OpenAI's `tool_choice` keyword. */
  readonly tool_choice?: "auto" | "none" | "required";
  /** Most tokens to generate (llama-server's default when absent). */
  readonly max_tokens?: number;
  /** Sampling temperature (llama-server's default when absent). */
  readonly temperature?: number;
  /** Sampling seed, for reproducible runs (llama-server's default when absent: random). */
  readonly seed?: number;
  /** Any other field, sent as given (`stream` is set by the function called). */
  readonly [field: string]: unknown;
}

/** llama-server's answer to `/v1/chat/completions` (the fields toolgram reads). */
export interface ChatCompletionResponse {
  /** The replies (one unless the request asked for more): why each stopped, and its message and tool calls. */
  readonly choices: ReadonlyArray<{
    readonly finish_reason: string | null;
    readonly message: {
      readonly role: string;
      readonly content: string | null;
      readonly tool_calls?: ReadonlyArray<{
        readonly type: string;
        readonly function: { readonly name: string; readonly arguments: string };
      }>;
      readonly [field: string]: unknown;
    };
  }>;
  /** The answer's other fields (`usage`, `timings`…), unread by toolgram. */
  readonly [field: string]: unknown;
}

async function post(baseUrl: string, endpoint: string, body: object, signal?: AbortSignal): Promise<Response> {
  const response = await fetch(`${baseUrl}${endpoint}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw new LlamaServerHttpError(response.status, await response.text(), endpoint);
  return response;
}

/** POST /completion (non-streaming). */
export async function completion(
  baseUrl: string,
  request: CompletionRequest,
  signal?: AbortSignal,
): Promise<CompletionResponse> {
  const response = await post(baseUrl, "/completion", { ...request, stream: false }, signal);
  return (await response.json()) as CompletionResponse;
}

/** POST /completion with `stream: true`: yields each server-sent chunk (`content` holds the new text). */
export async function* completionStream(
  baseUrl: string,
  request: CompletionRequest,
  signal?: AbortSignal,
): AsyncGenerator<CompletionResponse, void, void> {
  const response = await post(baseUrl, "/completion", { ...request, stream: true }, signal);
  if (response.body === null) return;
  for await (const data of readSse(response.body)) yield JSON.parse(data) as CompletionResponse;
}

/** POST /v1/chat/completions (non-streaming). */
export async function chatCompletion(
  baseUrl: string,
  request: ChatCompletionRequest,
  signal?: AbortSignal,
): Promise<ChatCompletionResponse> {
  const response = await post(baseUrl, "/v1/chat/completions", { ...request, stream: false }, signal);
  return (await response.json()) as ChatCompletionResponse;
}

/** One streamed chat chunk (OpenAI shape: `choices[0].delta`). */
export interface ChatCompletionChunk {
  /** Each reply's new text or tool-call fragments (`delta`), and its finish reason on its last chunk (else null). */
  readonly choices: ReadonlyArray<{
    readonly finish_reason: string | null;
    readonly delta: {
      readonly content?: string | null;
      readonly tool_calls?: readonly unknown[];
      readonly [field: string]: unknown;
    };
  }>;
  /** The chunk's other fields, unread by toolgram. */
  readonly [field: string]: unknown;
}

/** POST /v1/chat/completions with `stream: true`. */
export async function* chatCompletionStream(
  baseUrl: string,
  request: ChatCompletionRequest,
  signal?: AbortSignal,
): AsyncGenerator<ChatCompletionChunk, void, void> {
  const response = await post(baseUrl, "/v1/chat/completions", { ...request, stream: true }, signal);
  if (response.body === null) return;
  for await (const data of readSse(response.body)) yield JSON.parse(data) as ChatCompletionChunk;
}
