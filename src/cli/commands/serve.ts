import { UsageError, type CliIO } from "../CliIO.js";
import type { ServeOptions } from "../../server/ServeOptions.js";
import { parseFlags } from "../parseFlags.js";

export const serveUsage = `Usage: toolgram serve --model model.gguf [options]
       toolgram serve --upstream http://127.0.0.1:8081 [options]

Serves an OpenAI-compatible API (POST /v1/chat/completions, GET /v1/models, /health, /metrics) whose tool calls
always parse and validate: in process with node-llama-cpp (toolgram's token matcher and token budget), or in front
of a running llama-server (toolgram renders the prompt, sends its GBNF to /completion and parses the output).

  --model FILE          GGUF model to serve in process (its chat template gives the format)
  --upstream URL        llama-server to front instead of --model
  --host HOST           interface to bind (default 127.0.0.1: this machine only)
  --port N              port (default 8080; 0 = any free port)
  --parallel N          generations at once (default 1)
  --queue N             requests waiting for a slot before 429 (default 64)
  --api-key KEY         require Authorization: Bearer KEY (default: no key; also $TOOLGRAM_API_KEY)
  --timeout-ms N        per-request deadline, queueing included (default 120000)
  --max-tokens N        token budget when a request sets none (default 512)
  --ctx-size N          context per sequence, in process (default 4096)
  --threads N           CPU threads, in process (default 1)
  --max-body-bytes N    largest request body (default 4194304)
  --max-compile-ms N    compile budget per request's tool set (default 2000; past it, 400 LIMIT_COMPILE_TIME)
  --on-refused-tool M   a request tool whose schema cannot be enforced: error (400, the default), drop (serve the
                        others; X-Toolgram-Dropped-Tools names it) or relax (strict: false; X-Toolgram-Relaxed-Tools)
`;

const FLAGS = {
  model: { type: "string" },
  upstream: { type: "string" },
  host: { type: "string" },
  port: { type: "string" },
  parallel: { type: "string" },
  queue: { type: "string" },
  "api-key": { type: "string" },
  "timeout-ms": { type: "string" },
  "max-tokens": { type: "string" },
  "ctx-size": { type: "string" },
  threads: { type: "string" },
  "max-body-bytes": { type: "string" },
  "max-compile-ms": { type: "string" },
  "on-refused-tool": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function integer(values: Record<string, string | boolean>, name: string, min: number, max: number): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new UsageError(`--${name} needs an integer in ${min}..${max}, got ${String(v)}`);
  return Number(v);
}

/**
 * The server options `toolgram serve`'s flags give (the `ServeOptions` of `startServer`), or undefined for `--help`.
 * Throws a UsageError naming the flag for a bad value.
 */
export function serveOptionsFromFlags(argv: string[]): ServeOptions | undefined {
  const { values, positionals } = parseFlags(argv, FLAGS);
  if (values.help === true) return undefined;
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const model = values.model as string | undefined;
  const upstream = values.upstream as string | undefined;
  if ((model === undefined) === (upstream === undefined))
    throw new UsageError("give exactly one of --model FILE and --upstream URL");
  const apiKey = (values["api-key"] as string | undefined) ?? (process.env.TOOLGRAM_API_KEY || undefined);
  const onRefusedTool = (values["on-refused-tool"] as string | undefined) ?? "error";
  if (onRefusedTool !== "error" && onRefusedTool !== "drop" && onRefusedTool !== "relax")
    throw new UsageError(`--on-refused-tool must be error, drop or relax, got ${onRefusedTool}`);
  return {
    ...(model === undefined ? {} : { model }),
    ...(upstream === undefined ? {} : { upstream }),
    host: (values.host as string | undefined) ?? "127.0.0.1",
    port: integer(values, "port", 0, 65535) ?? 8080,
    parallel: integer(values, "parallel", 1, 64) ?? 1,
    maxQueue: integer(values, "queue", 0, 100_000) ?? 64,
    ...(apiKey === undefined ? {} : { apiKey }),
    timeoutMs: integer(values, "timeout-ms", 1, 86_400_000) ?? 120_000,
    defaultMaxTokens: integer(values, "max-tokens", 1, 1_000_000) ?? 512,
    contextSize: integer(values, "ctx-size", 64, 1_048_576) ?? 4096,
    threads: integer(values, "threads", 1, 256) ?? 1,
    maxBodyBytes: integer(values, "max-body-bytes", 1024, 1 << 30) ?? 4 * 1024 * 1024,
    // a large tool set (the 117 GitHub MCP tools) can pass the 2 s default on a loaded machine
    limits: { maxCompileMs: integer(values, "max-compile-ms", 1, 3_600_000) ?? 2000 },
    onRefusedTool,
  };
}

/** `toolgram serve`: runs until SIGINT/SIGTERM, then closes and exits 0. */
export async function serveCommand(argv: string[], io: CliIO): Promise<number> {
  const options = serveOptionsFromFlags(argv);
  if (options === undefined) {
    io.stdout(serveUsage);
    return 0;
  }
  const { startServer } = await import("../../server/startServer.js");
  const server = await startServer({ ...options, log: (line) => io.stderr(`${line}\n`) });
  io.stdout(`listening on ${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await server.close();
  return 0;
}
