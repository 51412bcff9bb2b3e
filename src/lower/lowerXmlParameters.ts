import { UnsupportedSchemaError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, EPSILON, lit, NOTHING, seq } from "../grammar/build.js";
import type { SchemaNode, StringConstraints } from "../schema/SchemaNode.js";
import { resolveRef } from "./resolveRef.js";
import type { LowerState } from "./LowerState.js";
import { collectRefs } from "../grammar/analysis/refs.js";
import { replaceCodePoint } from "../grammar/passes/replaceCodePoint.js";
import { lowerObject, type ObjectSpelling } from "./lowerObject.js";
import { lowerStringValue } from "./string/lowerStringContent.js";
import type { JsonValue } from "../json.js";
import { xmlValueType, xmlValueTypeName, type XmlValueType, type XmlValueTypeNames } from "../formats/xmlValueType.js";

/** The markers of a tagged-parameter format the lowering needs (from its XmlParametersUnit). */
export interface XmlParameterSpelling {
  /** The format's name, for errors. */
  format: string;
  keyOpen: string;
  keyClose: string;
  valueClose: string;
  /**
   * Texts a raw value must never contain: the value's closing marker (the reader ends the value at its first
   * occurrence) and the block's markers (the scanner ends the block there).
   */
  forbidden: readonly string[];
  /**
   * Each value's written type and its closing marker (XmlParametersUnit.valueType): `string` (or DSML's `true`)
   * before a raw string, the JSON value's own type (or `false`) before a JSON value. With it a parameter admitting
   * both strings and other values has both forms, each after its type.
   */
  valueType?: { readonly close: string; readonly names?: XmlValueTypeNames };
  /** Text written in place of the parameters when there are none (XmlParametersUnit.emptyArguments). */
  emptyArguments?: string;
}

/**
 * The arguments of a tool as tagged parameters, in declaration order, required ones present: for each member
 * `keyOpen + K + keyClose + V + valueClose` (with `valueTypes`, V opens with the marker of its form). The value `V` is
 * typed by the parameter's own subschema:
 * - a schema admitting only strings (`string`, an enum or const of strings, a union of those) is the raw text,
 *   satisfying the string constraints as they stand on the text itself, and never containing `forbidden`;
 * - a schema admitting no strings is the value's JSON (nested strings are JSON strings, escapes as usual);
 * - a schema admitting both (`{}`, `["string", "number"]`, a mixed enum): with `valueTypes`, either form, the raw
 *   string of the schema's string part or the JSON of its non-string part, each after its own marker; without, it is
 *   refused (UNSUPPORTED_KEYWORD): the raw text `42` would be a string or a number, and the reader could not tell.
 * The root must be an object whose members are declared properties (as for keyword arguments).
 */
export function lowerXmlParameters(root: SchemaNode, st: LowerState, sp: XmlParameterSpelling): GExpr {
  const n = resolveRef(root, st);
  if (n.kind !== "object") {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      `format ${sp.format} writes the arguments as tagged parameters, so the parameters must be one object schema (this one is ${n.kind === "union" ? "a union (anyOf/oneOf/type list)" : `a ${n.kind} schema`}); use another format or declare an object`,
      n.path,
    );
  }
  if (n.patternProperties.length > 0) {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      `format ${sp.format} writes the arguments as tagged parameters: only declared properties fit, patternProperties do not; use another format or declare the properties`,
      `${n.path}/patternProperties`,
    );
  }
  if (n.additionalProperties !== false && n.additionalProperties.kind !== "never") {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      `format ${sp.format} writes the arguments as tagged parameters: only declared properties fit; set additionalProperties: false (or compile with additionalProperties: "forbid")`,
      `${n.path}/additionalProperties`,
    );
  }
  const keyCore = sp.keyClose.trim();
  for (const p of n.properties) {
    if (keyCore !== "" && p.key.includes(keyCore)) {
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_KEYWORD",
        `format ${sp.format} writes a parameter name before ${JSON.stringify(keyCore)}, and the name ${JSON.stringify(p.key)} contains it; rename the property or use another format`,
        p.schema.path,
      );
    }
  }
  const spelling: ObjectSpelling = {
    open: EPSILON,
    close: EPSILON,
    empty: sp.emptyArguments === undefined || sp.emptyArguments === "" ? EPSILON : lit(sp.emptyArguments),
    itemSeparator: EPSILON,
    key: (k) => lit(sp.keyOpen + k + sp.keyClose),
    value: (v) => seq(xmlValueOf(v, st, sp), lit(sp.valueClose)),
  };
  return lowerObject(n, st, spelling);
}

