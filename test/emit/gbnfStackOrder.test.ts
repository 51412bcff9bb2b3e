import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { TOKEN_TEXT } from "../../src/vocab/Vocabulary.js";
import { type Candidate, LlamaGrammarModel } from "../support/LlamaGrammarModel.js";
import { qwen3 } from "../support/qwen3.js";
import { tierSample } from "../support/tier.js";

/**
 * The work llama.cpp's grammar sampler does on toolgram's GBNF, counted on a model of its engine
 * (test/support/LlamaGrammarModel.ts): every Qwen3 token (whole code points) handed to the sampler at a position, and
 * each `llama_grammar_match_char` call on a candidate counted. The GBNF the weather tools printed to before the
 * stack-order shape (`(class | "\\" esc)*`) is the reference: inside a string the content class is now the first
 * stack llama.cpp tries, so most tokens meet one stack per character instead of three. Both spellings allow exactly
 * the tokens the matcher allows.
 */
const here = dirname(fileURLToPath(import.meta.url));
const WEATHER = JSON.parse(readFileSync(join(here, "..", "..", "examples", "weather.tools.json"), "utf8")) as unknown[];
const POLICY = { format: "qwen3", toolChoice: "required", parallel: false } as const;

/** toolgram's GBNF for the weather tools before it was shaped for llama.cpp's stack order (test/fixtures). */
const before = (name: string) =>
  readFileSync(join(here, "..", "fixtures", "gbnf-before-stack-order", `${name}.gbnf`), "utf8");
const BEFORE = before("weather-qwen3-required");

const CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "';

/** Every ordinary Qwen3 token whose bytes are whole UTF-8 characters, as code points (what llama.cpp decodes). */
function candidates(): Candidate[] {
  const { vocab } = qwen3();
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }); // a token that is U+FEFF keeps it
  const out: Candidate[] = [];
  for (let id = 0; id < vocab.size; id++) {
    if (vocab.kind[id] !== TOKEN_TEXT) continue;
    const b = vocab.tokenBytes(id);
    if (b.length === 0 || b[0] === 0) continue;
    let text: string;
    try {
      text = decoder.decode(b);
    } catch {
      continue;
    }
    out.push({ id, cps: [...text].map((c) => c.codePointAt(0)!) });
  }
  return out;
}

/** llama.cpp's work and verdicts after `prefix`, and the matcher's verdicts on the same tokens. */
function step(
  gbnf: string,
  prefix: string,
  cands: Candidate[],
  policy: Parameters<typeof compileTools>[1] = POLICY,
): { calls: number; stacks: number; refused: Set<number>; matcherRefused: Set<number> } {
  const model = LlamaGrammarModel.parse(gbnf);
  model.acceptText(prefix);
  const refused = model.reject(cands);
  const { vocab, encode } = qwen3();
  const matcher = compileTools(WEATHER, policy).createMatcher(vocab);
  for (const t of encode(prefix)) expect(matcher.acceptToken(t)).toBe(true);
  const bits = new Uint32Array(matcher.bitmaskSize);
  matcher.fillNextTokenBitmask(bits);
  const matcherRefused = new Set(cands.filter((c) => ((bits[c.id >>> 5] >>> (c.id & 31)) & 1) === 0).map((c) => c.id));
  return { calls: model.matchCalls, stacks: model.stackCount, refused, matcherRefused };
}

describe("llama.cpp's grammar sampler on toolgram's GBNF, counted", () => {
  const cands = candidates();
  const after = compileTools(WEATHER, POLICY).toGbnf();

  // each case counts llama.cpp's checks over the whole vocabulary, twice: the quick tier takes one of each pair
  it.each(
    tierSample(
      [
        ["a string's first character", CALL, 0.45],
        ["the middle of a string", `${CALL}Par`, 0.45],
      ] as const,
      2,
    ),
  )("inside a string (%s): under half the character checks, the same tokens allowed", (_name, prefix, ratio) => {
    const b = step(BEFORE, prefix, cands);
    const a = step(after, prefix, cands);
    console.log(
      `${JSON.stringify(prefix.slice(-8))}: ${cands.length} tokens, match_char calls ${b.calls} before, ${a.calls} after`,
    );
    expect(a.refused).toEqual(b.refused);
    expect(a.refused).toEqual(a.matcherRefused);
    expect(cands.length - a.refused.size).toBeGreaterThan(100_000);
    expect(a.stacks).toBe(b.stacks);
    expect(a.calls).toBeLessThan(ratio * b.calls);
  });

  it("outside a string: one check per token in both spellings", () => {
    const prefix = '<tool_call>\n{"name": "get_';
    const b = step(BEFORE, prefix, cands);
    const a = step(after, prefix, cands);
    expect(a.refused).toEqual(b.refused);
    expect(a.refused).toEqual(a.matcherRefused);
    expect(a.calls).toBeLessThanOrEqual(b.calls);
    expect(a.calls).toBeLessThan(2.1 * cands.length);
  });

  it.each(
    tierSample(
      [
        ["text that begins like the call tag", "Let me check. <tool", 0.35],
        ["the start", "", 0.3],
      ] as const,
      2,
    ),
  )("free text before a call (%s): the text class first, the same tokens allowed", (_name, prefix, ratio) => {
    const policy = { format: "qwen3" } as const;
    const b = step(before("weather-qwen3"), prefix, cands, policy);
    const a = step(compileTools(WEATHER, policy).toGbnf(), prefix, cands, policy);
    console.log(`free text after ${JSON.stringify(prefix)}: match_char calls ${b.calls} before, ${a.calls} after`);
    expect(a.refused).toEqual(b.refused);
    expect(a.refused).toEqual(a.matcherRefused);
    expect(a.calls).toBeLessThan(ratio * b.calls);
  });
});
