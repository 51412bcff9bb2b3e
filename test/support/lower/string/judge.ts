import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsImport from "ajv-formats";
import { createAcceptor } from "../../../../src/grammar/accepts.js";
import type { GExpr } from "../../../../src/grammar/Grammar.js";
import { quoteJsonString } from "../../../../src/json.js";
import { DEFAULT_LIMITS } from "../../../../src/options.js";
import { lowerStringContent, type StringLowerContext } from "../../../../src/lower/string/lowerStringContent.js";
import type { StringConstraints } from "../../../../src/schema/SchemaNode.js";
import { exprToRegExp } from "./exprToRegExp.js";
import { RFC_CHECKERS } from "./rfcFormats.js";

const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as (
  a: unknown,
) => void;
const ajv = new Ajv2020({ strict: false, validateFormats: true });
addFormats(ajv);

export const SEED = Number(process.env.FC_SEED ?? 20240611);

/**
 * Default limits, except the clock: a verdict here must not depend on how loaded the machine is, so only the counted
 * limits (work steps, automaton states) apply; the clock limit is tested on a fake clock (patterns.test.ts).
 */
export function context(over: Partial<StringLowerContext> = {}): StringLowerContext {
  return {
    strict: true,
    limits: { ...DEFAULT_LIMITS, maxCompileMs: Number.POSITIVE_INFINITY },
    warnings: [],
    path: "/s",
    ...over,
  };
}

export function spec(over: Partial<StringConstraints>): StringConstraints {
  return { minLength: 0, patterns: [], notPatterns: [], formats: [], ...over };
}

/** The JSON Schema that ajv judges for a spec. */
export function specToSchema(s: StringConstraints): object {
  const all = [...s.patterns.map((p) => ({ pattern: p })), ...s.formats.map((f) => ({ format: f }))];
  const not = [...s.notPatterns.map((p) => ({ pattern: p })), ...(s.notValues?.length ? [{ enum: s.notValues }] : [])];
  return {
    type: "string",
    minLength: s.minLength,
    ...(s.maxLength !== undefined ? { maxLength: s.maxLength } : {}),
    ...(all.length ? { allOf: all } : {}),
    ...(not.length ? { not: { anyOf: not } } : {}),
  };
}

function hasRef(e: GExpr): boolean {
  if (e.type === "ref") return true;
  if (e.type === "seq" || e.type === "alt") return e.items.some(hasRef);
  if (e.type === "repeat") return hasRef(e.item);
  return false;
}

export interface Judge {
  /** The grammar accepts this content text (between the quotes). */
  grammarText(content: string): boolean;
  /** The grammar accepts the canonical spelling of the value. */
  grammar(value: string): boolean;
  ajv(value: string): boolean;
  /** The format checkers written from the RFCs' ABNF (true without formats). */
  rfc(value: string): boolean;
  /** What the grammar must accept exactly: valid under ajv (with ajv-formats) and under each format's standard. */
  reference(value: string): boolean;
  expr: GExpr;
}

export function judge(s: StringConstraints, ctx = context({ rules: new Map() })): Judge {
  const expr = lowerStringContent(s, ctx);
  let match: (t: string) => boolean;
  if (ctx.rules && (ctx.rules.size > 0 || hasRef(expr))) {
    const rules = new Map<string, GExpr>([["root", expr], ...ctx.rules]);
    const acc = createAcceptor({ rules, root: "root" });
    match = (t) => acc.accepts(t);
  } else {
    const re = exprToRegExp(expr);
    match = (t) => re.test(t);
  }
  const validate = ajv.compile(specToSchema(s));
  return {
    expr,
    grammarText: match,
    grammar: (v) => match(quoteJsonString(v).slice(1, -1)),
    ajv: (v) => validate(v) === true,
    rfc: (v) => s.formats.every((f) => RFC_CHECKERS[f]?.(v) ?? true),
    reference: (v) => validate(v) === true && s.formats.every((f) => RFC_CHECKERS[f]?.(v) ?? true),
  };
}

export function isWellFormed(s: string): boolean {
  return !/\p{Cs}/u.test(s);
}

/** Characters that exercise escapes, non-BMP code points and line terminators. */
export const TRICKY = [
  '"',
  "\\",
  "\n",
  "\r",
  "\t",
  "\b",
  "\f",
  "\u0000",
  "\u001f",
  "\u007f",
  "\u2028",
  "\u00a0",
  "é",
  "😀",
  "𝒜",
  " ",
  "/",
  "~",
];

/** Strings over an alphabet (plus tricky characters), well-formed. */
export function stringsOver(alphabet: string[], maxLength = 12): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet, ...TRICKY), maxLength });
}

/** Random edits of a string: insert, delete, replace one character from the alphabet. */
export function mutated(base: fc.Arbitrary<string>, alphabet: string[]): fc.Arbitrary<string> {
  const chars = [...alphabet, ...TRICKY];
  return fc
    .tuple(base, fc.nat(), fc.constantFrom(...chars), fc.constantFrom("ins", "del", "rep"))
    .map(([s, i, c, op]) => {
      const cps = Array.from(s);
      const k = cps.length === 0 ? 0 : i % (cps.length + (op === "ins" ? 1 : 0));
      if (op === "ins") cps.splice(k, 0, c);
      else if (op === "del") cps.splice(k, 1);
      else cps.splice(k, 1, c);
      return cps.join("");
    });
}

/**
 * Asserts grammar verdict === the reference verdict (ajv, and each format's RFC checker) for every generated value;
 * the failure message carries the seed.
 */
export function checkAgreement(
  j: Judge,
  arb: fc.Arbitrary<string>,
  numRuns = 300,
  allowNarrowing?: (v: string) => boolean,
): void {
  fc.assert(
    fc.property(arb.filter(isWellFormed), (v) => {
      const g = j.grammar(v);
      const a = j.reference(v);
      if (g === a) return true;
      if (!g && a && allowNarrowing?.(v)) return true;
      throw new Error(
        `grammar ${g} vs reference ${a} (ajv ${j.ajv(v)}, rfc ${j.rfc(v)}) on ${JSON.stringify(v)} (seed ${SEED})`,
      );
    }),
    { seed: SEED, numRuns },
  );
}