/** Whether the values of `n` are strings only, never strings, or both. */
function stringness(node: SchemaNode, st: LowerState, seen = new Set<SchemaNode>()): "strings" | "none" | "both" {
  const n = resolveRef(node, st);
  if (seen.has(n)) return "none"; // a recursive definition: objects or arrays
  seen.add(n);
  switch (n.kind) {
    case "string":
      return "strings";
    case "never":
      return "none";
    case "any":
      return "both";
    case "enum": {
      const s = n.values.filter((v) => typeof v === "string").length;
      return s === 0 ? "none" : s === n.values.length ? "strings" : "both";
    }
    case "union": {
      const kinds = new Set(n.options.map((o) => stringness(o, st, seen)));
      if (kinds.size === 1) return [...kinds][0];
      return kinds.has("both") || (kinds.has("strings") && kinds.has("none")) ? "both" : "none";
    }
    default:
      return "none";
  }
}

function xmlValueOf(node: SchemaNode, st: LowerState, sp: XmlParameterSpelling): GExpr {
  const kind = stringness(node, st);
  const vt = sp.valueType;
  if (vt !== undefined) {
    const raw = seq(lit(xmlValueTypeName("string", vt.names) + vt.close), rawString(node, st, sp));
    if (kind === "strings") return raw;
    // the written type says which form follows, so both are exact: strings raw, every other value as JSON
    const json = typedJson(kind === "none" ? node : nonStrings(node, st), st, vt, sp);
    return kind === "none" ? json : alt(raw, json);
  }
  if (kind === "none") return escapeAngles(st.lower(node), st);
  if (kind === "both") {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      `format ${sp.format} writes a string parameter raw and any other value as JSON, and this parameter admits both strings and other values (the raw text 42 could be either); give it one type, or use another format`,
      node.path,
    );
  }
  return rawString(node, st, sp);
}

/**
 * The values of `node` that are not strings, as a schema: what a JSON-marked value of a parameter admitting both
 * may be (a JSON string there would be a second spelling of a raw one).
 */
function nonStrings(node: SchemaNode, st: LowerState): SchemaNode {
  const n = resolveRef(node, st);
  const path = n.path;
  switch (n.kind) {
    case "string":
      return { kind: "never", path, reason: "only strings" };
    case "any": {
      const any: SchemaNode = { kind: "any", path };
      return {
        kind: "union",
        path,
        options: [
          { kind: "null", path },
          { kind: "boolean", path },
          { kind: "number", path, integer: false },
          { kind: "array", path, prefixItems: [], items: any, minItems: 0 },
          {
            kind: "object",
            path,
            properties: [],
            patternProperties: [],
            additionalProperties: any,
            minProperties: 0,
            dependentRequired: {},
          },
        ],
      };
    }
    case "enum":
      return { kind: "enum", path, values: n.values.filter((v) => typeof v !== "string") };
    case "union":
      return {
        kind: "union",
        path,
        options: n.options
          .filter((o) => stringness(o, st) !== "strings")
          .map((o) => (stringness(o, st) === "none" ? o : nonStrings(o, st))),
      };
    default:
      return n;
  }
}

/**
 * A JSON value of `node` after its written type (`number"<|sep|>42`): one alternative per JSON type the schema admits,
 * each the type's name, the type's closing marker, then the values of that type only, so the type a grammar lets the
 * model write is always the value's (as the reader and the renderer spell it, xmlValueType). With DSML's string flag
 * every JSON value is written `false`: one alternative, the JSON of `node`.
 */
