import { describe, expect, it } from "vitest";
import { judge, spec } from "./judge.js";

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
