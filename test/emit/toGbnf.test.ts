import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileTools } from "../../src/compile.js";
import { GBNF_MAX_REPEAT, toGbnf } from "../../src/emit/toGbnf.js";
import { ToolgramError } from "../../src/errors.js";
import { accepts } from "../../src/grammar/accepts.js";
import { alt, cls, lit, ref, rep, seq } from "../../src/grammar/build.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { checkGbnfBatchWithLlamaCpp, type GbnfCheck } from "../../src/testing/checkGbnfWithLlamaCpp.js";
import { arbGrammar, textsOf } from "../support/grammar/arbGrammar.js";
import { SEED, corpus, grammar, textsFor } from "../support/grammar/corpus.js";
import { LONG_TIER } from "../support/tier.js";

const here = dirname(fileURLToPath(import.meta.url));

// ---------- one llama.cpp child for the whole file
interface Job {
  name: string;
  gbnf: string;
  grammar?: Grammar;
  texts: string[];
}
const jobs: Job[] = [];
const randomGrammars = fc.sample(arbGrammar, { seed: SEED, numRuns: 60 });
randomGrammars.forEach((g, i) =>
  jobs.push({ name: `random-${i}`, gbnf: toGbnf(g), grammar: g, texts: textsOf(g, SEED + i, 15) }),
);
for (const k of corpus) {
  if (k.leftRecursive) continue;
  jobs.push({ name: k.name, gbnf: toGbnf(k.grammar), grammar: k.grammar, texts: textsFor(k, 20).slice(0, 60) });
}
// a bounded number's digit counts, `[1-9] | [1-9] [0-9] | … | [1-9] [0-9]{4}`: printed as one counted repetition
const digitCounts = grammar("root", [
  [
    "root",
    alt(
      cls([0x31, 0x39]),
      seq(cls([0x31, 0x39]), cls([0x30, 0x39])),
      ...[2, 3, 4].map((k) => seq(cls([0x31, 0x39]), { type: "repeat", item: cls([0x30, 0x39]), min: k, max: k })),
      seq(lit("x"), lit("y")),
      seq(lit("x"), { type: "repeat", item: lit("y"), min: 3, max: 3 }),
    ),
  ],
]);
jobs.push({
  name: "digit-counts",
  gbnf: toGbnf(digitCounts),
  grammar: digitCounts,
  texts: ["1", "12", "123", "1234", "12345", "123456", "0", "01", "x", "xy", "xyy", "xyyy", "xyyyy"],
});
const broken = [
  'root ::= "a',
  'root ::= "\\q"',
  "root ::= [a-",
  'root ::= "a" undefined-rule',
  'root ::= x\nx ::= x "a" | "b"',
  'root ::= "a"{2001}',
  // llama.cpp allocates until it fails: the child's memory cap turns that into a refusal (seconds of allocation; the
  // quick tier meets the cap in test/testing/checkGbnfWithLlamaCpp)
  ...(LONG_TIER ? ['root ::= "a"{3,1}'] : []),
];
let results: GbnfCheck[] = [];

beforeAll(async () => {
  results = await checkGbnfBatchWithLlamaCpp([...jobs.map((j) => ({ grammar: j.gbnf, samples: j.texts })), ...broken], {
    memoryLimitMb: 2048,
    timeoutMs: 60_000,
  });
}, 240_000);

