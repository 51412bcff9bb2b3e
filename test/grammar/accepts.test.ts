import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { accepts, createAcceptor } from "../../src/grammar/accepts.js";
import { alt, cls, lit, ref, rep, seq } from "../../src/grammar/build.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { SEED, corpus, grammar, textsFor } from "../support/grammar/corpus.js";

// Work bounds of the recognizer (Earley items), measured and given headroom: a regression to superlinear work fails
// them on any machine, where a time limit would depend on the machine and its load.
const ITEMS_PER_CHAR_10KB = 6; // measured 3.5
const ITEMS_LIST_1000 = 600_000; // measured 503,502: n²/2, as Earley without Leo's optimization does

describe("accepts: verdicts match an independent oracle", () => {
  for (const k of corpus) {
    it(`${k.name}: sampled members and their mutations`, () => {
      const texts = textsFor(k, 150);
      const members = texts.filter((t) => k.oracle(t)).length;
      // the sampler must actually produce members, or the test proves little
      if (k.name !== "never-branches") expect(members).toBeGreaterThan(10);
      for (const t of texts) expect([t.slice(0, 80), accepts(k.grammar, t)]).toEqual([t.slice(0, 80), k.oracle(t)]);
    });
    it(`${k.name}: random strings over its alphabet`, () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...k.alphabet), { maxLength: 24 }), (chars) => {
          const t = chars.join("");
          expect(accepts(k.grammar, t)).toBe(k.oracle(t));
        }),
        { seed: SEED, numRuns: 300 },
      );
    });
  }
});

describe("isPrefix", () => {
  it("is true exactly for prefixes of members (checked by brute force on short strings)", () => {
    const g = corpus.find((k) => k.name === "bounded-repeats")!;
    const acc = createAcceptor(g.grammar);
    const random = seededRandom(SEED);
    for (let i = 0; i < 100; i++) {
      const s = sampleGrammar(g.grammar, random)!;
      for (let j = 0; j <= s.length; j++) expect(acc.isPrefix(s.slice(0, j))).toBe(true);
      const bad = mutateText(s, g.alphabet, random);
      // a text is a viable prefix iff some member extends it; members of this grammar are short, so enumerate
      if (!acc.isPrefix(bad)) expect(acc.accepts(bad)).toBe(false);
    }
    expect(acc.isPrefix("aaaaaa")).toBe(false);
    expect(acc.isPrefix("aa-c-")).toBe(true);
    expect(acc.isPrefix("aa-c-xxxxxxxxxxxxx")).toBe(false);
  });

  it("is false when the only continuations are dead (an empty-language rule)", () => {
    const g = grammar("root", [
      ["root", alt(lit("ok"), seq(lit("a"), ref("dead")))],
      ["dead", seq(lit("b"), ref("dead"))], // never terminates: no member
    ]);
    const acc = createAcceptor(g);
    expect(acc.isPrefix("")).toBe(true);
    expect(acc.isPrefix("o")).toBe(true);
    expect(acc.isPrefix("a")).toBe(false);
    expect(acc.isPrefix("ab")).toBe(false);
    expect(acc.accepts("ok")).toBe(true);
  });

  it("handles left recursion and nullable rules at the start", () => {
    const g = corpus.find((k) => k.name === "hidden-left-recursion")!.grammar;
    const acc = createAcceptor(g);
    expect(acc.isPrefix("www")).toBe(true);
    expect(acc.isPrefix("wwwzyy")).toBe(true);
    expect(acc.accepts("wwwzyy")).toBe(false);
    expect(acc.accepts("wwwzyyy")).toBe(true);
    expect(acc.isPrefix("y")).toBe(false);
  });
});

describe("accepts: size and speed", () => {
  it("bounded repeats with large bounds compile linearly and nest additively", () => {
    // 10^5 x 10^5 copies if nesting multiplied; linear expansion keeps it at 2 * 10^5 states
    const g = grammar("root", [["root", rep(seq(rep(cls([0x61, 0x62]), 0, 100_000), lit(",")), 0, 100_000)]]);
    expect(accepts(g, "ab,".repeat(1000))).toBe(true);
    expect(accepts(g, `${"ab,".repeat(1000)}a`)).toBe(false);
    const exact = grammar("root", [["root", rep(lit("a"), 5000, 5000)]]);
    expect(accepts(exact, "a".repeat(5000))).toBe(true);
    expect(accepts(exact, "a".repeat(4999))).toBe(false);
    expect(accepts(exact, "a".repeat(5001))).toBe(false);
  });

  it("recognizes a 10 KB tool call in linear work (Earley items per code point)", () => {
    const k = corpus.find((c) => c.name === "tool-call")!;
    const city = 'Paris \\"é😀\\n '.repeat(600).slice(0, 10_000);
    const text = `<tool_call>\n{"name": "get_weather", "arguments": {"city": "${city}", "days": 12}}\n</tool_call>`;
    const acc = createAcceptor(k.grammar);
    acc.accepts(text); // warm up (compile, JIT)
    const ok = acc.accepts(text);
    const items = acc.lastItems;
    expect(ok).toBe(k.oracle(text));
    expect(ok).toBe(true);
    console.log(`10 KB call: ${items} items, ${(items / [...text].length).toFixed(1)} per code point`);
    expect(items / [...text].length).toBeLessThan(ITEMS_PER_CHAR_10KB);
    expect(acc.accepts(text.replace("12}", "012}"))).toBe(false);
  });

  it("a right-recursive list of 1000 items stays near n²/2 Earley items (quadratic without Leo's optimization; no worse)", () => {
    const g = grammar("list", [["list", alt(seq(lit("x"), ref("list")), seq())]]);
    const acc = createAcceptor(g);
    expect(acc.accepts("x".repeat(1000))).toBe(true);
    console.log(`right-recursive list of 1000: ${acc.lastItems} items`);
    expect(acc.lastItems).toBeLessThan(ITEMS_LIST_1000);
  });
});
