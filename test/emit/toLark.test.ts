import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { LARK_MAX_REPEAT, toLark } from "../../src/emit/toLark.js";
import { accepts } from "../../src/grammar/accepts.js";
import { NOTHING, alt, cls, lit, opt, ref, rep, seq, token } from "../../src/grammar/build.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { LARK_MISSING, disagreements, larkTexts, larkVerdicts } from "../support/larkCheck.js";
import { SEED, grammar } from "../support/grammar/corpus.js";
import { tierRuns } from "../support/tier.js";
import { EXPORT_TOOLS } from "../support/emit/exportTools.js";

const weather = EXPORT_TOOLS;

const c = (s: string) => s.codePointAt(0) as number;

describe("toLark: the printed subset", () => {
  it("prints the root as start, `-` in names as `_`, and a rule named start elsewhere under another name", () => {
    const g = grammar("main-rule", [
      ["main-rule", seq(ref("start"), ref("a-b"))],
      ["start", lit("x")],
      ["a-b", alt(lit("y"), lit("zz"))],
    ]);
    expect(toLark(g)).toBe('start: start_2 a_b\nstart_2: "x"\na_b: "y" | "zz"\n');
  });

  it("has no empty string terminal: an empty alternative makes its group optional, an empty body is empty", () => {
    const g = grammar("root", [
      ["root", seq(alt(lit("a"), seq(), lit("bc")), ref("e"), rep(lit("q"), 0, 0))],
      ["e", seq()],
    ]);
    expect(toLark(g)).toBe('start: start_1 e\nstart_1: ("a" | "bc")?\ne:\n');
    expect(toLark(grammar("root", [["root", alt(seq(), lit("ab"))]]))).toBe('start: ("ab")?\n');
  });

  it("escapes literals and classes with the escapes every reader reads alike, astral code points as text", () => {
    const g = grammar("root", [
      [
        "root",
        seq(
          lit('"\\\n\r\t\u0001\u007f\b\f/é😀'),
          cls([c("-"), c("-"), c("0"), c("9"), c("["), c("^"), c("é"), c("é"), 0x1f600, 0x1f64f]),
        ),
      ],
    ]);
    expect(toLark(g)).toBe('start: "\\"\\\\\\n\\r\\t\\u0001\\u007F\\u0008\\u000C/é😀" /[\\-0-9\\[-\\^\\u00E9😀-🙏]/\n');
  });

  it("prints counts as ~, ranges and optionals as rules of their own, no count above the limit, x{m,} as x~m x*", () => {
    const big = LARK_MAX_REPEAT * 3 + 5;
    const g = grammar("root", [
      [
        "root",
        seq(rep(lit("a"), 2, 5), rep(lit("b"), 3, 3), rep(lit("c"), 4, null), rep(cls([c("x"), c("y")]), 0, big)),
      ],
    ]);
    const out = toLark(g);
    // Python Lark multiplies out every range and optional of a sequence: each gets a rule, and exact counts stay
    expect(out).toMatch(/^start: start_1 "b"~3 "c"~4 "c"\* start_\d+\nstart_1: "a"~2\.\.5\n/);
    expect(out).toContain(": /[xy]/~128\n");
    for (const m of out.matchAll(/~(\d+)(?:\.\.(\d+))?/g))
      expect(Math.max(Number(m[1]), Number(m[2] ?? 0))).toBeLessThanOrEqual(LARK_MAX_REPEAT);
  });

  it("prints special tokens as their text, and the empty language as a rule that never ends", () => {
    expect(toLark(grammar("root", [["root", seq(token("<tool_call>"), opt(lit("x")))]]))).toBe(
      'start: "<tool_call>" start_1\nstart_1: "x"?\n',
    );
    expect(toLark(grammar("root", [["root", NOTHING]]))).toBe('start: "\\u0000" start\n');
  });
});

const skip = LARK_MISSING !== undefined;

describe.skipIf(skip)(
  `toLark in Python Lark (Earley, dynamic lexer)${skip ? ` (skipped: ${LARK_MISSING})` : ""}`,
  () => {
    // one Python process for the file: Lark's start-up is most of the cost
    it("literals and classes over every character class; the weather tools in qwen3 (hermes), llama3-json and mistral", () => {
      const ascii = Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(i));
      const chars = [...ascii, "é", "α", "中", "😀", "\u{10ffff}", "\u2028"];
      const anyChar = cls([0, 0xd7ff, 0xe000, 0x10ffff]);
      const g = grammar("root", [["root", alt(...chars.map((ch) => seq(lit(`${ch}<`), rep(anyChar, 0, 1))))]]);
      const texts = chars.flatMap((ch) => [`${ch}<`, `${ch}<${ch}`, `${ch}>`, ch]);
      const call = { name: "get_weather", arguments: { city: 'Par"is\n😀', unit: "celsius", days: 3 } };
      const cases = (["qwen3", "llama3-json", "mistral"] as const).map((format, i) => {
        const compiled = compileTools(weather, { format });
        const render = renderToolCalls([call], format);
        return { format, compiled, render, ...larkTexts(compiled, SEED + i, tierRuns(3, 20), [render]) };
      });
      const [v, ...verdicts] = larkVerdicts([
        { grammar: toLark(g), texts },
        ...cases.map((k) => ({ grammar: k.compiled.toLark(), texts: k.texts })),
      ]);
      expect(texts.filter((t, i) => v[i] !== accepts(g, t))).toEqual([]);
      expect(v.filter(Boolean).length).toBe(chars.length * 2);
      cases.forEach((k, i) => {
        // Lark accepts the render and every sample, and gives toolgram's verdict on mutations and cut prefixes
        expect(k.compiled.accepts(k.render), k.format).toBe(true);
        expect(verdicts[i][k.texts.indexOf(k.render)], k.format).toBe(true);
        expect(k.members.length, k.format).toBeGreaterThan(0);
        expect(disagreements(k.compiled, k.texts, verdicts[i]), k.format).toEqual([]);
      });
      expect(cases.some((k) => k.texts.some((t) => !k.compiled.accepts(t)))).toBe(true);
    });
  },
);
