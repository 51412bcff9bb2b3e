import { describe, expect, it } from "vitest";
import { ToolgramError } from "../../src/errors.js";
import type { GExpr } from "../../src/grammar/Grammar.js";
import { validateGrammar } from "../../src/grammar/validateGrammar.js";
import { corpus, grammar } from "../support/grammar/corpus.js";

describe("validateGrammar", () => {
  it("accepts the corpus", () => {
    for (const k of corpus) expect(() => validateGrammar(k.grammar)).not.toThrow();
  });

  const bad: [string, GExpr | null, string][] = [
    ["empty literal", { type: "literal", text: "" }, "non-empty"],
    ["lone surrogate", { type: "literal", text: "a\ud800" }, "lone surrogate"],
    ["unsorted ranges", { type: "charClass", ranges: [5, 6, 1, 2] }, "sorted"],
    ["adjacent ranges", { type: "charClass", ranges: [1, 2, 3, 4] }, "sorted"],
    ["surrogate range", { type: "charClass", ranges: [0xd000, 0xd900] }, "surrogates"],
    ["beyond U+10FFFF", { type: "charClass", ranges: [0, 0x110000] }, "0x10FFFF"],
    ["odd ranges", { type: "charClass", ranges: [1] }, "pairs"],
    ["max < min", { type: "repeat", item: { type: "literal", text: "a" }, min: 3, max: 1 }, "max 1"],
    ["negative min", { type: "repeat", item: { type: "literal", text: "a" }, min: -1, max: null }, "min -1"],
    ["undefined ref", { type: "ref", rule: "nope" }, 'undefined rule "nope"'],
  ];
  for (const [what, body, msg] of bad) {
    it(`rejects ${what}, naming the rule`, () => {
      const g = grammar("root", [["root", { type: "seq", items: [{ type: "literal", text: "x" }, body as GExpr] }]]);
      try {
        validateGrammar(g);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ToolgramError);
        expect((e as ToolgramError).code).toBe("INVALID_INPUT");
        expect((e as Error).message).toContain('rule "root"');
        expect((e as Error).message).toContain(msg);
      }
    });
  }

  it("rejects bad rule names and a missing root", () => {
    expect(() =>
      validateGrammar(
        grammar("root", [
          ["root", { type: "literal", text: "a" }],
          ["Bad_Name", { type: "literal", text: "a" }],
        ]),
      ),
    ).toThrow(/Bad_Name/);
    expect(() => validateGrammar(grammar("main", [["root", { type: "literal", text: "a" }]]))).toThrow(
      /"main" is not defined/,
    );
  });
});
