import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InProcessEngine } from "../../src/server/InProcessEngine.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { streamWhileOthersSend } from "../../bench/serve/gapLoad.js";
import { tinyModel } from "../support/server/serverHarness.js";

/**
 * A stream keeps going while another client sends a large tool set and a deep recursive schema (compiled on the
 * compile worker): the stream completes, every other request is answered, and the deep schema's generation is logged
 * with its first-mask time and counted in /metrics, and its masks were computed on a mask worker. (How long the stream paused is measured by bench:serve:gap.)
 */
let server: RunningServer;
const logs: string[] = [];

beforeAll(async () => {
  server = await startServer({ model: await tinyModel(), port: 0, parallel: 2, log: (l) => logs.push(l) });
});
afterAll(() => server?.close());

describe("toolgram serve: one request does not stall another", () => {
  it("streams to the end while the 117 GitHub MCP tools and the deep schema are sent", async () => {
    const run = await streamWhileOthersSend(server.url, 400);
    expect(run.finished).toBe(true);
    // the interruptions start after the 20th chunk
    expect(run.chunks).toBeGreaterThan(20);
    expect(run.others.map((o) => o.name)).toEqual(["117 GitHub MCP tools", "deep recursive schema"]);
    // the 117 tools' prompt does not fit the tiny model's context (400 context_length_exceeded) after they compiled
    expect(run.others.map((o) => o.status)).toEqual([400, 200]);
    const deep = logs.filter((l) => l.startsWith("new grammar: 1 tools (qwen3), compiled in "));
    expect(deep).toHaveLength(1);
    // every mask of the deep schema's generation was computed on a mask worker, none on the event loop
    const masks = Number(/over (\d+)$/.exec(deep[0] as string)?.[1]);
    expect(masks).toBeGreaterThan(0);
    const engine = server.state.engine as InProcessEngine;
    expect(engine.workerMasks).toBe(masks);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/toolgram_request_mask_seconds_count\{stat="max"\} 1\n/);
    expect(metrics).toMatch(/toolgram_grammar_cache_lookups_total\{result="miss"\} 2\n/);
    // one strict parser asked of the parser worker: the deep schema's; the 117 tools' request, refused for its
    // length before generating, costs none
    expect(server.state.grammars.stats.parserJobs).toBe(1);
  });
});
