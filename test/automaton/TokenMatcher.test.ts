import { describe, expect, it } from "vitest";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { cls, lit, ref, rep, seq, token, alt } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { bit, tinyPieces, tinyVocab } from "../support/tinyVocab.js";

const g = (root: GExpr, extra: [string, GExpr][] = []): Grammar => ({
  root: "root",
  rules: new Map([["root", root], ...extra]),
});
const vocab = tinyVocab();
const pieces = tinyPieces();
const idOf = (p: string | number[]): number => {
  const want = typeof p === "string" ? p : Buffer.from(p).toString("latin1");
  const i = pieces.findIndex((x) =>
    typeof x === "string"
      ? x === p
      : x instanceof Uint8Array
        ? Buffer.from(x).toString("latin1") === want && typeof p !== "string"
        : x?.text === p,
  );
  if (i < 0) throw new Error(`no piece ${String(p)}`);
  return i;
};
const EOS = vocab.eosTokenIds[0];
const maskOf = (m: ReturnType<typeof createMatcher>): Uint32Array => {
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));
  m.fillNextTokenBitmask(bits);
  return bits;
};
const allowed = (m: ReturnType<typeof createMatcher>): number[] => {
  const b = maskOf(m);
  const out: number[] = [];
  for (let i = 0; i < vocab.size; i++) if (bit(b, i)) out.push(i);
  return out;
};

