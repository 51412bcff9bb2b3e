import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** The server's Prometheus metrics, on a registry of its own (several servers can share a process). */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: "toolgram_requests_total",
    help: "HTTP requests by route and status",
    labelNames: ["route", "status"],
    registers: [this.registry],
  });
  readonly tokens = new Counter({
    name: "toolgram_tokens_total",
    help: "Tokens: prompt (evaluated or reused), cached (reused from the KV cache), completion",
    labelNames: ["kind"],
    registers: [this.registry],
  });
  readonly compileSeconds = new Histogram({
    name: "toolgram_grammar_compile_seconds",
    help: "Time to compile a request's grammar (cache misses)",
    buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 2, 5],
    registers: [this.registry],
  });
  readonly refusedTools = new Counter({
    name: "toolgram_refused_tools_total",
    help: "Request tools whose schema was refused and that onRefusedTool dropped or relaxed, per request",
    labelNames: ["action"],
    registers: [this.registry],
  });
  readonly cacheLookups = new Counter({
    name: "toolgram_grammar_cache_lookups_total",
    help: "Grammar cache lookups by result",
    labelNames: ["result"],
    registers: [this.registry],
  });
  readonly maskSecondsPerToken = new Histogram({
    name: "toolgram_mask_seconds_per_token",
    help: "Mean time spent computing token masks per generated token, per request (in process)",
    buckets: [0.00001, 0.00005, 0.0002, 0.001, 0.005, 0.02],
    registers: [this.registry],
  });
  readonly requestMaskSeconds = new Histogram({
    name: "toolgram_request_mask_seconds",
    help: "Per request, the p50, p99 and max of its per-token mask times (in process)",
    labelNames: ["stat"],
    buckets: [0.00001, 0.00005, 0.0002, 0.001, 0.005, 0.02, 0.05, 0.2],
    registers: [this.registry],
  });
  readonly firstMaskSeconds = new Histogram({
    name: "toolgram_first_mask_seconds",
    help: "Time of each request's first token mask (in process; cold on a new tool set)",
    buckets: [0.0001, 0.001, 0.005, 0.02, 0.05, 0.2, 1],
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: "toolgram_queue_depth",
    help: "Requests waiting for a slot",
    registers: [this.registry],
  });
  readonly busySlots = new Gauge({ name: "toolgram_busy_slots", help: "Slots generating", registers: [this.registry] });
  readonly requestSeconds = new Histogram({
    name: "toolgram_request_seconds",
    help: "Chat completion time, queueing included",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [this.registry],
  });
}
