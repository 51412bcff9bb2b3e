import { loadXGrammar, type XgCompiled, type XgCompiler, type XGrammar } from "../../../bench/loadXGrammar.js";
import type { Vocabulary } from "../../../src/vocab/Vocabulary.js";
import { expect } from "vitest";
import type { CompiledGrammar } from "../../../src/CompiledGrammar.js";
import { sampleGrammar } from "../../../src/testing/sampleGrammar.js";
import { type Random, seededRandom } from "../../../src/util/seededRandom.js";
import { qwen3 } from "../qwen3.js";

/**
 * XGrammar itself (`@mlc-ai/web-xgrammar`) as the judge of an emitted EBNF: a compiler without a vocabulary for
 * matching whole texts, and one over the Qwen3 vocabulary for walking its token masks. Loaded once per file.
 */
export interface XgHarness {
  xg: XGrammar;
  /** Compiles over no vocabulary (text matching only). A malformed EBNF throws or aborts the module. */
  textCompiler: XgCompiler;
  /** Compiles over the Qwen3 vocabulary (mask walks), created on first use. */
  tokenCompiler(): Promise<XgCompiler>;
  vocab: Vocabulary;
  /**
   * The bytes XGrammar was told a token decodes to: an ordinary token's bytes, a special or added token's text (the
   * vocabulary keeps those as atoms without bytes, but XGrammar matches their text, so a walk's text must hold it).
   */
  tokenText(id: number): Uint8Array;
}

const QWEN3_SIZE = 151936;
const QWEN3_EOS = [151645, 151643];

export async function xgHarness(): Promise<XgHarness> {
  const xg = loadXGrammar();
  const info = await xg.TokenizerInfo.createTokenizerInfo([]);
  const textCompiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
  const { vocab, tokenizerJson } = qwen3();
  let tokenCompiler: XgCompiler | undefined;
  const added = new Map<number, Uint8Array>();
  for (const a of (tokenizerJson as { added_tokens: { id: number; content: string }[] }).added_tokens)
    added.set(a.id, new TextEncoder().encode(a.content));
  return {
    xg,
    textCompiler,
    vocab,
    tokenText: (id) => added.get(id) ?? vocab.tokenBytes(id),
    async tokenCompiler() {
      if (tokenCompiler) return tokenCompiler;
      const tj = tokenizerJson as {
        model: { vocab: Record<string, number> };
        added_tokens: { id: number; content: string }[];
      };
      const pieces: string[] = new Array(QWEN3_SIZE).fill("");
      for (const [p, id] of Object.entries(tj.model.vocab)) pieces[id] = p;
      for (const a of tj.added_tokens) pieces[a.id] = a.content;
      const tinfo = await xg.TokenizerInfo.createTokenizerInfo(pieces, "byte_level", false, QWEN3_SIZE, QWEN3_EOS);
      tokenCompiler = await xg.GrammarCompiler.createGrammarCompiler(tinfo, false);
      return tokenCompiler;
    },
  };
}

/** XGrammar's verdict on each whole text (matched character by character, then required to be finished). */
export async function xgAccepts(xg: XGrammar, compiled: XgCompiled, texts: readonly string[]): Promise<boolean[]> {
  const out: boolean[] = [];
  for (const t of texts) {
    const m = await xg.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
    out.push(m._acceptString(t) && m.isTerminated());
    m.dispose();
  }
  return out;
}

/** Bytes made only of ASCII punctuation, digits and spaces: the tokens that close strings, objects and calls. */
function structural(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  for (const b of bytes) {
    const letter = (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
    if (b >= 0x80 || letter) return false;
  }
  return true;
}

/**
 * A seeded walk under XGrammar's masks: each step draws an allowed token (the end of sequence with probability
 * 0.3 when it is allowed, otherwise a structural token with probability 0.6 when one is allowed, so that strings and
 * objects get closed, else any allowed token). Returns the decoded text when the walk ended within `maxSteps`
 * (XGrammar allowed the end of sequence and it was drawn), or undefined.
 */
export async function xgWalk(
  h: XgHarness,
  compiled: XgCompiled,
  random: Random,
  maxSteps = 200,
): Promise<{ text: string; steps: number } | undefined> {
  const m = await h.xg.GrammarMatcher.createGrammarMatcher(compiled);
  const bytes: number[] = [];
  try {
    for (let step = 0; step < maxSteps; step++) {
      const mask = await m.getNextTokenBitmask();
      const allowed: number[] = [];
      const shaped: number[] = [];
      let eos = false;
      for (let w = 0; w < mask.length; w++) {
        let word = mask[w];
        while (word !== 0) {
          const bit = 31 - Math.clz32(word & -word);
          word &= word - 1;
          const id = w * 32 + bit;
          if (id >= QWEN3_SIZE) continue;
          if (QWEN3_EOS.includes(id)) {
            eos = true;
            continue;
          }
          if (id >= h.vocab.size) continue;
          allowed.push(id);
          if (structural(h.tokenText(id))) shaped.push(id);
        }
      }
      if (eos && (allowed.length === 0 || random() < 0.3)) {
        const text = new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
        return { text, steps: step };
      }
      if (allowed.length === 0) throw new Error("XGrammar's mask allows nothing and not the end");
      const from = shaped.length > 0 && random() < 0.6 ? shaped : allowed;
      const id = from[Math.floor(random() * from.length)];
      if (!m.acceptToken(id)) throw new Error(`XGrammar refused token ${id}, which its own mask allowed`);
      bytes.push(...h.tokenText(id));
    }
    return undefined;
  } finally {
    m.dispose();
  }
}

/** Seeded members of the compiled grammar's language. */
function samples(c: CompiledGrammar, n: number, seed: number): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < n * 3 && out.length < n; i++) {
    const s = sampleGrammar(c.grammar, random, { extraRepeats: 2, maxLength: 1500 });
    if (s !== undefined) out.push(s);
  }
  return out;
}

/**
 * Both directions on one compiled grammar: XGrammar accepts every sampled member, and every walk under XGrammar's
 * masks that ended is a member for toolgram. Returns the number of walks that ended.
 */
export async function agree(
  h: XgHarness,
  c: CompiledGrammar,
  seed: number,
  nSamples: number,
  nWalks: number,
): Promise<number> {
  const ebnf = c.toXGrammarEbnf();
  const text = await h.textCompiler.compileGrammar(ebnf);
  const texts = samples(c, nSamples, seed);
  expect(texts.length).toBeGreaterThan(0);
  const verdicts = await xgAccepts(h.xg, text, texts);
  expect(texts.filter((_, i) => !verdicts[i])).toEqual([]);
  text.dispose();
  if (nWalks === 0) return 0;
  let ended = 0;
  const tokens: XgCompiled = await (await h.tokenCompiler()).compileGrammar(ebnf);
  const random = seededRandom(seed);
  for (let i = 0; i < nWalks; i++) {
    const w = await xgWalk(h, tokens, random);
    if (w === undefined) continue;
    ended++;
    expect({ walk: w.text, accepted: c.accepts(w.text) }).toEqual({ walk: w.text, accepted: true });
  }
  tokens.dispose();
  return ended;
}
