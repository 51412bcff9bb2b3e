import { afterAll, describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { CompileWorker } from "../../src/server/CompileWorker.js";
import { GrammarCache } from "../../src/server/GrammarCache.js";
import { TOOLS } from "../support/server/serverHarness.js";
import { greedyTokenize } from "../support/differential.js";
import { tinyVocab } from "../support/tinyVocab.js";

/** Compiles run on a worker thread and come back as grammars equal to the ones compiled here. */
const worker = new CompileWorker();
afterAll(() => worker.close());

const options = { format: "qwen3" as const, reasoning: "none" as const, parallel: true, toolChoice: "auto" };

describe("CompileWorker", () => {
  it("gives the grammar a compile on this thread gives: same GBNF, same masks along a call", async () => {
    const here = compileTools(TOOLS, options);
    const there = await worker.compile({ kind: "tools", tools: TOOLS, options });
    expect(there.toGbnf()).toBe(here.toGbnf());
    expect(there.schemaHash).toBe(here.schemaHash);
    expect(there.toJsonSchema()).toEqual(here.toJsonSchema());
    const vocab = tinyVocab();
    const a = here.createMatcher(vocab);
    const b = there.createMatcher(vocab);
    const text = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>';
    const tokens = greedyTokenize(vocab, text, true);
    const bitsA = new Uint32Array(Math.ceil(vocab.size / 32));
    const bitsB = new Uint32Array(bitsA.length);
    let compared = 0;
    for (const t of tokens) {
      a.fillNextTokenBitmask(bitsA);
      b.fillNextTokenBitmask(bitsB);
      expect(bitsB).toEqual(bitsA);
      compared++;
      a.acceptToken(t);
      b.acceptToken(t);
    }
    expect(compared).toBe(tokens.length);
    expect(b.isCompleted()).toBe(a.isCompleted());
  });

  it("refuses as a compile here refuses: the error's class, code, path and message", async () => {
    const bad = [
      { type: "function", function: { name: "f", parameters: { type: "object", minProperties: 3, maxProperties: 1 } } },
    ];
    let here: unknown;
    try {
      compileTools(bad, options);
    } catch (e) {
      here = e;
    }
    const there = await worker.compile({ kind: "tools", tools: bad, options }).catch((e: unknown) => e);
    expect(here).toBeInstanceOf(ToolgramError);
    expect(there).toBeInstanceOf((here as object).constructor);
    const fields = (e: unknown) => {
      const { code, schemaPath, message } = e as ToolgramError;
      return { code, schemaPath, message };
    };
    expect(fields(there)).toEqual(fields(here));
  });

  it("compiles a tool set once when two requests ask for it at the same time", async () => {
    const cache = new GrammarCache({ maxEntries: 4, maxBytes: 1 << 20, compiler: (job) => worker.compile(job) });
    const job = { kind: "schema" as const, schema: { type: "array", items: { type: "integer" } }, options: {} };
    const [g1, g2] = await Promise.all([cache.get("k", job), cache.get("k", job)]);
    expect(g1).toBe(g2);
    expect(cache.stats).toMatchObject({ misses: 1, hits: 1 });
  });
});
