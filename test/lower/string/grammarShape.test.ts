import { describe, expect, it } from "vitest";
import type { GExpr } from "../../../src/grammar/Grammar.js";
import { validateGrammar } from "../../../src/grammar/validateGrammar.js";
import { lowerStringContent } from "../../../src/lower/string/lowerStringContent.js";
import { STRING_FORMATS } from "../../../src/lower/string/stringFormats.js";
import { context, spec } from "../../support/lower/string/judge.js";

describe("lowered string grammars satisfy the IR invariants", () => {
  const specs = [
    spec({}),
    spec({ minLength: 1, maxLength: 3 }),
    spec({ patterns: ["\\d"], notPatterns: ["x"], notValues: ["12"] }),
    spec({ formats: ["hostname"], maxLength: 30 }),
    spec({ formats: ["email"], maxLength: 40 }),
    ...STRING_FORMATS.filter((f) => f !== "hostname").map((f) => spec({ formats: [f] })),
  ];
  for (const s of specs) {
    it(JSON.stringify(s), () => {
      const rules = new Map<string, GExpr>();
      const root = lowerStringContent(s, context({ rules, rulePrefix: "str" }));
      expect(() => validateGrammar({ rules: new Map([["root", root], ...rules]), root: "root" })).not.toThrow();
    });
  }

  it("an unconstrained string is one repeat of the canonical spellings", () => {
    const e = lowerStringContent(spec({}), context());
    expect(e.type).toBe("repeat");
    expect(JSON.stringify(e)).toContain('"\\\\u001"');
  });

  it("strict: false ignores an unknown format with a warning", () => {
    const ctx = context({ strict: false });
    lowerStringContent(spec({ formats: ["idn-hostname"] }), ctx);
    expect(ctx.warnings).toEqual([expect.objectContaining({ code: "OVER_APPROXIMATED", schemaPath: "/s" })]);
  });
});
