import { InvalidSchemaError, UnsupportedSchemaError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, EPSILON, lit, NOTHING, ref, rep, seq } from "../grammar/build.js";
import { canonicalJson, isJsonObject, type JsonValue } from "../json.js";
import type { SchemaNode, StringConstraints } from "../schema/SchemaNode.js";
import {
  XML_ELEMENT_BOOLEAN_PATTERN,
  XML_ELEMENT_NUMBER_PATTERN,
  readXmlElements,
  readXmlElementValue,
  type XmlElementNode,
} from "../formats/xmlElementValues.js";
import type { XmlElementsUnit } from "../formats/FormatDescription.js";
import type { JsonStyle } from "./JsonStyle.js";
import { lowerArray } from "./lowerArray.js";
import { lowerObject, type ObjectSpelling } from "./lowerObject.js";
import type { LowerState } from "./LowerState.js";
import { resolveRef } from "./resolveRef.js";
import { lowerStringValue } from "./string/lowerStringContent.js";

/** What the nested-elements lowering needs from the format (its XmlElementsUnit and markers). */
export interface XmlElementsSpelling {
  /** The format's name, for errors. */
  format: string;
  unit: XmlElementsUnit;
  /** Texts a string can never hold (xmlElementsForbidden). */
  forbidden: readonly string[];
  /** Why a key cannot be a tag, or undefined (xmlElementKeyProblem). */
  keyProblem(key: string): string | undefined;
  /** A constant's text (xmlElementValueText), or null when the syntax cannot write it. */
  valueText(v: JsonValue): string | null;
}

/** The JSON types of values. */
type Kind = "string" | "number" | "boolean" | "null" | "object" | "array";
const ALL: readonly Kind[] = ["string", "number", "boolean", "null", "object", "array"];

/** The kind an empty element is read as among the kinds of a place: "" first, then {}, [], null. */
function emptyOwner(k: ReadonlySet<Kind>): Kind | undefined {
  return (["string", "object", "array", "null"] as const).find((x) => k.has(x));
}

const EMPTY_SPEC: StringConstraints = { minLength: 0, patterns: [], notPatterns: [], formats: [] };

/**
 * The arguments of a tool as MiniMax M3's nested elements (XmlElementsUnit), typed by its schema, exact: every text
 * reads back (src/formats/xmlElementValues.ts, readXmlElementValue, with the same schema) into a valid value.
 * The text of a value does not say its type, so at each place (a member, an item) the kinds the place's schema admits
 * decide, and each kind is written only in texts the reader gives to it:
 * - an empty element is "" when strings are admitted, else {}, else [], else null: the later ones are written
 *   non-empty (minProperties / minItems at least 1) or not at all;
 * - a string beside numbers (booleans) never spells a JSON number (`true` / `false`); no string holds a forbidden
 *   text (the tag prefix, hence no marker);
 * - an object beside arrays has no property named like the item tag (refused: its one-member form reads as an array).
 * What the template cannot write is left out or refused: null members (the template drops them; a required property
 * admitting only null is refused with UNSUPPORTED_KEYWORD at its path), undeclared keys (a closing tag repeats its
 * key: only declared properties are written, with the warning NARROWED), keys that cannot be tags (refused).
 * The root must be an object schema.
 */
