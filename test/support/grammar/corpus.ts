import type { GExpr, Grammar } from "../../../src/grammar/Grammar.js";
import { mutateText, sampleGrammar } from "../../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../../src/util/seededRandom.js";
import { NOTHING, alt, cls, lit, opt, ref, rep, seq, token } from "../../../src/grammar/build.js";

/** A hand-built grammar with an independent oracle for its language. */
export interface CorpusCase {
  name: string;
  grammar: Grammar;
  /** Independent membership test (a RegExp for regular languages, hand-written code otherwise). */
  oracle: (s: string) => boolean;
  /** Characters for random strings and mutations. */
  alphabet: string[];
  /** Whether some reachable rule is recursive (toRegex must refuse). */
  recursive: boolean;
  /** llama.cpp refuses left recursion, so toGbnf must refuse these. */
  leftRecursive?: boolean;
  /** Extra texts worth checking (bounds, edge cases). */
  samples?: string[];
}

export function grammar(root: string, rules: [string, GExpr][]): Grammar {
  return { root, rules: new Map(rules) };
}

const re = (src: string) => {
  const r = new RegExp(`^(?:${src})$`, "u");
  return (s: string) => r.test(s);
};

const c = (s: string) => s.codePointAt(0) as number;

// JSON string content: any scalar but `"`, `\` and controls, or an escape
const jsonChar = alt(
  cls([0x20, 0x21, 0x23, 0x5b, 0x5d, 0x10ffff]),
  seq(lit("\\"), cls([c('"'), c('"'), c("\\"), c("\\"), c("n"), c("n"), c("t"), c("t")])),
);
const jsonString = seq(lit('"'), rep(ref("char"), 0, null), lit('"'));

