import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textWithout } from "../../src/envelope/textWithout.js";
import { accepts } from "../../src/grammar/accepts.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { isRecursive } from "../../src/grammar/analysis/ruleGraph.js";

const SEED = 20261122;

function grammarOf(marker: string): Grammar {
  return { rules: new Map([["root", textWithout(marker)]]), root: "root" };
}

describe("textWithout", () => {
  // self-overlapping markers exercise the KMP fallback edges; the last ones are astral and multi-character
  const markers = ["<tool_call>", "aab", "abab", "aaa", "a", "abcab", "😀x😀"];

  it.each(markers)("accepts exactly the texts not containing %j", (marker) => {
    const g = grammarOf(marker);
    const alphabet = [...new Set([...marker, "x", "é"])];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 14 }).map((cs) => cs.join(""));
    const withMarker = fc.tuple(text, text).map(([a, b]) => a + marker + b);
    fc.assert(
      fc.property(fc.oneof(text, withMarker), (s) => accepts(g, s) === !s.includes(marker)),
      { seed: SEED, numRuns: 400, verbose: true },
    );
  });

  it.each(["aab", "abab", "aba"])("exhaustively over {a, b, x}^≤7 for %j", (marker) => {
    const g = grammarOf(marker);
    let texts = [""];
    for (let len = 0; len <= 7; len++) {
      for (const s of texts) expect(accepts(g, s), JSON.stringify(s)).toBe(!s.includes(marker));
      texts = texts.flatMap((s) => ["a", "b", "x"].map((c) => s + c));
    }
  });

  it("accepts the empty text and any text without the marker's first character", () => {
    const g = grammarOf("<tool_call>");
    expect(accepts(g, "")).toBe(true);
    expect(accepts(g, "Let me check the weather.\n\n")).toBe(true);
    expect(accepts(g, "<tool_call")).toBe(true);
    expect(accepts(g, "<<tool_call>")).toBe(false);
    expect(accepts(g, "x<tool_call>y")).toBe(false);
  });

  it("is regular: no rules, so no recursion", () => {
    const g = grammarOf("<tool_call>");
    expect(isRecursive(g)).toBe(false);
    expect(JSON.stringify(textWithout("<tool_call>"))).not.toContain('"ref"');
  });

  it("an empty marker leaves nothing", () => {
    expect(accepts(grammarOf(""), "")).toBe(false);
  });
});