describe("toGbnf: llama.cpp accepts every emitted grammar and agrees with the reference acceptor", () => {
  it("parses every emitted grammar", () => {
    const failed = jobs.map((j, i) => ({ name: j.name, gbnf: j.gbnf, r: results[i] })).filter((x) => !x.r.ok);
    expect(failed).toEqual([]);
  });

  it("llama.cpp's grammar engine gives the same verdict as accepts() on every sample", () => {
    const diffs: { name: string; text: string; llama: boolean; ours: boolean }[] = [];
    let members = 0;
    jobs.forEach((j, i) => {
      j.texts.forEach((t, s) => {
        const ours = accepts(j.grammar as Grammar, t);
        if (ours) members++;
        const llama = results[i].samples?.[s];
        if (llama !== ours) diffs.push({ name: j.name, text: t.slice(0, 80), llama: llama as boolean, ours });
      });
    });
    expect(diffs).toEqual([]);
    expect(members).toBeGreaterThan(200);
  });

  it("refuses deliberately broken grammars (so the check can fail), with llama.cpp's reason", () => {
    const r = results.slice(jobs.length);
    expect(r.map((x) => x.ok)).toEqual(broken.map(() => false));
    expect(r[1].error).toContain("unknown escape");
    expect(r[3].error).toMatch(/Undefined rule/);
    expect(r[4].error).toMatch(/left recursion/);
    expect(r[5].error).toMatch(/repetitions exceeds sane defaults/);
  });
});