export const corpus: CorpusCase[] = [
  {
    name: "tool-call",
    grammar: grammar("root", [
      [
        "root",
        seq(
          token("<tool_call>"),
          lit('\n{"name": "get_weather", "arguments": {"city": '),
          ref("string"),
          opt(seq(lit(', "days": '), ref("int"))),
          lit("}}\n"),
          token("</tool_call>"),
        ),
      ],
      ["string", jsonString],
      ["char", jsonChar],
      ["int", alt(lit("0"), seq(cls([c("1"), c("9")]), rep(cls([c("0"), c("9")]), 0, null)))],
    ]),
    oracle: re(
      String.raw`<tool_call>\n\{"name": "get_weather", "arguments": \{"city": "(?:[^"\\\u0000-\u001f]|\\["\\nt])*"(?:, "days": (?:0|[1-9][0-9]*))?\}\}\n</tool_call>`,
    ),
    alphabet: ['"', "\\", "n", "a", "é", "😀", "\u0001", "1", "0", ",", " ", "}", "<"],
    recursive: false,
    samples: ['<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par\\"is"}}\n</tool_call>'],
  },
  {
    name: "bounded-repeats",
    grammar: grammar("root", [
      [
        "root",
        seq(
          rep(cls([c("a"), c("c")]), 2, 5),
          lit("-"),
          rep(alt(lit("ab"), lit("c")), 0, 3),
          lit("-"),
          rep(rep(lit("x"), 1, 3), 2, 4),
          lit("-"),
          rep(lit("y"), 3, 3),
        ),
      ],
    ]),
    oracle: re("[a-c]{2,5}-(?:ab|c){0,3}-(?:x{1,3}){2,4}-y{3}"),
    alphabet: ["a", "b", "c", "x", "y", "-"],
    recursive: false,
    samples: ["aa--xx-yyy", "aaaaa-ababab-xxxxxxxxxxxx-yyy", "aaaaaa--xx-yyy", "aa--xxxxxxxxxxxxx-yyy", "aa--x-yyy"],
  },
  {
    name: "unicode-classes",
    grammar: grammar("root", [
      [
        "root",
        seq(
          lit("é😀"),
          rep(ref("greek"), 1, null),
          opt(ref("not-ascii")),
          rep(cls([0x1f600, 0x1f64f, 0x10fffe, 0x10ffff]), 0, 2),
        ),
      ],
      ["greek", cls([0x3b1, 0x3c9])],
      ["not-ascii", cls([0x80, 0x10ffff])],
    ]),
    oracle: re("é😀[α-ω]+[\\u{80}-\\u{10FFFF}]?[\\u{1F600}-\\u{1F64F}\\u{10FFFE}\\u{10FFFF}]{0,2}"),
    alphabet: ["é", "😀", "α", "ω", "ϊ", "a", "\u{10ffff}", "\u{1f64f}", "\u{1f650}", "\u0080", "\u007f"],
    recursive: false,
  },
  {
    name: "balanced-parens",
    grammar: grammar("root", [["root", alt(seq(lit("("), ref("root"), lit(")"), ref("root")), seq())]]),
    oracle: (s) => {
      let d = 0;
      for (const ch of s) {
        if (ch === "(") d++;
        else if (ch === ")") d--;
        else return false;
        if (d < 0) return false;
      }
      return d === 0;
    },
    alphabet: ["(", ")", "x"],
    recursive: true,
    samples: ["", "()", "(()())()", "(()", "())("],
  },
  {
    name: "nested-lists",
    grammar: grammar("value", [
      [
        "value",
        alt(lit("1"), seq(lit("["), opt(seq(ref("value"), rep(seq(lit(","), ref("value")), 0, null))), lit("]"))),
      ],
    ]),
    oracle: (s) => {
      let prev = "";
      let cur = s;
      while (cur !== prev) {
        prev = cur;
        cur = cur.replace(/\[(?:1(?:,1)*)?\]/g, "1");
      }
      return cur === "1";
    },
    alphabet: ["[", "]", ",", "1"],
    recursive: true,
    samples: ["[]", "[1,[1,[]],[[]]]", "[1,]", "[[1]"],
  },
  {
    name: "left-recursive-sum",
    grammar: grammar("expr", [
      ["expr", alt(seq(ref("expr"), lit("+"), ref("term")), ref("term"))],
      ["term", rep(cls([c("0"), c("9")]), 1, null)],
    ]),
    oracle: re("[0-9]+(?:\\+[0-9]+)*"),
    alphabet: ["1", "9", "+"],
    recursive: true,
    leftRecursive: true,
  },
  {
    name: "hidden-left-recursion",
    // a ::= b a "y" | "z", b ::= "w" | "": w^k z y^n with k <= n
    grammar: grammar("a", [
      ["a", alt(seq(ref("b"), ref("a"), lit("y")), lit("z"))],
      ["b", alt(lit("w"), seq())],
    ]),
    oracle: (s) => {
      const m = /^(w*)z(y*)$/.exec(s);
      return m !== null && m[1].length <= m[2].length;
    },
    alphabet: ["w", "z", "y"],
    recursive: true,
    leftRecursive: true,
    samples: ["z", "zy", "wzy", "wwzy", "wzyy", "wwzyy"],
  },
  {
    name: "nullable-loops",
    // x? (y | "")* ((z?)(q?))* : nullable items under unbounded repeats
    grammar: grammar("root", [
      [
        "root",
        seq(ref("a"), rep(ref("b"), 0, null), rep(seq(opt(lit("z")), opt(lit("q"))), 1, null), rep(seq(), 0, null)),
      ],
      ["a", opt(lit("x"))],
      ["b", alt(lit("y"), seq())],
    ]),
    oracle: re("x?y*[zq]*"),
    alphabet: ["x", "y", "z", "q"],
    recursive: false,
    samples: ["", "x", "yyy", "qzzq", "xyq", "yx"],
  },
  {
    name: "never-branches",
    grammar: grammar("root", [
      ["root", alt(lit("a"), ref("never"), seq(lit("b"), ref("never")), seq(lit("c"), rep(ref("never"), 0, 2)))],
      ["never", NOTHING],
      ["unused", lit("zzz")],
    ]),
    oracle: re("a|c"),
    alphabet: ["a", "b", "c", "z"],
    recursive: false,
    samples: ["", "b", "zzz"],
  },
  {
    name: "large-bounds",
    grammar: grammar("root", [
      [
        "root",
        seq(
          rep(lit("a"), 0, 2500),
          lit("|"),
          rep(lit("b"), 1200, 1200),
          lit("|"),
          rep(alt(lit("cd"), lit("e")), 2001, null),
          lit("|"),
          rep(cls([c("0"), c("9")]), 1000, 3001),
        ),
      ],
    ]),
    oracle: re("a{0,2500}\\|b{1200}\\|(?:cd|e){2001,}\\|[0-9]{1000,3001}"),
    alphabet: ["a", "b", "|", "e", "1"],
    recursive: false,
    samples: [
      ...[0, 999, 1000, 1001, 2000, 2499, 2500, 2501].map(
        (n) => `${"a".repeat(n)}|${"b".repeat(1200)}|${"e".repeat(2001)}|${"1".repeat(1000)}`,
      ),
      ...[1199, 1201].map((n) => `|${"b".repeat(n)}|${"e".repeat(2001)}|${"1".repeat(1000)}`),
      ...[2000, 2002, 3000].map((n) => `|${"b".repeat(1200)}|${"cd".repeat(n)}|${"1".repeat(1000)}`),
      ...[999, 1001, 2999, 3000, 3001, 3002].map((n) => `|${"b".repeat(1200)}|${"e".repeat(2001)}|${"1".repeat(n)}`),
    ],
  },
  {
    name: "large-nested-bounds",
    // groups whose expansion llama.cpp multiplies (rules per group x bound) must become helper rules
    grammar: grammar("root", [
      [
        "root",
        seq(
          rep(seq(lit("a"), rep(lit("b"), 0, 999)), 0, 1500),
          lit("|"),
          rep(alt(seq(lit("c"), rep(cls([0x30, 0x39]), 0, 30)), lit("d")), 60, 70),
        ),
      ],
    ]),
    oracle: re("(?:ab{0,999}){0,1500}\\|(?:c[0-9]{0,30}|d){60,70}"),
    alphabet: ["a", "b", "|", "c", "d", "1"],
    recursive: false,
    samples: [
      `${"a".repeat(1500)}|${"d".repeat(60)}`,
      `${"a".repeat(1501)}|${"d".repeat(60)}`,
      `a${"b".repeat(999)}|${"c".repeat(70)}`,
      `a${"b".repeat(1000)}|${"c".repeat(70)}`,
      `|${"d".repeat(71)}`,
    ],
  },
  {
    name: "escapes",
    grammar: grammar("root", [
      [
        "root",
        alt(
          lit('"\\\n\r\t\u0000\u001f\u007f[]-^{}()|.*+?/'),
          rep(cls([c("-"), c("-"), c("\\"), c("^"), c("]"), c("]"), 0, 0x1f]), 1, null),
          rep(cls([0x0, 0x2c, 0x2e, 0x10ffff]), 2, 2),
        ),
      ],
    ]),
    oracle: re(String.raw`"\\\n\r\t\u0000\u001f\u007f\[\]-\^\{\}\(\)\|\.\*\+\?\/|[\-\\-\^\]\u0000-\u001f]+|[^-]{2}`),
    alphabet: ["-", "\\", "]", "^", "[", "\u0000", "\n", "a", '"', "\u007f"],
    recursive: false,
    samples: ['"\\\n\r\t\u0000\u001f\u007f[]-^{}()|.*+?/', "--", "a-"],
  },
];

/** The fixed seed of the randomized tests (fast-check and the sampler); failures print it. */
export const SEED = 20260101;

/** Members (sampled), their mutations, the case's own samples and random strings over its alphabet. */
export function textsFor(k: CorpusCase, n: number, seed = SEED): string[] {
  const random = seededRandom(seed);
  const out = [...(k.samples ?? [])];
  for (let i = 0; i < n; i++) {
    const s = sampleGrammar(k.grammar, random, { maxLength: 12_000 });
    if (s === undefined) continue;
    out.push(s, mutateText(s, k.alphabet, random, 1 + (i % 3)));
  }
  return out;
}