function typedJson(
  node: SchemaNode,
  st: LowerState,
  vt: NonNullable<XmlParameterSpelling["valueType"]>,
  sp: XmlParameterSpelling,
): GExpr {
  if (vt.names === "string-flag")
    return seq(lit(xmlValueTypeName("number", vt.names) + vt.close), escapeAngles(st.lower(node), st));
  const n = resolveRef(node, st);
  const typed = (type: XmlValueType, e: GExpr): GExpr =>
    seq(lit(xmlValueTypeName(type, vt.names) + vt.close), escapeAngles(e, st));
  switch (n.kind) {
    case "number":
      return typed("number", st.lower(node));
    case "boolean":
      return typed("boolean", st.lower(node));
    case "null":
      return typed("null", st.lower(node));
    case "object":
      return typed("object", st.lower(node));
    case "array":
      return typed("array", st.lower(node));
    case "never":
      return NOTHING;
    case "enum": {
      const groups = new Map<XmlValueType, JsonValue[]>();
      for (const v of n.values) {
        const t = xmlValueType(v);
        groups.set(t, [...(groups.get(t) ?? []), v]);
      }
      return alt(...[...groups].map(([t, values]) => typed(t, st.lower({ ...n, values }))));
    }
    case "union":
      return alt(...n.options.map((o) => typedJson(o, st, vt, sp)));
    default:
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_KEYWORD",
        `format ${sp.format} writes each value's JSON type before it, and this parameter's schema does not say which type its values have; give it a type`,
        node.path,
      );
  }
}

/** A raw string value (no quotes, no escapes) satisfying `node`, never containing a forbidden text. */
function rawString(node: SchemaNode, st: LowerState, sp: XmlParameterSpelling): GExpr {
  const n = resolveRef(node, st);
  const allowed = (v: string): boolean => !sp.forbidden.some((f) => v.includes(f));
  switch (n.kind) {
    case "enum":
      return alt(...n.values.filter((v): v is string => typeof v === "string" && allowed(v)).map((v) => lit(v)));
    case "union":
      return alt(...n.options.map((o) => rawString(o, st, sp)));
    case "any":
    case "string": {
      const escaped = sp.forbidden.map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
      // `any` admits every string: its raw form is an unconstrained one (valueTypes formats only reach here with it)
      const c: StringConstraints =
        n.kind === "string" ? n : { minLength: 0, patterns: [], notPatterns: [], formats: [] };
      const spec: StringConstraints = {
        minLength: c.minLength,
        patterns: c.patterns,
        notPatterns: [...c.notPatterns, ...escaped],
        formats: c.formats,
        ...(c.maxLength !== undefined ? { maxLength: c.maxLength } : {}),
        ...(c.notValues !== undefined ? { notValues: c.notValues } : {}),
      };
      return lowerStringValue(spec, {
        strict: st.strict,
        limits: st.limits,
        warnings: st.warnings,
        deadline: st.deadline,
        path: n.path,
        rules: st.rules,
        rulePrefix: st.ruleName(n.path, "raw"),
      });
    }
    default:
      return NOTHING;
  }
}

/**
 * A JSON value's grammar with every `<` written `\u003c` (renderToolCalls writes the same, see xmlParametersUnit's
 * jsonValueText). In JSON text `<` only stands inside strings (values or keys), where the escape decodes to the same
 * character, so the values are unchanged; and since every marker of a tagged-parameter format opens with `<`, a
 * string nested in a JSON value can never hold `</parameter>` or `</tool_call>`, where the reader would cut it.
 * The rules the value references are rewritten in place: they are JSON rules of this tool only (raw strings get
 * rules of their own), and the rewrite is idempotent (no `<` is left to replace).
 */
function escapeAngles(e: GExpr, st: LowerState): GExpr {
  const done = new Set<string>();
  const pending: string[] = [];
  const visit = (x: GExpr): void => {
    const refs = new Map<string, number>();
    collectRefs(x, refs);
    for (const rule of refs.keys()) {
      if (!done.has(rule) && st.rules.has(rule)) {
        done.add(rule);
        pending.push(rule);
      }
    }
  };
  visit(e);
  while (pending.length > 0) {
    const rule = pending.pop()!;
    const body = st.rules.get(rule)!;
    st.rules.set(rule, replaceCodePoint(body, 0x3c, "\\u003c"));
    visit(body);
  }
  return replaceCodePoint(e, 0x3c, "\\u003c");
}
