import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Tokenizer } from "@huggingface/tokenizers";
import { describe, expect, it } from "vitest";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES, type FormatName } from "../../src/formats/index.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { TINY_MODEL_FAMILIES, type TinyModelFamilyName } from "../../src/gguf/tinyModelFamilies.js";
import { renderToolCalls, type CallToRender } from "../../src/parser/renderToolCalls.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { LONG_TIER } from "../support/tier.js";
import { checkRandomWalks } from "./walkCheck.js";

/**
 * Token-level conformance over each family's real vocabulary (gpt-oss's o200k_harmony, DeepSeek V3's, Llama 3's, next
 * to Qwen3's own tests): the vocabulary reads right from tokenizer.json, the matcher agrees with `accepts()` on random
 * walks under its own masks, and a rendered call tokenized by the family's HF tokenizer is accepted token by token.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261123);
const RUNS = LONG_TIER ? 12 : 2;
const WALK = LONG_TIER ? 40 : 16;

interface FamilyCase {
  family: Exclude<TinyModelFamilyName, "qwen3">;
  /** Ids the vocabulary must hold: the real token count (tokenizer.json) and the family's end token. */
  tokens: number;
  eos: number;
  /** The family's own tool-call format, when toolgram has it. */
  formats: string[];
}

const FAMILIES: FamilyCase[] = [
  { family: "gptoss", tokens: 200_019, eos: 200_002, formats: ["openai"] },
  { family: "deepseek_v3", tokens: 128_815, eos: 1, formats: ["deepseek-v3", "deepseek-v3.1", "deepseek-v3.2", "deepseek-v4"] },
  { family: "llama3_1", tokens: 128_256, eos: 128_009, formats: ["llama3-json"] },
];

const WEATHER = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string", maxLength: 12 }, days: { type: "integer", minimum: 1, maximum: 14 } }, required: ["city"], additionalProperties: false },
    },
  },
];

function load(family: FamilyCase["family"]): { json: unknown; vocab: Vocabulary; hf: Tokenizer } {
  const { tokenizerPackage, vocabularySize } = TINY_MODEL_FAMILIES[family];
  const path = createRequire(import.meta.url).resolve(`${tokenizerPackage}/models/tokenizer.json`);
  const json: unknown = JSON.parse(readFileSync(path, "utf8"));
  const c = FAMILIES.find((f) => f.family === family)!;
  return { json, vocab: Vocabulary.fromTokenizerJson(json, { size: vocabularySize, eosTokenIds: [c.eos] }), hf: new Tokenizer(json as never, {}) };
}

describe.each(FAMILIES)("the $family vocabulary", (c) => {
  const { vocab, hf } = load(c.family);
  const formats = ["qwen3", "llama3-json", ...c.formats].filter((f, i, all) => (FORMAT_NAMES as readonly string[]).includes(f) && all.indexOf(f) === i);
  const grammars: [string, Grammar][] = [
    ...formats.map((f): [string, Grammar] => [`compileTools ${f}`, compileTools(WEATHER, { format: f as never, toolChoice: "required", parallel: false }).grammar]),
    ["compileSchema", compileSchema({ type: "object", properties: { a: { type: "array", items: { type: "integer" }, maxItems: 3 }, b: { type: "string", maxLength: 6 } }, required: ["a"] }).grammar],
  ];

  it("reads from tokenizer.json with the model's logit count, its end token, and its added tokens as atoms", () => {
    expect(vocab.size).toBe(TINY_MODEL_FAMILIES[c.family].vocabularySize);
    expect(vocab.eosTokenIds).toEqual([c.eos]);
    expect(vocab.atoms.get(c.eos)).toBe(TINY_MODEL_FAMILIES[c.family].eosToken);
    let real = 0;
    for (let id = 0; id < vocab.size; id++) if (vocab.atoms.has(id) || vocab.tokenBytes(id).length > 0) real++;
    expect(real).toBe(c.tokens);
    // the HF tokenizer's pieces decode to the same bytes as the vocabulary's
    const text = "Paris, 12 °C — ünïcödé\n\t{\"a\": [1, 2]}";
    const ids = hf.encode(text, { add_special_tokens: false }).ids;
    const bytes = ids.flatMap((id: number) => [...vocab.tokenBytes(id)]);
    expect(new TextDecoder().decode(Uint8Array.from(bytes))).toBe(text);
  });

  it.each(grammars)("%s: the matcher agrees with accepts() on random walks under its masks", (_name, grammar) => {
    checkRandomWalks(grammar, vocab, { seed: SEED, numRuns: RUNS, maxLength: WALK });
  }, 300_000);

  it.each(formats)("%s: a rendered call, tokenized by the family's tokenizer, is accepted token by token", (format) => {
    const compiled = compileTools(WEATHER, { format: format as never, toolChoice: "required", parallel: false });
    const text = renderToolCalls([{ name: "get_weather", arguments: { city: "Paris", days: 3 } }], format as never);
    expect(createAcceptor(compiled.grammar).accepts(text), text).toBe(true);
    const m = createMatcher(compiled.grammar, vocab);
    const ids = hf.encode(text, { add_special_tokens: false }).ids;
    for (const [i, id] of ids.entries()) expect(m.acceptToken(id), `token ${i} (${id}) of ${JSON.stringify(text)}`).toBe(true);
    expect(m.isCompleted()).toBe(true);
    expect(m.acceptToken(c.eos)).toBe(true);
  });

  const own = c.formats.filter((f) => (FORMAT_NAMES as readonly string[]).includes(f));
  it.each(own)("%s: the format's special tokens are single tokens here, and calls go through them", (format) => {
    const d = FORMAT_DESCRIPTIONS[format as FormatName];
    const compiled = compileTools(WEATHER, { format: format as never, toolChoice: "required" });
    // two calls where the format carries two (the separators and sections between calls are tokens too)
    const two: CallToRender[] = [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_weather", arguments: { city: "Oslo", days: 2 } },
    ];
    const calls = two.slice(0, d.maxCalls);
    const text = renderToolCalls(calls, format as never);
    const ids = hf.encode(text, { add_special_tokens: false }).ids;
    for (const marker of d.specialTokens.filter((t) => text.includes(t))) {
      const [id] = hf.encode(marker, { add_special_tokens: false }).ids;
      expect(hf.encode(marker, { add_special_tokens: false }).ids, marker).toHaveLength(1);
      expect(vocab.atoms.get(id), marker).toBe(marker);
      expect(ids, marker).toContain(id);
    }
    const m = createMatcher(compiled.grammar, vocab);
    for (const [i, id] of ids.entries()) expect(m.acceptToken(id), `token ${i} (${id}) of ${JSON.stringify(text)}`).toBe(true);
    expect(m.isCompleted()).toBe(true);
    // the marker's text spelled in plain pieces is refused where the grammar writes the token (specialTokens: "token-only")
    const only = createMatcher(compileTools(WEATHER, { format: format as never, toolChoice: "required", freeText: false }).grammar, vocab, { specialTokens: "token-only" });
    const first = d.section?.open ?? d.open ?? "";
    if (d.specialTokens.includes(first)) {
      const pieces = hf.encode(first.slice(0, 1), { add_special_tokens: false }).ids;
      expect(only.acceptToken(pieces[0])).toBe(false);
    }
  });
});
