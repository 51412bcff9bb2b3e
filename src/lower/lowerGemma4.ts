import { InvalidSchemaError, UnsupportedSchemaError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, lit, NOTHING, ref, rep, seq } from "../grammar/build.js";
import type { JsonValue } from "../json.js";
import type { SchemaNode, StringConstraints } from "../schema/SchemaNode.js";
import { resolveRef } from "./resolveRef.js";
import { GEMMA4_KEY, GEMMA4_KEY_PATTERN, gemma4KeyOrder } from "../formats/gemma4Values.js";
import type { JsonStyle } from "./JsonStyle.js";
import { jsonStyle } from "./JsonStyle.js";
import { lowerArray } from "./lowerArray.js";
import { lowerObject, type ObjectSpelling } from "./lowerObject.js";
import type { LowerState } from "./LowerState.js";
import { ANY_NUMBER } from "./number/lowerNumber.js";
import { lowerStringValue } from "./string/lowerStringContent.js";

/** What the Gemma 4 lowering needs from the format (its Gemma4CallUnit and markers). */
export interface Gemma4Spelling {
  /** The format's name, for errors. */
  format: string;
  /** The string delimiter (`<|"|>`), a token node when it is a special token of the family. */
  delimiter: GExpr;
  /** Texts a string can never hold: the delimiter and the block's markers (see gemma4StringForbidden). */
  forbidden: readonly string[];
  /** A constant's canonical text, or null when the syntax cannot write it. */
  valueText(v: JsonValue): string | null;
  /** A canonical text as grammar (its special tokens as token nodes). */
  text(t: string): GExpr;
}

/** Gemma 4's punctuation: JSON's, without whitespace, not even after `,` or `:`. */
const GEMMA4_STYLE: JsonStyle = {
  ...jsonStyle("compact"),
  itemSeparator: lit(","),
  keySeparator: lit(":"),
  id: "gemma4",
};

const EMPTY_SPEC: StringConstraints = { minLength: 0, patterns: [], notPatterns: [], formats: [] };

/** Gemma 4 writes keys bare: every property name must be one GEMMA4_KEY allows. */
function checkBareKeys(properties: readonly { key: string; schema: SchemaNode }[], format: string): void {
  for (const p of properties) {
    if (!GEMMA4_KEY.test(p.key)) {
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_KEYWORD",
        `format ${format} writes keys bare (no quotes), and ${JSON.stringify(p.key)} cannot be written so (empty, or holding whitespace, < > : , { } [ or ]); rename the property or use another format`,
        p.schema.path,
      );
    }
  }
}

/**
 * The arguments of a tool in Gemma 4's syntax (Gemma4CallUnit), typed by its schema, exact: every text parses
 * (src/parser/units/gemma4CallUnit.ts) into a valid value. Strings are `<|"|>` + raw text + `<|"|>`, the text
 * satisfying the string's constraints as they stand on the value itself and never holding a forbidden text;
 * declared properties come in the template's `dictsort` order, each name written bare (a name that cannot be written
 * bare, `GEMMA4_KEY`, is refused with UNSUPPORTED_KEYWORD); undeclared keys are bare keys of that form; numbers,
 * booleans and null are JSON's. The root must be an object schema.
 */
