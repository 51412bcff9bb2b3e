/**
 * Replays every counterexample the fuzzers saved (test/regressions/fuzz-*.json): once a bug is fixed, its
 * counterexample stays here and must keep passing. Files named `*.tools.json` are tool sets that once broke a stage;
 * they must compile and random-walk cleanly (checked by the owning module's tests).
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileSchema, compileTools } from "../../src/compile.js";
import { judgeText } from "../support/differential.js";
import { fuzzVocab } from "../support/fuzzVocab.js";
import { qwen3 } from "../support/qwen3.js";

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here)
  .filter((f) => /^fuzz-.*\.json$/.test(f))
  .sort();
const toolSets = readdirSync(here)
  .filter((f) => f.endsWith(".tools.json"))
  .sort();

describe("tool sets that once broke a stage", () => {
  for (const f of toolSets) {
    it(`${f} compiles, and its matcher builds and walks`, () => {
      const g = compileTools(JSON.parse(readFileSync(join(here, f), "utf8")));
      const vocab = fuzzVocab();
      const m = g.createMatcher(vocab);
      const bits = new Uint32Array(Math.ceil(vocab.size / 32));
      m.fillNextTokenBitmask(bits);
      expect(bits.some((w) => w !== 0)).toBe(true);
    });
  }
});

// declared only when there are counterexamples (an empty suite is an error in vitest)
if (files.length)
  describe("fuzz counterexamples", () => {
    for (const f of files) {
      it(f, () => {
        const c = JSON.parse(readFileSync(join(here, f), "utf8")) as {
          vocab: string;
          text: string;
          input: { schema?: unknown; tools?: unknown[] };
        };
        const q = c.vocab === "qwen3" ? qwen3() : undefined;
        const vocab = q ? q.vocab : fuzzVocab();
        const tools = c.input.tools;
        const g = tools ? compileTools(tools) : compileSchema(c.input.schema);
        const d = judgeText(
          g,
          c.text,
          vocab,
          tools ? { kind: "tools", tools } : { kind: "json", schema: c.input.schema },
          q?.encode,
        );
        expect(d?.problem).toBeUndefined();
      });
    }
  });
