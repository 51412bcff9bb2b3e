/**
 * The differential check at the heart of the fuzzers: one compiled grammar, one text, every engine's verdict —
 * the reference acceptor (`accepts`), the regex (where the language is regular), the token matcher on a hand-built
 * vocabulary (token by token, checking mask bit ⇔ acceptToken at every step), and the strict parser — with ajv as the
 * referee of anything accepted.
 */
import type { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { ToolgramError } from "../../src/errors.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { Referee } from "../../src/conformance/referee.js";
import type { Vocabulary } from "../../src/vocab/Vocabulary.js";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";

export interface Verdicts {
  accepts: boolean;
  regex?: boolean;
  matcher: boolean;
  /** Strict parser: the text is calls in canonical form, all declared and valid (tool mode only). */
  parser?: boolean;
  /** ajv's verdict on what the text means (JSON mode: the value; tool mode: every call valid). */
  referee: boolean;
}

export interface Disagreement {
  text: string;
  verdicts: Verdicts;
  problem: string;
}

const referee = new Referee();
const regexCache = new WeakMap<CompiledGrammar, RegExp | null>();
const matcherCache = new WeakMap<CompiledGrammar, Map<Vocabulary, TokenMatcher>>();

function regexOf(g: CompiledGrammar): RegExp | null {
  if (!regexCache.has(g)) {
    let re: RegExp | null = null;
    try {
      re = new RegExp(g.toRegex(), "u");
    } catch (e) {
      // recursion (NOT_REGULAR) or a regex too large to print: the regex engine sits this one out
      if (!(e instanceof ToolgramError) || (e.code !== "NOT_REGULAR" && !e.code.startsWith("LIMIT_"))) throw e;
    }
    regexCache.set(g, re);
  }
  return regexCache.get(g)!;
}

function matcherOf(g: CompiledGrammar, vocab: Vocabulary): TokenMatcher {
  let m = matcherCache.get(g);
  if (!m) matcherCache.set(g, (m = new Map()));
  let t = m.get(vocab);
  if (!t) m.set(vocab, (t = g.createMatcher(vocab)));
  t.reset();
  return t;
}

interface TokenIndex {
  /** Special tokens with their text, longest first. */
  atoms: [Uint8Array, number][];
  byFirstByte: Map<number, number[]>;
}
const tokenIndexes = new WeakMap<Vocabulary, TokenIndex>();

function tokenIndex(vocab: Vocabulary): TokenIndex {
  let ix = tokenIndexes.get(vocab);
  if (!ix) {
    const enc = new TextEncoder();
    const atoms: [Uint8Array, number][] = [...vocab.atoms]
      .filter(([id]) => !vocab.eosTokenIds.includes(id))
      .map(([id, t]) => [enc.encode(t), id]);
    const byFirstByte = new Map<number, number[]>();
    for (let id = 0; id < vocab.size; id++) {
      if (vocab.atoms.has(id)) continue;
      const b = vocab.tokenBytes(id);
      if (!b || b.length === 0) continue;
      const list = byFirstByte.get(b[0]) ?? [];
      list.push(id);
      byFirstByte.set(b[0], list);
    }
    tokenIndexes.set(vocab, (ix = { atoms, byFirstByte }));
  }
  return ix;
}

/**
 * Greedy longest-match tokenization over a vocabulary's ordinary pieces; with `atoms`, a special token's exact text
 * becomes that token (as real tokenizers split added tokens).
 */
export function greedyTokenize(vocab: Vocabulary, text: string, atoms = false): number[] {
  const bytes = new TextEncoder().encode(text);
  const ix = tokenIndex(vocab);
  const byFirstByte = ix.byFirstByte;
  const specials = atoms ? ix.atoms : [];
  const ids: number[] = [];
  let i = 0;
  outer: while (i < bytes.length) {
    for (const [tb, id] of specials) {
      if (tb.every((x, k) => bytes[i + k] === x)) {
        ids.push(id);
        i += tb.length;
        continue outer;
      }
    }
    let best = -1;
    let bestLen = 0;
    for (const id of byFirstByte.get(bytes[i]) ?? []) {
      const b = vocab.tokenBytes(id);
      if (b.length > bestLen && i + b.length <= bytes.length && b.every((x, k) => bytes[i + k] === x)) {
        best = id;
        bestLen = b.length;
      }
    }
    if (best < 0) throw new Error(`byte ${bytes[i]} has no token`);
    ids.push(best);
    i += bestLen;
  }
  return ids;
}

const bit = (bits: Uint32Array, id: number): boolean => ((bits[id >>> 5] >>> (id & 31)) & 1) === 1;

/** Feeds tokens one by one, checking mask ⇔ acceptToken for the token taken; true when all accepted and complete. */
function matcherVerdict(m: TokenMatcher, vocab: Vocabulary, ids: number[], problems: string[]): boolean {
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));
  for (const id of ids) {
    m.fillNextTokenBitmask(bits);
    const allowed = bit(bits, id);
    const ok = m.acceptToken(id);
    if (allowed !== ok) problems.push(`mask bit ${allowed} but acceptToken ${ok} for token ${id}`);
    if (!ok) return false;
  }
  m.fillNextTokenBitmask(bits);
  const complete = m.isCompleted();
  for (const e of vocab.eosTokenIds)
    if (bit(bits, e) !== complete) problems.push(`EOS bit ${bit(bits, e)} but isCompleted ${complete}`);
  return complete;
}