describe("TokenMatcher basics", () => {
  it("follows a literal and allows EOS only at the end", () => {
    const m = createMatcher(g(lit("true")), vocab);
    expect(allowed(m).sort()).toEqual([idOf("t"), idOf("true"), idOf("tr")].sort());
    expect(m.acceptToken(idOf("tr"))).toBe(true);
    expect(m.isCompleted()).toBe(false);
    expect(m.acceptToken(EOS)).toBe(false);
    expect(allowed(m).sort()).toEqual([idOf("u"), idOf("ue")].sort());
    expect(m.acceptToken(idOf("ue"))).toBe(true);
    expect(m.isCompleted()).toBe(true);
    expect(allowed(m)).toEqual([EOS]);
    expect(m.acceptToken(EOS)).toBe(true);
    expect(allowed(m)).toEqual([]);
    m.rollback(1);
    expect(allowed(m)).toEqual([EOS]);
  });

  it("never allows padding ids, unused special tokens, or invalid UTF-8", () => {
    const m = createMatcher(g(rep(cls([0, 0x10ffff]), 0, null)), vocab);
    const a = new Set(allowed(m));
    for (let id = pieces.length; id < vocab.size; id++) expect(a.has(id)).toBe(false);
    expect(a.has(idOf("<|unused|>"))).toBe(false);
    expect(a.has(idOf("<tool_call>"))).toBe(false);
    expect(a.has(idOf([0xff]))).toBe(false);
    expect(a.has(idOf([0xc3, 0x28]))).toBe(false);
    expect(a.has(idOf([0xc3]))).toBe(true);
    expect(a.has(idOf([0xa9]))).toBe(false); // a continuation byte cannot start a character
    expect(m.acceptToken(vocab.size + 3)).toBe(false);
    expect(m.acceptToken(-1)).toBe(false);
  });

  it("allows a token ending inside a character only if the grammar accepts some completion", () => {
    // é (C3 A9) is allowed, ÿ (C3 BF) too, but no other C3 xx; 日 (E6 97 A5) is not allowed at all
    const m = createMatcher(g(rep(alt(lit("é"), lit("ÿ"), lit("a")), 1, null)), vocab);
    const a = new Set(allowed(m));
    expect(a.has(idOf([0xc3]))).toBe(true);
    expect(a.has(idOf([0xe6, 0x97]))).toBe(false);
    expect(m.acceptToken(idOf([0xc3]))).toBe(true);
    expect(new Set(allowed(m).map((id) => [...vocab.tokenBytes(id)].join(" ")))).toEqual(new Set(["169", "191"]));
    const m2 = createMatcher(g(lit("日")), vocab);
    const keys = (mm: ReturnType<typeof createMatcher>): Set<string> =>
      new Set(allowed(mm).map((id) => [...vocab.tokenBytes(id)].join(" ")));
    expect(keys(m2)).toEqual(new Set(["230 151", "230"]));
    const m3 = createMatcher(g(seq(lit("ab"), lit("é"))), vocab);
    expect(m3.acceptString("ab")).toBe(true);
    expect(keys(m3)).toEqual(new Set(["195", "195 169"]));
  });

  it("treats special tokens as atoms allowed only at `token` nodes", () => {
    const gr = g(seq(token("<tool_call>"), lit("x"), token("</tool_call>")));
    const m = createMatcher(gr, vocab);
    expect(new Set(allowed(m))).toEqual(new Set([idOf("<tool_call>"), idOf("<")]));
    expect(m.acceptToken(idOf("<tool_call>"))).toBe(true);
    expect(allowed(m)).toEqual([idOf("x")]);
    m.reset();
    // spelled by ordinary tokens
    for (const ch of "<tool_call>x</tool_call") expect(m.acceptToken(idOf(ch))).toBe(true);
    expect(m.acceptToken(idOf(">"))).toBe(true);
    expect(m.isCompleted()).toBe(true);
    const only = createMatcher(gr, vocab, { specialTokens: "token-only" });
    expect(allowed(only)).toEqual([idOf("<tool_call>")]);
  });

  it("a special token's text in a literal is spelled, never the atom", () => {
    const m = createMatcher(g(lit("<tool_call>")), vocab);
    expect(allowed(m)).toEqual([idOf("<")]);
  });

  it("handles recursion (nested arrays) with the caller's context", () => {
    const gr = g(ref("v"), [
      ["v", alt(lit("1"), seq(lit("["), ref("v"), rep(seq(lit(", "), ref("v")), 0, null), lit("]")))],
    ]);
    const m = createMatcher(gr, vocab);
    for (const t of ["[", "[", "1", ", ", "1", "]"]) expect(m.acceptToken(idOf(t))).toBe(true);
    expect(new Set(allowed(m))).toEqual(new Set([idOf(","), idOf(", "), idOf("]")]));
    expect(m.acceptToken(idOf("]"))).toBe(true);
    expect(m.isCompleted()).toBe(true);
    expect(allowed(m)).toEqual([EOS]);
  });

  it("refuses nothing-grammars and prunes dead branches", () => {
    const never = createMatcher(g(alt()), vocab);
    expect(allowed(never)).toEqual([]);
    const m = createMatcher(
      g(alt(seq(lit("a"), ref("dead")), lit("b")), [["dead", seq(lit("x"), ref("dead"))]]),
      vocab,
    );
    expect(allowed(m)).toEqual([idOf("b")]);
  });

  it("forcedText returns the unique continuation", () => {
    const gr = g(seq(lit('{"name": "'), alt(lit("get_weather"), lit("get_time")), lit('"}')));
    const m = createMatcher(gr, vocab);
    expect(m.forcedText()).toBe('{"name": "get_');
    expect(m.acceptString('{"name": "get_w')).toBe(true);
    expect(m.forcedText()).toBe('eather"}');
    expect(m.acceptString('eather"}')).toBe(true);
    expect(m.forcedText()).toBe("");
    const u = createMatcher(g(seq(lit("日"), rep(lit("x"), 0, 1))), vocab);
    expect(u.forcedText()).toBe("日");
  });

  it("rollback restores masks", () => {
    const m = createMatcher(g(rep(alt(lit("ab"), lit("a")), 1, 5)), vocab);
    const m0 = maskOf(m);
    m.acceptToken(idOf("a"));
    const m1 = maskOf(m);
    m.acceptToken(idOf("b"));
    m.acceptToken(idOf("a"));
    m.rollback(2);
    expect(maskOf(m)).toEqual(m1);
    m.rollback(1);
    expect(maskOf(m)).toEqual(m0);
    expect(() => m.rollback(1)).toThrow(RangeError);
  });

  it("builds from pieces without an explicit size", () => {
    const v = Vocabulary.fromPieces(["a", "b", { text: "<e>", special: true }], { eosTokenIds: [2] });
    const m = createMatcher(g(lit("ab")), v);
    const bits = new Uint32Array(1);
    m.fillNextTokenBitmask(bits);
    expect(bits[0]).toBe(1);
  });
});

describe("masks shared across grammars", () => {
  it("a string frame's masks reused by another grammar agree with acceptToken there", () => {
    const content = rep(cls([0x20, 0x21, 0x23, 0x5b, 0x5d, 0x10ffff]), 0, null);
    const a = g(seq(lit('"'), content, lit('"'), cls([0x78, 0x78]))); // a class, so the closing quote stays its own literal
    const b = g(seq(lit("["), rep(seq(lit('"'), content, lit('"')), 1, 2), lit("]")));
    const ma = createMatcher(a, vocab);
    ma.acceptString('"ab');
    maskOf(ma); // fills the shared cache
    const mb = createMatcher(b, vocab);
    for (const step of ['["', "é", '"', '"', "z"]) {
      expect(mb.acceptString(step)).toBe(true);
      const bits = maskOf(mb);
      for (let id = 0; id < vocab.size; id++) {
        const ok = mb.acceptToken(id);
        if (ok) mb.rollback(1);
        expect(ok, `token ${id} after ${step}`).toBe(bit(bits, id));
      }
    }
  });
});
