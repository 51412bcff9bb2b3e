import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { compileTools, parseToolCalls } from "../../src/index.js";
import { createLogitsProcessor } from "../../src/logits/index.js";
import { qwen3 } from "../support/qwen3.js";

/**
 * The processor inside transformers.js's own generation utilities: its LogitsProcessorList (which calls processors
 * as functions, as `generate` does), its Tensor (logits are `[batch, vocab]` float32, rows read through `tensor[i]`),
 * its repetition-penalty processor before ours and its temperature warper after, sampling from its own softmax,
 * over the real Qwen3 vocabulary.
 *
 * `@huggingface/transformers` is not a dependency: its install downloads onnxruntime binaries from outside npm and
 * weighs ≈ 470 MB. Install it anywhere (`npm install --ignore-scripts @huggingface/transformers@4.3.1`) and point
 * TOOLGRAM_TRANSFORMERS_DIR at that folder to run this test.
 */
const dir = process.env.TOOLGRAM_TRANSFORMERS_DIR;
const entry = resolveTransformers();

function resolveTransformers(): string | undefined {
  try {
    return createRequire(dir ? join(dir, "package.json") : import.meta.url).resolve("@huggingface/transformers");
  } catch {
    return undefined;
  }
}

if (!entry) {
  console.warn(
    "test/logits/transformers: skipped — @huggingface/transformers is not installed (set TOOLGRAM_TRANSFORMERS_DIR to a folder where it is)",
  );
}

describe.skipIf(!entry)("createLogitsProcessor inside transformers.js", () => {
  it("its LogitsProcessorList, Tensor, processors and softmax produce valid calls under the mask", async () => {
    // the ESM build (the CommonJS path resolve() gives sits beside it)
    const hf = await import(pathToFileURL(entry!.replace(/transformers\.node\.cjs$/, "transformers.node.mjs")).href);
    const { LogitsProcessorList, RepetitionPenaltyLogitsProcessor, TemperatureLogitsWarper, Tensor, softmax } = hf;
    const { vocab } = qwen3();
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          parameters: { type: "object", properties: { city: { type: "string", maxLength: 12 } }, required: ["city"] },
        },
      },
    ];
    const compiled = compileTools(tools, { toolChoice: "required", parallel: false });
    const maxNewTokens = 40;
    const list = new LogitsProcessorList();
    list.push(new RepetitionPenaltyLogitsProcessor(1.3));
    list.push(createLogitsProcessor(compiled, vocab, { maxNewTokens }));
    list.push(new TemperatureLogitsWarper(0.7));
    const rows = 2;
    const ids: bigint[][] = [
      [151644n, 77091n, 198n],
      [151644n, 77091n, 198n],
    ]; // <|im_start|>assistant\n
    const start = ids[0].length;
    const done = [false, false];
    let seed = 1;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 8 - 4;
    for (let step = 0; step < maxNewTokens && !done.every(Boolean); step++) {
      const logits = new Tensor("float32", Float32Array.from({ length: rows * vocab.size }, rand), [rows, vocab.size]);
      const scores = list(ids, logits);
      for (let r = 0; r < rows; r++) {
        if (done[r]) continue;
        // multinomial sampling over the library's own softmax of the processed row (what its sampler does)
        const probs: ArrayLike<number> = softmax(scores[r].data);
        let u = (rand() + 4) / 8;
        let token = 0;
        for (; token < probs.length - 1 && u >= probs[token]; token++) u -= probs[token];
        ids[r].push(BigInt(token));
        if (vocab.eosTokenIds.includes(token)) done[r] = true;
      }
    }
    expect(done).toEqual([true, true]);
    for (const row of ids) {
      const bytes: number[] = [];
      for (const id of row.slice(start).map(Number)) {
        if (vocab.eosTokenIds.includes(id)) continue;
        const atom = vocab.atoms.get(id);
        bytes.push(...(atom !== undefined ? new TextEncoder().encode(atom) : vocab.tokenBytes(id)));
      }
      const text = new TextDecoder().decode(Uint8Array.from(bytes));
      expect(
        parseToolCalls(text, { tools, mode: "strict" }).calls.map((c) => c.valid),
        text,
      ).toEqual([true]);
    }
  });
});
