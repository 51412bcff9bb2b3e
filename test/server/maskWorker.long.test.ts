import { afterAll, describe, expect, it } from "vitest";
import { MaskWorker } from "../../src/server/MaskWorker.js";
import { deepAnyOfTool } from "../../bench/serve/gapLoad.js";
import { walkBothWays, weatherTool } from "../support/server/maskWorkerWalk.js";
import { qwen3 } from "../support/qwen3.js";

/**
 * Over the real Qwen3 vocabulary, a matcher on the mask worker answers exactly as the same grammar's matcher on the
 * calling thread (masks plain and narrowed, forced text, completeness, refusals), on a tool call and on a recursive
 * schema.
 */
const { vocab } = qwen3();
const worker = new MaskWorker(vocab);
afterAll(() => worker.close());

describe("masks computed on the mask worker, Qwen3 vocabulary", { timeout: 300_000 }, () => {
  it("equal the calling thread's along seeded walks of a tool call", async () => {
    for (const seed of [1, 2])
      expect(await walkBothWays(worker, vocab, [weatherTool], seed, 60, undefined)).toBeGreaterThan(10);
  });

  it("equal them narrowed to a token budget", async () => {
    expect(await walkBothWays(worker, vocab, [weatherTool], 7, 40, 24)).toBeGreaterThan(10);
  });

  it("equal them on a recursive schema (12 levels of anyOf: [S, array of S])", async () => {
    expect(await walkBothWays(worker, vocab, [deepAnyOfTool(12)], 5, 50, undefined)).toBeGreaterThan(10);
  });
});
