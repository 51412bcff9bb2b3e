import { afterAll, describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { MaskWorker } from "../../src/server/MaskWorker.js";
import { createEngineCounters, GENERATIONS, WARM_SLICES } from "../../src/server/maskShared.js";
import { deepAnyOfTool } from "../../bench/serve/gapLoad.js";
import { walkAhead, walkBothWays, weatherTool } from "../support/server/maskWorkerWalk.js";
import { tinyVocab } from "../support/tinyVocab.js";

/**
 * A matcher on the mask worker answers exactly as the same grammar's matcher on the calling thread (masks, forced
 * text, completeness, refusals), over a small hand-built vocabulary; an error on the worker reaches
 * the caller as the same ToolgramError.
 */
const vocab = tinyVocab();
/** The worker's engine counters: no generation counted, so it warms as it would alone. */
const engine = createEngineCounters();
const worker = new MaskWorker(vocab, engine.buffer as SharedArrayBuffer);
afterAll(() => worker.close());

describe("masks computed on the mask worker", () => {
  it("equal the calling thread's along seeded walks", async () => {
    for (const seed of [1, 2])
      expect(await walkBothWays(worker, vocab, [weatherTool], seed, 80, undefined)).toBeGreaterThan(10);
  });

  it("fail as the calling thread's do: the same error, code and message", async () => {
    // this vocabulary has no single-byte token for every byte: a token budget is refused on either thread
    const local = await walkBothWays(worker, vocab, [weatherTool], 9, 10, 30).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(ToolgramError);
    expect((local as ToolgramError).code).toBe("INVALID_OPTION");
    expect((local as ToolgramError).message).toMatch(/single-byte token for every byte/);
  });

  it("equal them on a recursive schema", async () => {
    expect(await walkBothWays(worker, vocab, [deepAnyOfTool(6)], 4, 60, undefined)).toBeGreaterThan(10);
  });

  it("accept sampled tokens and forced text without waiting for the worker, and still agree", async () => {
    for (const [tools, seed] of [
      [[weatherTool], 3],
      [[deepAnyOfTool(6)], 5],
    ] as const) {
      const r = await walkAhead(worker, vocab, [...tools], seed, 60);
      expect(r.compared).toBeGreaterThan(10);
      expect(r.forced).toBeGreaterThan(0);
      // every token was allowed by the last mask or spelled the forced text: none waited for the worker
      expect(r.ahead).toBe(r.accepted);
    }
  });

  it("warm their matchers between masks only while their generation is the engine's only one running", async () => {
    // another generation runs beside this one: the worker steps and answers, and warms nothing
    Atomics.store(engine, GENERATIONS, 2);
    const before = Atomics.load(engine, WARM_SLICES);
    expect((await walkAhead(worker, vocab, [deepAnyOfTool(6)], 5, 20)).compared).toBeGreaterThan(5);
    // a later round trip: the worker's loop has passed its turns after the walk's steps
    (await worker.matcher(compileTools([weatherTool], { format: "qwen3" }), { jumpForward: true })).close();
    expect(Atomics.load(engine, WARM_SLICES)).toBe(before);
    // alone: the same walk warms between its steps
    Atomics.store(engine, GENERATIONS, 1);
    expect((await walkAhead(worker, vocab, [deepAnyOfTool(6)], 5, 20)).compared).toBeGreaterThan(5);
    expect(Atomics.load(engine, WARM_SLICES)).toBeGreaterThan(before);
    Atomics.store(engine, GENERATIONS, 0);
  });
});
