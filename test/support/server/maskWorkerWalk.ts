import { expect } from "vitest";
import { compileTools } from "../../../src/compile.js";
import type { MaskWorker } from "../../../src/server/MaskWorker.js";
import type { Vocabulary } from "../../../src/vocab/Vocabulary.js";
import { greedyTokenize } from "../differential.js";

/** The tool of the mask worker's tests: a bounded string and an enum. */
export const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: { city: { type: "string", maxLength: 12 }, unit: { enum: ["celsius", "fahrenheit"] } },
      required: ["city"],
    },
  },
};

function allowedIds(bits: Uint32Array): number[] {
  const ids: number[] = [];
  for (let w = 0; w < bits.length; w++)
    for (let x = bits[w] as number; x !== 0; x &= x - 1) ids.push(w * 32 + 31 - Math.clz32(x & -x));
  return ids;
}

/** The first ordinary token id the mask leaves out, if any. */
function firstRefused(bits: Uint32Array, vocab: Vocabulary): number | undefined {
  for (let id = 0; id < vocab.size; id++)
    if (((bits[id >>> 5] as number) & (1 << (id & 31))) === 0 && !vocab.eosTokenIds.includes(id)) return id;
  return undefined;
}

/**
 * Walks `tools`' grammar (qwen3 format) with a matcher on `worker` and one on this thread side by side, `steps` seeded
 * random tokens; every mask (narrowed to `budget - step` tokens when a budget is given), forced text, completeness and
 * refusal must agree. Returns the masks compared.
 */
export async function walkBothWays(
  worker: MaskWorker,
  vocab: Vocabulary,
  tools: unknown[],
  seed: number,
  steps: number,
  budget: number | undefined,
): Promise<number> {
  const g = compileTools(tools, { format: "qwen3", toolChoice: "required" });
  const local = g.createMatcher(vocab);
  const remote = await worker.matcher(g, { jumpForward: true });
  const a = new Uint32Array(local.bitmaskSize);
  const b = new Uint32Array(local.bitmaskSize);
  let rng = seed;
  const next = (n: number) => {
    rng = (rng * 1103515245 + 12345) & 0x7fffffff;
    return rng % n;
  };
  let compared = 0;
  try {
    for (let step = 0; step < steps; step++) {
      expect(remote.forcedText()).toBe(local.forcedText());
      expect(remote.isCompleted()).toBe(local.isCompleted());
      const left = budget === undefined ? undefined : Math.max(1, budget - step);
      await remote.prepareMask(left);
      if (left === undefined) {
        local.fillNextTokenBitmask(a);
        remote.fillNextTokenBitmask(b);
      } else expect(remote.fillNextTokenBitmaskWithin(b, left)).toBe(local.fillNextTokenBitmaskWithin(a, left));
      expect(b).toEqual(a);
      compared++;
      const ids = allowedIds(a).filter((id) => !vocab.eosTokenIds.includes(id));
      if (ids.length === 0) break;
      const refused = firstRefused(a, vocab);
      // a narrowed mask leaves out tokens the grammar still accepts: refusals are checked on plain masks
      if (refused !== undefined && left === undefined) expect(remote.acceptToken(refused)).toBe(false);
      const token = ids[next(ids.length)] as number;
      expect(remote.acceptToken(token)).toBe(local.acceptToken(token));
    }
  } finally {
    remote.close();
  }
  return compared;
}

/**
 * Like walkBothWays, but driven as generateWithMask drives it: `settle` awaited before the position is read, and a
 * forced text accepted as its tokens (greedy) rather than a sampled token. Returns the masks compared, the tokens
 * accepted and how many of them the worker's matcher accepted ahead (without waiting for the worker).
 */
export async function walkAhead(
  worker: MaskWorker,
  vocab: Vocabulary,
  tools: unknown[],
  seed: number,
  steps: number,
): Promise<{ compared: number; accepted: number; ahead: number; forced: number }> {
  const g = compileTools(tools, { format: "qwen3", toolChoice: "required" });
  const local = g.createMatcher(vocab);
  const remote = await worker.matcher(g, { jumpForward: true });
  const a = new Uint32Array(local.bitmaskSize);
  const b = new Uint32Array(local.bitmaskSize);
  let rng = seed;
  const next = (n: number) => {
    rng = (rng * 1103515245 + 12345) & 0x7fffffff;
    return rng % n;
  };
  const counts = { compared: 0, accepted: 0, ahead: 0, forced: 0 };
  try {
    for (let step = 0; step < steps; step++) {
      await remote.settle();
      expect(remote.isCompleted()).toBe(local.isCompleted());
      const forced = remote.forcedText();
      expect(forced).toBe(local.forcedText());
      if (forced !== "") {
        for (const token of greedyTokenize(vocab, forced)) {
          expect(remote.acceptToken(token)).toBe(local.acceptToken(token));
          counts.accepted++;
          counts.forced++;
        }
        continue;
      }
      await remote.prepareMask(undefined);
      local.fillNextTokenBitmask(a);
      remote.fillNextTokenBitmask(b);
      expect(b).toEqual(a);
      counts.compared++;
      const ids = allowedIds(a).filter((id) => !vocab.eosTokenIds.includes(id));
      if (ids.length === 0) break;
      const token = ids[next(ids.length)] as number;
      expect(remote.acceptToken(token)).toBe(local.acceptToken(token));
      counts.accepted++;
    }
    await remote.settle();
    expect(remote.forcedText()).toBe(local.forcedText());
  } finally {
    remote.close();
  }
  return { ...counts, ahead: remote.acceptedAhead };
}