describe("toGbnf: text", () => {
  it("golden: a tool call", () => {
    const k = corpus.find((c) => c.name === "tool-call")!;
    expect(toGbnf(k.grammar)).toBe(
      [
        'root ::= "<tool_call>" "\\n{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": " string (", \\"days\\": " int)? "}}\\n" "</tool_call>"',
        'string ::= "\\"" string-1 "\\""',
        'string-1 ::= "" | char string-1',
        'char ::= "\\\\" [\\"\\\\nt] | [ !#-\\[\\]-\\uD7FF\\uE000-\\U0010FFFF]',
        'int ::= "0" | [1-9] int-1',
        'int-1 ::= "" | [0-9] int-1',
        "",
      ].join("\n"),
    );
  });

  it("golden: contiguous counts of one tail merge into a counted repetition, others stay apart", () => {
    expect(toGbnf(digitCounts)).toBe('root ::= "x" ("y" | "y"{3}) | [1-9] [0-9]{0,4}\n');
  });

  it("golden: repetition forms and class escapes", () => {
    const g = grammar("root", [
      [
        "root",
        seq(
          rep(cls([0x61, 0x63]), 2, 5),
          rep(alt(lit("ab"), lit("c")), 0, 3),
          rep(lit("x"), 0, null),
          rep(lit("y"), 1, null),
          rep(lit("z"), 4, null),
          rep(lit("w"), 3, 3),
          ref("esc"),
        ),
      ],
      ["esc", alt(cls([0x2d, 0x2d, 0x5b, 0x5e]), lit('"\\\n\t\r\u0001\u007fé😀'))],
    ]);
    expect(toGbnf(g)).toBe(
      [
        'root ::= [a-c]{2,5} ("ab" | "c"){0,3} "x"* "y"+ "z"{4,} "w"{3} esc',
        'esc ::= "\\"\\\\\\n\\t\\r\\x01\\x7Fé😀" | [\\-\\[-\\x5E]',
        "",
      ].join("\n"),
    );
  });

  it("golden: a repetition that may begin with more than one code point is a helper rule, empty alternative first, widest alternative last", () => {
    // a JSON string's content twice (one helper rule for both), at least two characters once, digits once or more
    const content = alt(
      cls([0x20, 0x21, 0x23, 0x5b, 0x5d, 0xd7ff, 0xe000, 0x10ffff]),
      seq(
        lit("\\"),
        alt(cls([0x22, 0x22, 0x5c, 0x5c, 0x6e, 0x6e]), seq(lit("u00"), cls([0x30, 0x31]), cls([0x30, 0x39]))),
      ),
    );
    const g = grammar("root", [
      [
        "root",
        seq(
          lit('"'),
          rep(content, 0, null),
          lit('", "'),
          rep(content, 2, null),
          lit('", '),
          rep(cls([0x30, 0x39]), 1, null),
          rep(lit("x"), 0, null),
        ),
      ],
      ["other", seq(lit('"'), rep(content, 0, null), lit('"'))],
    ]);
    expect(toGbnf(g)).toBe(
      [
        'root ::= "\\"" root-1 "\\", \\"" ("\\\\" ("u00" [01] [0-9] | [\\"\\\\n]) | [ !#-\\[\\]-\\uD7FF\\uE000-\\U0010FFFF]){2} root-1 "\\", " [0-9] root-2 "x"*',
        'root-1 ::= "" | "\\\\" ("u00" [01] [0-9] | [\\"\\\\n]) root-1 | [ !#-\\[\\]-\\uD7FF\\uE000-\\U0010FFFF] root-1',
        'root-2 ::= "" | [0-9] root-2',
        'other ::= "\\"" root-1 "\\""',
        "",
      ].join("\n"),
    );
  });

  it("the weather tools' GBNF: one helper rule for every string's content, its class the last alternative, no `(…)*` left", () => {
    const weather = JSON.parse(
      readFileSync(join(here, "..", "..", "examples", "weather.tools.json"), "utf8"),
    ) as unknown[];
    const gbnf = compileTools(weather, { format: "qwen3", toolChoice: "required", parallel: false }).toGbnf();
    const loops = [...gbnf.matchAll(/^(\S+) ::= "" \| (.*)$/gm)];
    expect(loops).toHaveLength(1);
    const [, name, rest] = loops[0];
    const alts = rest.split(` ${name} | `);
    expect(alts[alts.length - 1]).toBe(`[ !#-\\[\\]-\\uD7FF\\uE000-\\U0010FFFF] ${name}`);
    const root = gbnf.split("\n")[0];
    expect(root.split(` ${name} `).length - 1).toBe(2); // the city of each tool
    expect(gbnf).not.toMatch(/\)\*/);
  });

  it("covers the helper-rule shape in the grammars llama.cpp checks above", () => {
    const withLoops = jobs.filter((j) => /^\S+ ::= "" \| /m.test(j.gbnf));
    expect(withLoops.length).toBeGreaterThan(20);
  });

  it("golden: bounds above the cap are split into helper rules", () => {
    const g = grammar("root", [["root", rep(lit("a"), 0, 2500)]]);
    expect(toGbnf(g)).toBe(
      ['root ::= (root-1? "a"{0,999} | root-1{2} "a"{0,500})', 'root-1 ::= "a"{1000}', ""].join("\n"),
    );
    expect(GBNF_MAX_REPEAT).toBe(1000);
  });

  it("never prints a bound above the cap nor max < min, and is deterministic", () => {
    for (const j of jobs) {
      for (const m of j.gbnf.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
        const lo = Number(m[1]);
        expect(lo).toBeLessThanOrEqual(GBNF_MAX_REPEAT);
        if (m[2]) {
          expect(Number(m[2])).toBeLessThanOrEqual(GBNF_MAX_REPEAT);
          expect(Number(m[2])).toBeGreaterThanOrEqual(lo);
        }
      }
      if (j.grammar) expect(toGbnf(j.grammar)).toBe(j.gbnf);
    }
  });

  it("refuses left recursion (llama.cpp would) and invalid grammars", () => {
    for (const k of corpus.filter((c) => c.leftRecursive)) {
      expect(() => toGbnf(k.grammar)).toThrow(ToolgramError);
      expect(() => toGbnf(k.grammar)).toThrow(/left-recursive/);
    }
    expect(() => toGbnf(grammar("root", [["root", { type: "repeat", item: lit("a"), min: 3, max: 1 }]]))).toThrow(
      /max 1/,
    );
  });

  it("prints a root named otherwise as `root`, renaming a clashing rule", () => {
    const g = grammar("main", [
      ["main", seq(ref("root"), lit("!"))],
      ["root", lit("r")],
    ]);
    expect(toGbnf(g)).toBe('root ::= root-2 "!"\nroot-2 ::= "r"\n');
  });
});
