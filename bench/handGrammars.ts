import type { GExpr, Grammar } from "../src/grammar/Grammar.js";
import { alt, cls, lit, opt, ref, rep, seq, token } from "../src/grammar/build.js";

/**
 * Hand-built grammars in the shapes the compiler produces (compact JSON spelling, Qwen3 tool-call envelope), used by
 * the automaton tests and the benchmark.
 */
const hex = cls([0x30, 0x39, 0x61, 0x66]);
/** String content in the canonical spelling: literal code points except `"`, `\` and controls; short escapes. */
export const stringContent: GExpr = rep(
  alt(
    cls([0x20, 0x21, 0x23, 0x5b, 0x5d, 0x10ffff]),
    seq(
      lit("\\"),
      alt(
        cls([0x22, 0x22, 0x5c, 0x5c, 0x62, 0x62, 0x66, 0x66, 0x6e, 0x6e, 0x72, 0x72, 0x74, 0x74]),
        seq(lit("u00"), hex, hex),
      ),
    ),
  ),
  0,
  null,
);
export const jsonString: GExpr = seq(lit('"'), stringContent, lit('"'));
const digits = rep(cls([0x30, 0x39]), 1, null);
export const jsonNumber: GExpr = seq(
  opt(lit("-")),
  alt(lit("0"), seq(cls([0x31, 0x39]), rep(cls([0x30, 0x39]), 0, null))),
  opt(seq(lit("."), digits)),
  opt(seq(cls([0x45, 0x45, 0x65, 0x65]), opt(cls([0x2b, 0x2b, 0x2d, 0x2d])), digits)),
);
export const jsonInteger: GExpr = seq(
  opt(lit("-")),
  alt(lit("0"), seq(cls([0x31, 0x39]), rep(cls([0x30, 0x39]), 0, null))),
);

/** Any JSON value (recursive), compact spelling. */
export function jsonValueRules(prefix = "json"): [string, GExpr][] {
  const v = ref(`${prefix}-value`);
  const member = seq(ref("string"), lit(": "), v);
  return [
    [
      `${prefix}-value`,
      alt(
        ref(`${prefix}-object`),
        ref(`${prefix}-array`),
        ref("string"),
        ref("number"),
        lit("true"),
        lit("false"),
        lit("null"),
      ),
    ],
    [`${prefix}-object`, seq(lit("{"), opt(seq(member, rep(seq(lit(", "), member), 0, null))), lit("}"))],
    [`${prefix}-array`, seq(lit("["), opt(seq(v, rep(seq(lit(", "), v), 0, null))), lit("]"))],
  ];
}

export function jsonGrammar(): Grammar {
  return {
    root: "root",
    rules: new Map<string, GExpr>([["root", ref("json-value")], ...jsonValueRules(), ...SHARED_RULES]),
  };
}

export interface HandTool {
  name: string;
  /** [key, value expression, required] in declared order. */
  params: [string, GExpr, boolean][];
}

/** `{"k1": v1, "k2": v2}` with declared order; optional keys may be skipped (exactly like the compact lowering). */
export function objectOf(params: [string, GExpr, boolean][]): GExpr {
  // state machine over "has anything been written yet": build right to left
  let withComma: GExpr = lit(""); // rest after something was written
  let noComma: GExpr = lit(""); // rest when nothing was written yet
  for (let i = params.length - 1; i >= 0; i--) {
    const [k, v, req] = params[i];
    const kv = seq(lit(`${JSON.stringify(k)}: `), v);
    const wc = seq(lit(", "), kv, withComma);
    const nc = seq(kv, withComma);
    withComma = req ? wc : alt(wc, withComma);
    noComma = req ? nc : alt(nc, noComma);
  }
  return seq(lit("{"), noComma, lit("}"));
}

/** Qwen3/Hermes envelope: optional free text is not modelled; one or more `<tool_call>` blocks. */
/** Shared rules as the compiler names them: referenced from many places, so the automaton makes them frames. */
export const SHARED_RULES: [string, GExpr][] = [
  ["string", jsonString],
  ["number", jsonNumber],
  ["integer", jsonInteger],
];
export const S = ref("string");
export const N = ref("number");
export const I = ref("integer");

export function toolCallGrammar(tools: HandTool[], extraRules: [string, GExpr][] = []): Grammar {
  const call = alt(
    ...tools.map((t) => seq(lit(`{"name": ${JSON.stringify(t.name)}, "arguments": `), objectOf(t.params), lit("}"))),
  );
  const block = seq(token("<tool_call>"), lit("\n"), call, lit("\n"), token("</tool_call>"));
  return {
    root: "root",
    rules: new Map<string, GExpr>([
      ["root", seq(block, rep(seq(lit("\n"), block), 0, null))],
      ...SHARED_RULES,
      ...extraRules,
    ]),
  };
}

export const WEATHER_TOOLS: HandTool[] = [
  {
    name: "get_weather",
    params: [
      ["location", S, true],
      ["unit", alt(lit('"celsius"'), lit('"fahrenheit"')), false],
      ["days", I, false],
    ],
  },
  {
    name: "search_web",
    params: [
      ["query", S, true],
      ["max_results", I, false],
      ["safe", alt(lit("true"), lit("false")), false],
    ],
  },
];

/** Twenty tools, some with free-form (recursive) JSON arguments. */
export function twentyTools(): HandTool[] {
  const tools: HandTool[] = [...WEATHER_TOOLS];
  for (let i = 0; tools.length < 20; i++) {
    tools.push({
      name: `tool_${i}_${["create", "update", "delete", "list", "fetch"][i % 5]}_${["file", "issue", "user", "event"][i % 4]}`,
      params: [
        ["id", S, true],
        ["count", N, i % 2 === 0],
        ["tags", seq(lit("["), opt(seq(S, rep(seq(lit(", "), S), 0, null))), lit("]")), false],
        ["options", ref("json-object"), false],
        ["mode", alt(lit('"fast"'), lit('"slow"'), lit('"auto"')), false],
      ],
    });
  }
  return tools;
}

export function twentyToolGrammar(): Grammar {
  return toolCallGrammar(twentyTools(), jsonValueRules());
}
