import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { recordMasks, summarizeMasks } from "../../src/server/maskTimes.js";
import { Metrics } from "../../src/server/Metrics.js";

describe("summarizeMasks", () => {
  it("gives the first mask and nearest-rank p50, p99 and max", () => {
    const times = Array.from({ length: 200 }, (_, i) => 200 - i);
    expect(summarizeMasks(times)).toEqual({ count: 200, first: 200, p50: 100, p99: 198, max: 200 });
    expect(summarizeMasks([3])).toEqual({ count: 1, first: 3, p50: 3, p99: 3, max: 3 });
    expect(summarizeMasks([])).toBeUndefined();
  });
});

describe("recordMasks", () => {
  it("observes p50, p99, max and the first mask in /metrics, and logs a new grammar once it is used", async () => {
    const metrics = new Metrics();
    const lines: string[] = [];
    const summary = summarizeMasks([4, 1, 2])!;
    const grammar = compileSchema({ type: "integer" });
    recordMasks(metrics, summary, { grammar, compileMs: 7.5 }, (l) => lines.push(l));
    recordMasks(metrics, summary, undefined, (l) => lines.push(l));
    const text = await metrics.registry.metrics();
    for (const stat of ["p50", "p99", "max"])
      expect(text).toContain(`toolgram_request_mask_seconds_count{stat="${stat}"} 2`);
    expect(text).toContain("toolgram_first_mask_seconds_count 2");
    expect(lines).toEqual([
      `new grammar: a JSON schema, compiled in 7.50 ms (${grammar.compileSteps} steps); first mask 4.00 ms, masks p50 2.00 ms p99 4.00 ms max 4.00 ms over 3`,
    ]);
  });
});
