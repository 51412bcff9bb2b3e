import { beforeAll, describe, expect, it } from "vitest";
import { loadXGrammar, type XGrammar } from "../../bench/loadXGrammar.js";
import { githubMcpTools, prng, twentyOpenAiTools } from "../../bench/toolSets.js";
import { xgrammarToolCalls, type XgToolPolicy } from "../../bench/xgrammarToolCalls.js";
import { compileTools } from "../../src/compile.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";

/**
 * The benchmark gives XGrammar its own grammar for the tool calls (bench/xgrammarToolCalls.ts). For its masks to be
 * compared with toolgram's, it must accept every text toolgram's grammar accepts (it may accept more: other JSON
 * escapes and number spellings), and refuse what the envelope refuses: text after a call, text before a required
 * call, a second call when only one is allowed. Checked on texts sampled from toolgram's grammar for the same tools.
 */
let xg: XGrammar;
beforeAll(() => {
  xg = loadXGrammar();
});

const call = (name: string, args: string) => `<tool_call>\n{"name": "${name}", "arguments": ${args}}\n</tool_call>`;

/** Whether XGrammar's grammar accepts each whole text (compiled once without a vocabulary, matched by characters). */
async function accepts(tools: unknown, policy: XgToolPolicy, texts: string[]): Promise<boolean[]> {
  const info = await xg.TokenizerInfo.createTokenizerInfo([]);
  const compiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
  const compiled = await compiler.compileGrammar(await xgrammarToolCalls(xg, tools, policy));
  const out = [];
  for (const t of texts) {
    const m = await xg.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
    out.push(m._acceptString(t) && m.isTerminated());
    m.dispose();
  }
  compiled.dispose();
  compiler.dispose();
  info.dispose();
  return out;
}

function sampled(grammar: Parameters<typeof sampleGrammar>[0], n: number, seed: number): string[] {
  const rnd = prng(seed);
  const texts: string[] = [];
  while (texts.length < n) {
    const t = sampleGrammar(grammar, rnd, { extraRepeats: 1, maxLength: 400 });
    if (t !== undefined) texts.push(t);
  }
  return texts;
}

describe("XGrammar's own grammar for the benchmark's tool calls", () => {
  it("20 tools, free text then calls: accepts toolgram's texts, refuses text after a call", async () => {
    const tools = twentyOpenAiTools();
    const texts = sampled(compileTools(tools, { format: "qwen3" }).grammar, 40, 1);
    expect(texts.filter((t) => t.includes("<tool_call>")).length).toBeGreaterThan(10);
    const weather = call("get_weather", '{"location": "Zürich \\"x\\"\\n", "days": 3}');
    const extra = [`I will look. ${weather}\n${weather}`, `${weather} done`, `${weather}\n`];
    const got = await accepts(tools, { toolChoice: "auto", parallel: true }, [...texts, ...extra]);
    expect(texts.filter((_, i) => !got[i])).toEqual([]);
    expect(got.slice(texts.length)).toEqual([true, false, false]);
  });

  it("GitHub MCP's 117 tools, one required call: accepts toolgram's texts, refuses text before it and a second call", async () => {
    const tools = githubMcpTools();
    const texts = sampled(
      compileTools(tools, { format: "qwen3", toolChoice: "required", parallel: false }).grammar,
      30,
      2,
    );
    const one = call("get_me", "{}");
    const got = await accepts(tools, { toolChoice: "required", parallel: false }, [
      ...texts,
      one,
      `hi ${one}`,
      `${one}\n${one}`,
    ]);
    expect(texts.filter((_, i) => !got[i])).toEqual([]);
    expect(got.slice(texts.length)).toEqual([true, false, false]);
  });
});
