import { describe, expect, it } from "vitest";
import { compileTools, parseToolCalls } from "../../src/index.js";
import { createLogitsProcessor } from "../../src/logits/index.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { textOf, tinyPieces } from "../support/tinyVocab.js";

// The processor contract a per-step runtime relies on, with the runtime's own loop written out: logits in a
// [batch, vocab] tensor, bigint ids appended to each row after sampling, the processor called before each sample.
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261123);
// the hand-built vocabulary plus every single byte (budgets need one), the special tokens last, EOS the very last
const pieces = tinyPieces();
const eosPiece = pieces.pop()!;
const controls = [...Array.from({ length: 0x20 }, (_, b) => Uint8Array.of(b)), Uint8Array.of(0x7f)];
const vocab = Vocabulary.fromPieces([...pieces, ...controls, eosPiece], {
  eosTokenIds: [pieces.length + controls.length],
  size: pieces.length + controls.length + 5,
});
const EOS = vocab.eosTokenIds[0];
const tools = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, unit: { enum: ["celsius", "fahrenheit"] } },
        required: ["city"],
      },
    },
  },
];
const compiled = compileTools(tools, { toolChoice: "required", parallel: false });
const decoder = new TextDecoder();

function generate(rows: number, maxNewTokens: number, seed: number, budget: boolean) {
  const rand = seededRandom(seed);
  const processor = createLogitsProcessor(compiled, vocab, budget ? { maxNewTokens } : {});
  const prompt = [5n, 6n, 7n]; // ids the grammar never sees: only what follows the first call is fed
  const ids: bigint[][] = Array.from({ length: rows }, () => [...prompt]);
  const done = new Array<boolean>(rows).fill(false);
  for (let step = 0; step < maxNewTokens && !done.every(Boolean); step++) {
    const logits = {
      data: Float32Array.from({ length: rows * vocab.size }, () => rand() * 4 - 2),
      dims: [rows, vocab.size],
    };
    expect(processor(ids, logits)).toBe(logits);
    for (let r = 0; r < rows; r++) {
      if (done[r]) continue;
      const row = logits.data.subarray(r * vocab.size, (r + 1) * vocab.size);
      let best = -1;
      for (let i = 0; i < row.length; i++) if (row[i] !== -Infinity && (best < 0 || row[i] > row[best])) best = i;
      expect(best).toBeGreaterThanOrEqual(0); // never an all −∞ row before the end
      ids[r].push(BigInt(best));
      if (best === EOS) done[r] = true;
    }
  }
  return { ids: ids.map((r) => r.slice(prompt.length).map(Number)), done, processor };
}

describe("createLogitsProcessor", () => {
  it("masks every step of a batch so that each finished row is one valid call", () => {
    const { ids, done, processor } = generate(3, 400, SEED, false);
    expect(processor.violations).toEqual([]);
    expect(done.filter(Boolean).length).toBeGreaterThan(0);
    for (let r = 0; r < ids.length; r++) {
      if (!done[r]) continue; // greedy on random logits may run long; the budgeted case below always finishes
      const text = decoder.decode(textOf(vocab, ids[r]).bytes);
      const { calls, issues } = parseToolCalls(text, { tools, mode: "strict" });
      expect({ text, issues }).toEqual({ text, issues: [] });
      expect(calls.map((c) => c.valid)).toEqual([true]);
    }
  });

  it("with maxNewTokens, every row ends with a valid call inside the budget", () => {
    for (let seed = SEED; seed < SEED + 5; seed++) {
      const { ids, done } = generate(2, 60, seed, true);
      expect(done).toEqual([true, true]);
      for (const row of ids) {
        expect(row.length).toBeLessThanOrEqual(60);
        const text = decoder.decode(textOf(vocab, row).bytes);
        expect(
          parseToolCalls(text, { tools, mode: "strict" }).calls.map((c) => c.valid),
          `seed ${seed}: ${text}`,
        ).toEqual([true]);
      }
    }
  });

  it("records a token sampled outside the mask and then allows only the end token", () => {
    const processor = createLogitsProcessor(compiled, vocab);
    const ids = [[1n]];
    const logits = () => ({ data: new Float32Array(vocab.size), dims: [1, vocab.size] });
    processor(ids, logits());
    ids[0].push(BigInt("z".charCodeAt(0) - 0x20)); // "z": no call starts so
    const out = processor(ids, logits());
    expect(processor.violations).toEqual([{ row: 0, tokenId: "z".charCodeAt(0) - 0x20, step: 0 }]);
    expect([...out.data.keys()].filter((i) => out.data[i] !== -Infinity)).toEqual([EOS]);
    processor.reset();
    expect(processor.violations).toEqual([]);
    expect(processor.matchers).toEqual([]);
  });

  it("refuses logits whose size does not match the batch", () => {
    const processor = createLogitsProcessor(compiled, vocab);
    expect(() => processor([[1n], [2n]], { data: new Float32Array(vocab.size), dims: [1, vocab.size] })).toThrow(
      RangeError,
    );
  });
});
