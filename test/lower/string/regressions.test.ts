import { describe, expect, it } from "vitest";
import { judge, spec } from "../../support/lower/string/judge.js";

/** Cases named after what could break: surrogate escapes, class corner cases, spelling of controls. */
describe("pattern corner cases", () => {
  const cases: [string, string[]][] = [
    ["^\\ud83d\\ude00$", ["😀", "\ud83d", "a"]],
    ["^[\\ud83d\\ude00-\\ud83d\\ude4f]$", ["😀", "🙏", "🚀"]],
    ["^\\u{1F600}+$", ["😀😀", "😀a"]],
    ["\\ud800", ["a", "😀"]],
    ["^[^]$", ["a", "\n", "😀", "ab"]],
    ["^[\\s\\S]{2}$", ["ab", "\n\r", "a"]],
    ["^\\cJ$", ["\n", "J"]],
    ["^[\\b]$", ["\b", "b"]],
    ["^\\0$", ["\u0000", "0"]],
    ["^[\\-a]$", ["-", "a", "b"]],
    ["^\\/$", ["/", "\\/"]],
    ["^\\x7f\\u0085$", ["\u007f\u0085"]],
  ];
  for (const [p, values] of cases) {
    it(p, () => {
      const j = judge(spec({ patterns: [p] }));
      for (const v of values) expect([v, j.grammar(v)]).toEqual([v, j.ajv(v)]);
    });
  }
});

// JSONSchemaBench Github_medium---o48427: an unanchored alternation of 18 words as a key pattern, with the required keys
// excluded. `.*W1.*|.*W2.*|…` determinized to an automaton remembering which words matched (2^18 states; refused
// after 40 s); `.*(W1|W2|…).*` is the same language with an automaton of about the words' total length.
describe("an unanchored alternation of many words", () => {
  const words = [
    "Normal",
    "Fighting",
    "Flying",
    "Poison",
    "Ground",
    "Rock",
    "Bug",
    "Ghost",
    "Steel",
    "Fire",
    "Water",
    "Grass",
    "Electric",
    "Psychic",
    "Ice",
    "Dragon",
    "Dark",
    "Fairy",
  ];
  it("is a small automaton, and exact", () => {
    const s = spec({ patterns: [words.join("|")], notValues: words, maxLength: 40 });
    const j = judge(s, undefined);
    const values = ["Normal", "xFirey", "FireWater", "IceIce", "Dar", "", "a Bug!", "ice", "Fir e", "GhostGhost"];
    for (const v of values) expect([v, j.grammar(v)]).toEqual([v, j.ajv(v)]);
  });
  it("keeps anchored and unanchored alternatives apart", () => {
    const j = judge(spec({ patterns: ["^ab|cd$|^ef$|gh"] }));
    for (const v of ["abx", "xab", "xcd", "cdx", "ef", "efx", "xghx", "", "gh"])
      expect([v, j.grammar(v)]).toEqual([v, j.ajv(v)]);
  });
});
