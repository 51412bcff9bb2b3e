import { describe, expect, it } from "vitest";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { alt, lit, opt, ref, rep, seq, token } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { compileSchema } from "../../src/compile.js";
import { fuzzVocab } from "../support/fuzzVocab.js";
import { bit } from "../support/tinyVocab.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";

/**
 * A mask never allows a token after which no completion exists. Parts of a grammar that derive no finite text
 * (recursion without a base case, directly, mutually, or behind a call, or a special token the vocabulary lacks in
 * "token-only" mode) are left out of the automaton, so every live configuration (stack included) can finish.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);
const vocab = fuzzVocab();
const g = (root: GExpr, rules: [string, GExpr][]): Grammar => ({
  root: "root",
  rules: new Map<string, GExpr>([["root", root], ...rules]),
});

const DEAD_RECURSION: [string, Grammar][] = [
  [
    "self recursion without base case",
    g(alt(seq(lit("a"), ref("bad")), lit("b")), [["bad", seq(lit("x"), ref("bad"))]]),
  ],
  [
    "mutual recursion without base case",
    g(alt(seq(lit("a"), ref("p")), lit("b")), [
      ["p", seq(lit("("), ref("q"))],
      ["q", seq(lit(")"), ref("p"))],
    ]),
  ],
  [
    // a recursive list whose only exit leads into the dead rule: the stack could grow, but never unwind
    "productive recursion whose way out is dead",
    g(alt(seq(lit("["), ref("list"), lit("]")), lit("n")), [
      ["list", alt(seq(lit("y"), ref("list")), seq(lit("("), ref("bad"), lit(")")), lit("z"))],
      ["bad", seq(lit("x"), ref("bad"))],
      ["tail", alt(seq(lit("t"), ref("tail")), seq(lit("u"), ref("dead")))],
      ["dead", seq(ref("tail"), lit("!"))],
    ]),
  ],
  [
    "repetition of a dead rule",
    g(seq(lit("<"), rep(ref("bad"), 0, null), opt(ref("bad")), lit(">")), [["bad", seq(lit("x"), ref("bad"))]]),
  ],
];

function allowedTexts(gr: Grammar, prefix: string): string[] {
  const m = createMatcher(gr, vocab);
  if (prefix) expect(m.acceptString(prefix)).toBe(true);
  const bits = new Uint32Array(m.bitmaskSize);
  m.fillNextTokenBitmask(bits);
  const out: string[] = [];
  for (let id = 0; id < vocab.size; id++)
    if (bit(bits, id) && vocab.kind[id] !== undefined) out.push(new TextDecoder().decode(vocab.tokenBytes(id)));
  return out;
}

describe("no dead ends", () => {
  it("first masks exclude the dead branches", () => {
    expect(allowedTexts(DEAD_RECURSION[0][1], "")).toEqual(["b"]);
    expect(allowedTexts(DEAD_RECURSION[1][1], "")).toEqual(["b"]);
    expect(allowedTexts(DEAD_RECURSION[2][1], "[").sort()).toEqual(["y", "z"]);
    expect(allowedTexts(DEAD_RECURSION[3][1], "<")).toEqual([">"]);
  });

  it.each(DEAD_RECURSION)("random walks never reach a dead end: %s", (_name, gr) => {
    checkRandomWalks(gr, vocab, { seed: SEED, numRuns: 40, maxLength: 30 });
  });

  it("a root that derives nothing has an empty language: no token, not even EOS", () => {
    const m = createMatcher(g(seq(lit("x"), ref("root")), []), vocab);
    const bits = new Uint32Array(m.bitmaskSize);
    m.fillNextTokenBitmask(bits);
    expect(bits.every((w) => w === 0)).toBe(true);
    expect(m.acceptString("x")).toBe(false);
  });

  it("the compiler refuses required recursion with no base case", () => {
    for (const schema of [
      { $ref: "#" },
      { type: "object", properties: { a: { $ref: "#" } }, required: ["a"] },
      { type: "array", items: { $ref: "#" }, minItems: 1 },
    ]) {
      expect(() => compileSchema(schema)).toThrow(expect.objectContaining({ code: "UNSATISFIABLE" }));
    }
  });

  it('"token-only": a special token the vocabulary lacks is a dead branch', () => {
    const gr = g(alt(seq(lit("a"), token("<|missing|>")), seq(lit("b"), token("<tool_call>"))), []);
    const m = createMatcher(gr, vocab, { specialTokens: "token-only" });
    const bits = new Uint32Array(m.bitmaskSize);
    m.fillNextTokenBitmask(bits);
    const texts = [];
    for (let id = 0; id < vocab.size; id++)
      if (bit(bits, id)) texts.push(new TextDecoder().decode(vocab.tokenBytes(id)));
    expect(texts).toEqual(["b"]);
    // token-or-text spells it with ordinary tokens instead
    expect(createMatcher(gr, vocab).acceptString("a<|missing|>")).toBe(true);
    // the automaton depends on the vocabulary's special tokens: another vocabulary gets its own
    const noSpecials = Vocabulary.fromPieces(["a", "b", { text: "<|missing|>", special: true }], { eosTokenIds: [] });
    const other = createMatcher(gr, noSpecials, { specialTokens: "token-only" });
    expect(other.acceptString("a")).toBe(true);
    expect(other.acceptToken(2)).toBe(true);
    expect(other.isCompleted()).toBe(true);
  });
});