export type JudgeMode = { kind: "json"; schema: unknown } | { kind: "tools"; tools: readonly unknown[] };

/**
 * All verdicts on one text; a Disagreement when engines differ, mask and acceptToken differ, or an engine accepts
 * what ajv rejects. `tokenize` defaults to greedy longest match over `vocab`.
 */
export function judgeText(
  g: CompiledGrammar,
  text: string,
  vocab: Vocabulary,
  mode: JudgeMode,
  tokenize?: (text: string) => number[],
): Disagreement | undefined {
  const problems: string[] = [];
  // Spelled with ordinary tokens only, the matcher must agree with accepts() exactly (special tokens may always be
  // written as text). With special tokens split out as a real tokenizer does, it may reject more (a special token
  // is allowed only where the grammar has a token node) but never accept more.
  const plain = tokenize ?? ((t: string) => greedyTokenize(vocab, t));
  const withAtoms = tokenize ? undefined : greedyTokenize(vocab, text, true);
  const re = regexOf(g);
  const v: Verdicts = {
    accepts: g.accepts(text),
    matcher: matcherVerdict(matcherOf(g, vocab), vocab, plain(text), problems),
    referee: false,
  };
  if (withAtoms && matcherVerdict(matcherOf(g, vocab), vocab, withAtoms, problems) && !v.accepts)
    problems.push("matcher accepted the special-token spelling of a text accepts() rejects");
  if (re) v.regex = re.test(text);
  if (mode.kind === "json") v.referee = referee.validText(mode.schema, text);
  else {
    const strict = parseToolCalls(text, { tools: mode.tools, mode: "strict" });
    v.parser = strict.issues.length === 0 && strict.dropped === 0;
    const tolerant = parseToolCalls(text, { tools: mode.tools, mode: "tolerant" });
    v.referee = tolerant.dropped === 0 && tolerant.calls.every((c) => c.valid);
  }
  const engines: [string, boolean | undefined][] = [
    ["accepts", v.accepts],
    ["regex", v.regex],
    ["matcher", v.matcher],
    ["parser", v.parser],
  ];
  for (const [name, verdict] of engines) {
    if (verdict === undefined) continue;
    if (verdict !== v.accepts) problems.push(`${name} says ${verdict}, accepts() says ${v.accepts}`);
    if (verdict && !v.referee) problems.push(`${name} accepted text that ajv rejects`);
  }
  return problems.length ? { text, verdicts: v, problem: problems.join("; ") } : undefined;
}
