import { describe, expect, it } from "vitest";
import { checkGbnfBatchWithLlamaCpp, checkGbnfWithLlamaCpp } from "../../src/testing/checkGbnfWithLlamaCpp.js";
import { LONG_TIER } from "../support/tier.js";

describe("checkGbnfWithLlamaCpp", () => {
  it("reports llama.cpp's verdict for one grammar", async () => {
    expect(await checkGbnfWithLlamaCpp('root ::= "a" [b-c]*')).toEqual({ ok: true, samples: [] });
  }, 120_000);

  // llama.cpp allocates up to the 2 GB cap (seconds) before the child ends: the long tier
  it.runIf(LONG_TIER)(
    "survives a grammar that ends or stalls the child, and checks the rest in a new one",
    async () => {
      // "a"{3,1}: llama.cpp allocates until the address-space cap stops it, or the timeout kills the child first
      const r = await checkGbnfBatchWithLlamaCpp(
        [
          { grammar: 'root ::= "x"', samples: ["x", "y"] },
          'root ::= "a"{3,1}',
          { grammar: 'root ::= "b"+', samples: ["bb", ""] },
        ],
        { memoryLimitMb: 2048, timeoutMs: 500 },
      );
      expect(r[0]).toEqual({ ok: true, samples: [true, false] });
      expect(r[1].ok).toBe(false);
      expect(r[1].error).toMatch(/bad_alloc|timed out|ended/);
      expect(r[2]).toEqual({ ok: true, samples: [true, false] });
    },
    180_000,
  );

  it("passes non-ASCII samples whole, however the input is split into chunks on the way to the child", async () => {
    // 400 KB of four-byte characters: the pipe delivers it in several chunks, which cut characters in two
    const long = "😀".repeat(100_000);
    const batch = await checkGbnfBatchWithLlamaCpp(
      [{ grammar: 'root ::= "😀"*', samples: [long, `${long}x`, `😀${long}`] }],
      { timeoutMs: 60_000 },
    );
    expect(batch[0]).toEqual({ ok: true, samples: [true, false, true] });
  }, 180_000);
});
