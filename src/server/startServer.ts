import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { ToolgramError } from "../errors.js";
import type { ModelChat } from "../prompt/ModelChat.js";
import { serverChatFor } from "./serverChat.js";
import { createApp } from "./createApp.js";
import type { Engine } from "./Engine.js";
import { CompileWorker } from "./CompileWorker.js";
import { GrammarCache } from "./GrammarCache.js";
import { InProcessEngine } from "./InProcessEngine.js";
import { Metrics } from "./Metrics.js";
import { ReplayStore } from "./ReplayStore.js";
import { Scheduler } from "./Scheduler.js";
import type { ServeOptions } from "./ServeOptions.js";
import type { ServerState } from "./ServerState.js";
import { UpstreamEngine } from "./UpstreamEngine.js";

/** A server started by {@link startServer}: its URL and port, its state (for metrics and tests), and `close()`. */
export interface RunningServer {
  /** e.g. "http://127.0.0.1:8080" */
  readonly url: string;
  /** The port it listens on (the one the OS picked when `port: 0` was asked). */
  readonly port: number;
  /**
   * The engine, caches, scheduler and metrics behind the server, for in-process inspection. Internal: its parts
   * change with the server's design, so the entry does not export its type (`/metrics` is the stable view).
   * @internal
   */
  readonly state: ServerState;
  /** Stops listening, ends open connections and frees the model. */
  close(): Promise<void>;
}

/** Loads the model (or connects to the upstream), then listens; resolves once requests are accepted. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  if ((options.model === undefined) === (options.upstream === undefined)) {
    throw new ToolgramError(
      "INVALID_OPTION",
      "serve needs exactly one of --model (a GGUF file served in process) and --upstream (a llama-server URL)",
    );
  }
  const parallel = options.parallel ?? 1;
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 64)
    throw new ToolgramError("INVALID_OPTION", `--parallel must be an integer in 1..64, got ${parallel}`);
  const onRefusedTool = options.onRefusedTool ?? "error";
  if (!["error", "drop", "relax"].includes(onRefusedTool))
    throw new ToolgramError("INVALID_OPTION", `--on-refused-tool must be error, drop or relax, got ${onRefusedTool}`);
  const engine: Engine =
    options.model !== undefined
      ? await InProcessEngine.load({
          modelPath: options.model,
          parallel,
          ...(options.contextSize === undefined ? {} : { contextSize: options.contextSize }),
          ...(options.threads === undefined ? {} : { threads: options.threads }),
          ...(options.masksOn === undefined ? {} : { masksOn: options.masksOn }),
        })
      : await UpstreamEngine.connect({ url: options.upstream as string, parallel });
  const metrics = new Metrics();
  // compiles run on a worker thread: a large tool set does not pause other requests' streams
  const compileWorker = options.compileOn === "event-loop" ? undefined : new CompileWorker();
  // turns' strict parsers compile on a worker of their own: a large tool set's (seconds) never delays another's grammar
  const parserWorker = options.compileOn === "event-loop" ? undefined : new CompileWorker();
  const grammars = new GrammarCache({
    ...(compileWorker === undefined ? {} : { compiler: (job) => compileWorker.compile(job) }),
    ...(parserWorker === undefined ? {} : { parserCompiler: (job) => parserWorker.prepareParser(job) }),
    maxEntries: options.grammarCacheEntries ?? 256,
    maxBytes: options.grammarCacheBytes ?? 64 * 1024 * 1024,
    onCompile: (ms, hit) => {
      metrics.cacheLookups.inc({ result: hit ? "hit" : "miss" });
      if (!hit) metrics.compileSeconds.observe(ms / 1000);
    },
  });
  let chat: ModelChat;
  try {
    chat = serverChatFor(engine.chatTemplate, engine.tokenTexts);
  } catch (e) {
    await engine.close();
    throw e;
  }
  const state: ServerState = {
    engine,
    chat,
    grammars,
    replay: new ReplayStore(options.replayTurns ?? 10_000),
    scheduler: new Scheduler(parallel, options.maxQueue ?? 64),
    metrics,
    settings: {
      apiKey: options.apiKey,
      maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
      timeoutMs: options.timeoutMs ?? 120_000,
      defaultMaxTokens: options.defaultMaxTokens ?? 512,
      maxDepth: 1500,
      limits: { maxCompileMs: 2000, ...options.limits },
      onRefusedTool,
      log: options.log,
    },
  };
  const app = createApp(state);
  const host = options.host ?? "127.0.0.1";
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 8080 }, () => resolve(s));
    s.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    state,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await compileWorker?.close();
      await parserWorker?.close();
      await engine.close();
    },
  };
}