export function lowerXmlElementsArguments(root: SchemaNode, st: LowerState, sp: XmlElementsSpelling): GExpr {
  const top = resolveRef(root, st);
  if (top.kind !== "object") {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      `format ${sp.format} writes the arguments as one element per parameter, so the parameters must be one object schema (this one is ${top.kind === "union" ? "a union (anyOf/oneOf/type list)" : `a ${top.kind} schema`}); use another format or declare an object`,
      top.path,
    );
  }
  const P = sp.unit.tagPrefix;
  const memo = new Map<SchemaNode, Map<string, GExpr>>();
  const defRules = new Map<string, GExpr>();
  const anyRules = new Map<string, GExpr>();
  const strings = new Map<string, GExpr>();
  const warned = new Set<string>();
  const keyOf = (k: ReadonlySet<Kind>): string => ALL.filter((x) => k.has(x)).join(",");

  const narrowed = (path: string, why: string): void => {
    if (warned.has(path)) return;
    warned.add(path);
    st.warnings.push({ code: "NARROWED", message: `format ${sp.format}: ${why}`, schemaPath: path });
  };

  const kindsOf = (node: SchemaNode, seen = new Set<SchemaNode>()): Set<Kind> => {
    const n = resolveRef(node, st);
    if (seen.has(n)) return new Set();
    seen.add(n);
    switch (n.kind) {
      case "never":
        return new Set();
      case "any":
        return new Set(ALL);
      case "enum":
        return new Set(n.values.map(valueKind));
      case "union":
        return new Set(n.options.flatMap((o) => [...kindsOf(o, seen)]));
      case "ref":
        return new Set();
      default:
        return new Set([n.kind]);
    }
  };

  /** Whether the reader, at a place of kinds `k`, reads the text written for `v` back as `v`. */
  const readsBack = (v: JsonValue, k: ReadonlySet<Kind>): string | null => {
    let text: string | null;
    try {
      text = sp.valueText(v);
    } catch {
      text = null;
    }
    if (text === null) return null;
    let node: XmlElementNode;
    try {
      node = text.includes(P)
        ? { kind: "elements", children: readXmlElements(text, 0, text.length, sp.unit, []) }
        : { kind: "text", text };
    } catch {
      return null;
    }
    const schema = { type: ALL.filter((x) => k.has(x)) };
    const back = readXmlElementValue(node, schema, schema, sp.unit, []);
    return canonicalJson(back) === canonicalJson(v) ? text : null;
  };

  const rawText = (spec: StringConstraints, k: ReadonlySet<Kind>, path: string): GExpr => {
    const escaped = sp.forbidden.map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
    const beside = [
      ...(k.has("number") ? [XML_ELEMENT_NUMBER_PATTERN] : []),
      ...(k.has("boolean") ? [XML_ELEMENT_BOOLEAN_PATTERN] : []),
    ];
    const full: StringConstraints = { ...spec, notPatterns: [...spec.notPatterns, ...escaped, ...beside] };
    const key = JSON.stringify([
      full.minLength,
      full.maxLength ?? null,
      full.patterns,
      full.notPatterns,
      full.formats,
      full.notValues ?? [],
    ]);
    const hit = strings.get(key);
    if (hit) return hit;
    const before = st.warnings.length;
    const e = lowerStringValue(full, {
      strict: st.strict,
      limits: st.limits,
      warnings: st.warnings,
      deadline: st.deadline,
      path,
      rules: st.rules,
      rulePrefix: st.ruleName(path, "raw"),
    });
    if (st.warnings.length === before) strings.set(key, e);
    return e;
  };

  /** The style of nested elements: no brackets, no separators (lowerArray and lowerObject read these). */
  const elementStyle: JsonStyle = {
    ...st.style,
    arrayOpen: EPSILON,
    arrayClose: EPSILON,
    emptyArray: EPSILON,
    itemSeparator: EPSILON,
    objectOpen: EPSILON,
    objectClose: EPSILON,
    emptyObject: EPSILON,
    keySeparator: EPSILON,
    id: "xml-elements",
  };
  const itemOpen = lit(`${P}<${sp.unit.itemTag}>`);
  const itemClose = lit(`${P}</${sp.unit.itemTag}>`);
  const itemState: LowerState = {
    ...st,
    style: elementStyle,
    lower: (n) => seq(itemOpen, lowerIn(n, kindsOf(n)), itemClose),
  };

  /** A member's value: its kinds without null (the template drops null members). */
  const memberValue = (n: SchemaNode): GExpr => {
    const k = kindsOf(n);
    k.delete("null");
    return lowerIn(n, k);
  };

  const lowerIn = (node: SchemaNode, k: ReadonlySet<Kind>): GExpr => {
    const ck = keyOf(k);
    let byKinds = memo.get(node);
    if (byKinds === undefined) memo.set(node, (byKinds = new Map()));
    const hit = byKinds.get(ck);
    if (hit !== undefined) return hit;
    const e = lowerUncached(node, k);
    byKinds.set(ck, e);
    return e;
  };

  const lowerUncached = (n: SchemaNode, k: ReadonlySet<Kind>): GExpr => {
    st.deadline.tick("lowering the schema", n.path);
    switch (n.kind) {
      case "never":
        return NOTHING;
      case "null":
        // only an array item can be null: the empty element, when no other kind claims it
        return emptyOwner(k) === "null" ? EPSILON : NOTHING;
      case "boolean":
      case "number":
        return st.lower(n);
      case "string":
        return rawText(n, k, n.path);
      case "enum":
        return alt(
          ...n.values.map((v) => {
            if (v === null) return emptyOwner(k) === "null" ? EPSILON : NOTHING;
            const text = readsBack(v, k);
            return text === null ? NOTHING : lit(text);
          }),
        );
      case "array": {
        const minItems = emptyOwner(k) === "array" ? n.minItems : Math.max(1, n.minItems);
        return st.share(n.path, "elements", lowerArray({ ...n, minItems }, itemState));
      }
      case "object":
        return st.share(n.path, "elements", lowerElementsObject(n, k));
      case "union":
        return alt(...n.options.map((o) => lowerIn(o, k)));
      case "any":
        return anyValue(n.path, k);
      case "ref":
        return lowerRef(n.target, n.path, k);
    }
  };

  const lowerElementsObject = (n: Extract<SchemaNode, { kind: "object" }>, k: ReadonlySet<Kind>): GExpr => {
    for (const p of n.properties) {
      const problem = sp.keyProblem(p.key);
      if (problem !== undefined) {
        throw new UnsupportedSchemaError(
          "UNSUPPORTED_KEYWORD",
          `format ${sp.format} writes each member as an element named by its key, and ${JSON.stringify(p.key)} cannot be one (${problem}); rename the property or use another format`,
          p.schema.path,
        );
      }
      if (k.has("array") && p.key === sp.unit.itemTag) {
        throw new UnsupportedSchemaError(
          "UNSUPPORTED_KEYWORD",
          `format ${sp.format} writes an array's items as ${JSON.stringify(sp.unit.itemTag)} elements, and this object, which stands where arrays may too, has a property of that name: its elements would read as an array; rename the property or use another format`,
          p.schema.path,
        );
      }
      const pk = kindsOf(p.schema);
      pk.delete("null");
      if (p.required && pk.size === 0) {
        throw new UnsupportedSchemaError(
          "UNSUPPORTED_KEYWORD",
          `format ${sp.format} cannot write the required property ${JSON.stringify(p.key)}: it admits only null, and the chat template leaves null members out; make it optional or give it another type`,
          p.schema.path,
        );
      }
    }
    let m = n;
    if (
      n.patternProperties.length > 0 ||
      (n.additionalProperties !== false && n.additionalProperties.kind !== "never")
    ) {
      narrowed(
        n.path,
        "a member's closing tag repeats its key, which a grammar cannot match for undeclared keys: only the declared properties are written (declare the properties, or set additionalProperties: false)",
      );
      m = { ...n, patternProperties: [], additionalProperties: false };
    }
    if (emptyOwner(k) !== "object") m = { ...m, minProperties: Math.max(1, m.minProperties) };
    const spelling: ObjectSpelling = {
      open: EPSILON,
      close: EPSILON,
      empty: EPSILON,
      itemSeparator: EPSILON,
      key: (key) => lit(`${P}<${key}>`),
      value: (v) => memberValue(v),
      after: (key) => lit(`${P}</${key}>`),
    };
    return lowerObject(m, { ...st, style: elementStyle }, spelling);
  };

  const lowerRef = (target: string, path: string, k: ReadonlySet<Kind>): GExpr => {
    const key = `${target}\u0000${keyOf(k)}`;
    let r = defRules.get(key);
    if (r === undefined) {
      const def = st.defs.get(target);
      if (!def)
        throw new InvalidSchemaError(
          "INVALID_REF",
          `internal: definition ${target} is missing from the schema IR`,
          path,
        );
      const name = st.ruleName(def.path || target, "elements");
      r = ref(name);
      defRules.set(key, r);
      st.rules.set(name, NOTHING); // reserve the name: the body may refer to itself
      st.rules.set(name, lowerIn(def, k));
    }
    return r;
  };

  /**
   * Any value at a place of kinds `k`: a string (not spelling a number or boolean), a number, a boolean, an array of
   * any values, null where it owns the empty element; objects have no declared keys to write (NARROWED).
   */
  const anyValue = (path: string, k: ReadonlySet<Kind>): GExpr => {
    const key = keyOf(k);
    let r = anyRules.get(key);
    if (r !== undefined) return r;
    narrowed(
      path,
      "a value of any type may be an object, whose undeclared keys a grammar cannot close (a closing tag repeats its key): objects are not written there (give the value a schema)",
    );
    const name = st.ruleName("", `elements-any-${anyRules.size}`);
    r = ref(name);
    anyRules.set(key, r);
    st.rules.set(name, NOTHING);
    const items = ref(anyItemRule());
    const array = emptyOwner(k) === "array" ? alt(EPSILON, items) : items;
    st.rules.set(
      name,
      alt(
        rawText(EMPTY_SPEC, k, path),
        st.lower({ kind: "number", path, integer: false }),
        lit("true"),
        lit("false"),
        array,
        emptyOwner(k) === "null" ? EPSILON : NOTHING,
      ),
    );
    return r;
  };

  /** One or more items of any value (each at a place of every kind). */
  let anyItems: string | undefined;
  const anyItemRule = (): string => {
    if (anyItems !== undefined) return anyItems;
    const name = st.ruleName("", "elements-any-items");
    anyItems = name;
    st.rules.set(name, NOTHING);
    const item = seq(itemOpen, anyValue("", new Set(ALL)), itemClose);
    st.rules.set(name, rep(item, 1, null));
    return name;
  };

  return lowerIn(top, new Set<Kind>(["object"]));
}

function valueKind(v: JsonValue): Kind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (isJsonObject(v)) return "object";
  return typeof v as Kind;
}