export function lowerGemma4Arguments(root: SchemaNode, st: LowerState, sp: Gemma4Spelling): GExpr {
  const top = resolveRef(root, st);
  if (top.kind !== "object") {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      `format ${sp.format} writes the arguments as one object ({k:v,…}), so the parameters must be one object schema (this one is ${top.kind === "union" ? "a union (anyOf/oneOf/type list)" : `a ${top.kind} schema`}); use another format or declare an object`,
      top.path,
    );
  }
  const done = new Map<SchemaNode, GExpr>();
  const defRules = new Map<string, GExpr>();
  const strings = new Map<string, GExpr>();
  let anyRule: GExpr | undefined;

  const rawText = (spec: StringConstraints, path: string, suffix: string): GExpr => {
    const escaped = sp.forbidden.map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
    const full: StringConstraints = { ...spec, notPatterns: [...spec.notPatterns, ...escaped] };
    const key = JSON.stringify([
      suffix,
      full.minLength,
      full.maxLength ?? null,
      full.patterns,
      full.notPatterns,
      full.formats,
      full.notValues ?? [],
    ]);
    const hit = strings.get(key);
    if (hit) return hit;
    const warned = st.warnings.length;
    const e = lowerStringValue(full, {
      strict: st.strict,
      limits: st.limits,
      warnings: st.warnings,
      deadline: st.deadline,
      path,
      rules: st.rules,
      rulePrefix: st.ruleName(path, suffix),
    });
    if (st.warnings.length === warned) strings.set(key, e);
    return e;
  };
  /** Bare keys: the spec's keys that GEMMA4_KEY allows. */
  const keyText = (spec: StringConstraints, path: string): GExpr =>
    rawText({ ...spec, patterns: [...spec.patterns, GEMMA4_KEY_PATTERN] }, path, "key");

  const spelling: ObjectSpelling = {
    open: lit("{"),
    close: lit("}"),
    empty: lit("{}"),
    itemSeparator: lit(","),
    key: (k) => lit(`${k}:`),
    extraKeys: {
      content: (spec, path) => keyText(spec, path),
      literal: (k) => (GEMMA4_KEY.test(k) ? lit(k) : NOTHING),
    },
  };

  const g: LowerState = { ...st, style: GEMMA4_STYLE, lower: (n) => lowerNode(n) };

  const lowerNode = (n: SchemaNode): GExpr => {
    if (n.kind !== "object" && n.kind !== "array" && n.kind !== "string") return lowerUncached(n);
    let e = done.get(n);
    if (e === undefined) done.set(n, (e = lowerUncached(n)));
    return e;
  };

  const lowerUncached = (n: SchemaNode): GExpr => {
    st.deadline.tick("lowering the schema", n.path);
    switch (n.kind) {
      case "never":
        return NOTHING;
      case "null":
      case "boolean":
      case "number":
        // spelled as in JSON (st's style is compact JSON's, keywords included)
        return st.lower(n);
      case "string":
        return seq(sp.delimiter, rawText(n, n.path, "str"), sp.delimiter);
      case "enum":
        return alt(
          ...n.values.map((v) => {
            const t = sp.valueText(v);
            return t === null ? NOTHING : sp.text(t);
          }),
        );
      case "array":
        return lowerArray(n, g);
      case "object": {
        checkBareKeys(n.properties, sp.format);
        const sorted = [...n.properties].sort((a, b) => gemma4KeyOrder(a.key, b.key));
        return lowerObject({ ...n, properties: sorted }, g, spelling);
      }
      case "union":
        return alt(...n.options.map(lowerNode));
      case "any":
        return (anyRule ??= anyValue());
      case "ref":
        return lowerRef(n.target, n.path);
    }
  };

  const lowerRef = (target: string, path: string): GExpr => {
    let r = defRules.get(target);
    if (r === undefined) {
      const def = st.defs.get(target);
      if (!def)
        throw new InvalidSchemaError(
          "INVALID_REF",
          `internal: definition ${target} is missing from the schema IR`,
          path,
        );
      const name = st.ruleName(def.path || target, "gemma4");
      r = ref(name);
      defRules.set(target, r);
      st.rules.set(name, NOTHING); // reserve the name: the body may refer to itself
      st.rules.set(name, lowerNode(def));
    }
    return r;
  };

  /** Any value Gemma 4 can write: bare keys of GEMMA4_KEY's form, strings without a forbidden text. */
  const anyValue = (): GExpr => {
    const name = st.ruleName("", "gemma4-value");
    st.rules.set(name, NOTHING);
    const value = ref(name);
    const member = seq(keyText(EMPTY_SPEC, ""), lit(":"), value);
    st.rules.set(
      name,
      alt(
        lit("{}"),
        seq(lit("{"), member, rep(seq(lit(","), member), 0, null), lit("}")),
        lit("[]"),
        seq(lit("["), value, rep(seq(lit(","), value), 0, null), lit("]")),
        seq(sp.delimiter, rawText(EMPTY_SPEC, "", "str"), sp.delimiter),
        ANY_NUMBER,
        lit("true"),
        lit("false"),
        lit("null"),
      ),
    );
    return value;
  };

  return lowerNode(top);
}
