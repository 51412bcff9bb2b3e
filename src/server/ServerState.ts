import type { OnRefusedTool } from "../compile.js";
import type { Limits } from "../options.js";
import type { ModelChat } from "../prompt/ModelChat.js";
import type { Engine } from "./Engine.js";
import type { GrammarCache } from "./GrammarCache.js";
import type { Metrics } from "./Metrics.js";
import type { ReplayStore } from "./ReplayStore.js";
import type { Scheduler } from "./Scheduler.js";

/** Settings of the HTTP layer (see ServeOptions for their defaults). */
export interface ServerSettings {
  readonly apiKey: string | undefined;
  readonly maxBodyBytes: number;
  readonly timeoutMs: number;
  readonly defaultMaxTokens: number;
  readonly maxDepth: number;
  readonly limits: Partial<Limits>;
  readonly onRefusedTool: OnRefusedTool;
  /** Where operational lines go (a new tool set's compile and first-mask times); none: not written. */
  readonly log: ((line: string) => void) | undefined;
}

/** Everything a request handler reads; built once per server. */
export interface ServerState {
  readonly engine: Engine;
  /** How prompts are written and calls read (the model's format). */
  readonly chat: ModelChat;
  readonly grammars: GrammarCache;
  readonly replay: ReplayStore;
  readonly scheduler: Scheduler;
  readonly metrics: Metrics;
  readonly settings: ServerSettings;
}
