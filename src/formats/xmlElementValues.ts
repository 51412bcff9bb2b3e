import { ToolgramError } from "../errors.js";
import { canonicalJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { FormatDescription, XmlElementsUnit } from "./FormatDescription.js";
import { splitMarker } from "./splitMarker.js";

/**
 * MiniMax M3's argument syntax (XmlElementsUnit), as its chat template's `to_xml` macro writes it, every tag led by the
 * unit's `tagPrefix` P: an object is `P<k>V P</k>` per member (members whose value is null are left out), an array
 * `P<item>V P</item>` per item (a null item is the empty element), a string its raw text, a boolean `true` / `false`,
 * a number its JSON text. The text does not say a value's type: the schema does (readXmlElementValue).
 */

export function xmlElementsUnit(d: FormatDescription): XmlElementsUnit {
  if (d.unit.kind !== "xml-elements") throw new Error(`internal: ${d.name} has no XML element call units`);
  return d.unit;
}

/**
 * Texts a string can never hold: the tag prefix (the reader ends a string at the next tag, and every marker of the
 * format starts with it) and the block's and the section's markers. The grammar excludes them, the renderer refuses
 * them.
 */
export function xmlElementsForbidden(d: FormatDescription): string[] {
  const u = xmlElementsUnit(d);
  const section = d.section === undefined ? [] : [splitMarker(d.section.open).core, splitMarker(d.section.close).core];
  return [u.tagPrefix, ...[d.open, d.close].filter((m): m is string => m !== null), ...section].filter(
    (m, i, all) => m !== "" && all.indexOf(m) === i,
  );
}

/**
 * Why `key` cannot be a tag of this format, or undefined when it can: a tag name ends at its `>` and a closing tag
 * opens `</`, so a key cannot hold `<` or `>` nor start with `/`; and the tag `P<K>` or `P</K>` must not be one of the
 * format's own markers (`invoke`, `tool_call`: the scanner ends a block or a section there).
 */
export function xmlElementKeyProblem(key: string, d: FormatDescription): string | undefined {
  if (key === "") return "an empty name cannot be a tag";
  if (/[<>]/.test(key)) return "a tag cannot hold < or >";
  if (key.startsWith("/")) return "a tag starting with / is a closing tag";
  const u = xmlElementsUnit(d);
  const markers = [
    d.open,
    d.close,
    ...(d.section === undefined ? [] : [splitMarker(d.section.open).core, splitMarker(d.section.close).core]),
  ].filter((m): m is string => m !== null && m !== "");
  for (const tag of [`${u.tagPrefix}<${key}>`, `${u.tagPrefix}</${key}>`]) {
    const clash = markers.find((m) => tag.startsWith(m) || m.startsWith(tag));
    if (clash !== undefined)
      return `the tag ${JSON.stringify(tag)} would read as the format's marker ${JSON.stringify(clash)}`;
  }
  return undefined;
}

/** A JSON number as the reader takes it (the grammar's numbers are such texts, and strings never are where numbers may stand). */
export const XML_ELEMENT_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
/** The same, as a JSON Schema pattern (what a string that stands beside numbers must not match). */
export const XML_ELEMENT_NUMBER_PATTERN = "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$";
export const XML_ELEMENT_BOOLEAN_PATTERN = "^(?:true|false)$";

/**
 * The text of a call's arguments: one element per member, in the object's order. Throws ToolgramError INVALID_INPUT
 * (naming the argument's path) for what the template cannot write back: a null member (the template leaves it out,
 * so the call would read back without it), a key that cannot be a tag, a string holding a forbidden text.
 */
export function xmlElementsArgumentsText(args: JsonObject, d: FormatDescription): string {
  return membersText(args, d, "arguments");
}

function membersText(o: JsonObject, d: FormatDescription, path: string): string {
  const u = xmlElementsUnit(d);
  let out = "";
  for (const [k, v] of Object.entries(o)) {
    const at = `${path}.${k}`;
    const problem = xmlElementKeyProblem(k, d);
    if (problem !== undefined)
      throw new ToolgramError(
        "INVALID_INPUT",
        `format ${d.name} writes ${at} as a tag named by its key, and ${problem}`,
      );
    if (v === null) {
      throw new ToolgramError(
        "INVALID_INPUT",
        `format ${d.name} cannot write ${at}: its chat template leaves null members out, so the call would read back without it; drop the member`,
      );
    }
    out += `${u.tagPrefix}<${k}>${valueText(v, d, at)}${u.tagPrefix}</${k}>`;
  }
  return out;
}

/** One value's text (see the module's doc); a null is the empty text (an array item: the template's empty element). */
export function xmlElementValueText(v: JsonValue, d: FormatDescription, path = "value"): string {
  return valueText(v, d, path);
}

function valueText(v: JsonValue, d: FormatDescription, path: string): string {
  const u = xmlElementsUnit(d);
  if (v === null) return "";
  if (typeof v === "string") {
    const bad = xmlElementsForbidden(d).find((f) => v.includes(f));
    if (bad !== undefined)
      throw new ToolgramError(
        "INVALID_INPUT",
        `format ${d.name} writes strings raw, and ${path} holds ${JSON.stringify(bad)}, where the reader would end it`,
      );
    return v;
  }
  if (typeof v === "number" || typeof v === "boolean") return canonicalJson(v);
  if (Array.isArray(v))
    return v
      .map((x, i) => `${u.tagPrefix}<${u.itemTag}>${valueText(x, d, `${path}[${i}]`)}${u.tagPrefix}</${u.itemTag}>`)
      .join("");
  if (isJsonObject(v)) return membersText(v, d, path);
  throw new Error("internal: not a JSON value");
}

/** A value as written: its text, or its child elements (tag and value) when it has any. */
export type XmlElementNode =
  | { kind: "text"; text: string }
  | { kind: "elements"; children: { tag: string; value: XmlElementNode; at: number }[] };

/** What reading found besides the values: whitespace between tags, tolerated in tolerant mode only. */
export interface XmlElementsReadIssue {
  code: "WHITESPACE_AROUND_TAGS" | "DUPLICATE_PARAMETER" | "UNPREFIXED_CLOSING_TAG";
  at: number;
}

/**
 * Reads the elements of `s` from `i` up to `end` (the call's arguments) into nodes: children `P<tag>…P</tag>`, each
 * holding text or elements. Throws an Error saying what it met where a tag was due; whitespace between elements is
 * recorded as an issue. Only when that reading fails, it reads again taking a closing tag written without the prefix
 * (`P<city>Paris</city>`, a slip of MiniMax M3 deployments' raw outputs) as the element's end (UNPREFIXED_CLOSING_TAG):
 * a string may hold `</city>` itself, which the first reading keeps.
 */
export function readXmlElements(
  s: string,
  i: number,
  end: number,
  u: XmlElementsUnit,
  issues: XmlElementsReadIssue[],
): { tag: string; value: XmlElementNode; at: number }[] {
  const first: XmlElementsReadIssue[] = [];
  try {
    const r = new ElementReader(s, end, u, first, false);
    r.i = i;
    const children = r.children(null);
    issues.push(...first);
    return children;
  } catch (e) {
    const again: XmlElementsReadIssue[] = [];
    const r = new ElementReader(s, end, u, again, true);
    r.i = i;
    let children: { tag: string; value: XmlElementNode; at: number }[];
    try {
      children = r.children(null);
    } catch {
      throw e;
    }
    issues.push(...again);
    return children;
  }
}

class ElementReader {
  i = 0;
  constructor(
    private readonly s: string,
    private readonly end: number,
    private readonly u: XmlElementsUnit,
    private readonly issues: XmlElementsReadIssue[],
    /** Takes `</tag>` without the prefix as an element's end (see readXmlElements). */
    private readonly loose: boolean,
  ) {}

  private fail(what: string): never {
    throw new Error(`${what} at ${this.i} (${JSON.stringify(this.s.slice(this.i, this.i + 40))})`);
  }

  /** Elements until `P</close>` (not consumed) or, with close null, the end; text between them must be whitespace. */
  children(close: string | null): { tag: string; value: XmlElementNode; at: number }[] {
    const P = this.u.tagPrefix;
    const out: { tag: string; value: XmlElementNode; at: number }[] = [];
    for (;;) {
      const next = this.s.indexOf(P, this.i);
      const stop = next < 0 || next >= this.end ? this.end : next;
      const text = this.s.slice(this.i, stop);
      if (text !== "") {
        if (text.trim() !== "")
          this.fail(
            out.length === 0 && close === null ? "text where an argument's tag is due" : "text beside elements",
          );
        this.issues.push({ code: "WHITESPACE_AROUND_TAGS", at: this.i });
      }
      this.i = stop;
      if (stop === this.end) {
        if (close !== null) this.fail(`the element ${JSON.stringify(close)} is not closed`);
        return out;
      }
      if (this.s.startsWith(`${P}</`, this.i)) {
        if (close === null) this.fail("a closing tag without its opening");
        return out;
      }
      out.push(this.element());
    }
  }

  private element(): { tag: string; value: XmlElementNode; at: number } {
    const P = this.u.tagPrefix;
    const at = this.i;
    if (!this.s.startsWith(`${P}<`, this.i)) this.fail("no tag");
    this.i += P.length + 1;
    const gt = this.s.indexOf(">", this.i);
    if (gt < 0 || gt >= this.end) this.fail("a tag without its >");
    const tag = this.s.slice(this.i, gt);
    if (tag === "" || tag.includes("<")) this.fail("no tag name");
    this.i = gt + 1;
    const plain = this.loose ? this.plainClose(tag) : undefined;
    if (plain !== undefined) return { tag, value: plain, at };
    const value = this.body(tag);
    const closing = `${P}</${tag}>`;
    if (!this.s.startsWith(closing, this.i)) this.fail(`the element ${JSON.stringify(tag)} closed by another tag`);
    this.i += closing.length;
    return { tag, value, at };
  }

  /** Loose reading: the element's text when `</tag>` (without the prefix) ends it before the next tag; consumed. */
  private plainClose(tag: string): XmlElementNode | undefined {
    const next = this.s.indexOf(this.u.tagPrefix, this.i);
    const stop = next < 0 || next >= this.end ? this.end : next;
    const close = `</${tag}>`;
    const k = this.s.indexOf(close, this.i);
    if (k < 0 || k + close.length > stop) return undefined;
    const text = this.s.slice(this.i, k);
    this.issues.push({ code: "UNPREFIXED_CLOSING_TAG", at: k });
    this.i = k + close.length;
    return { kind: "text", text };
  }

  /** An element's body: its text up to the next tag when that tag closes it, else its child elements. */
  private body(tag: string): XmlElementNode {
    const P = this.u.tagPrefix;
    const next = this.s.indexOf(P, this.i);
    if (next < 0 || next >= this.end) this.fail(`the element ${JSON.stringify(tag)} is not closed`);
    if (this.s.startsWith(`${P}</`, next)) {
      const text = this.s.slice(this.i, next);
      this.i = next;
      return { kind: "text", text };
    }
    return { kind: "elements", children: this.children(tag) };
  }
}

/** The JSON types a schema admits, as read from its own keywords (undefined: any value, or not told). */
type Kind = "string" | "number" | "boolean" | "null" | "object" | "array";

/**
 * A value's JSON from its node, typed by `schema` (a tool's raw JSON Schema, `root` for its local `$ref`s), as the
 * grammar writes it (src/lower/lowerXmlElements.ts):
 * - empty text: "" when the schema admits strings, else {} (objects), [] (arrays), null (nothing else);
 * - other text: a number when numbers are admitted and the text is a JSON number, a boolean likewise, else the
 *   string when strings are admitted; without a schema (or when nothing fits) by the text: number, boolean, string;
 * - elements: an array when arrays are admitted and every tag is the item tag (or objects are not admitted), else an
 *   object; without a schema, an array when every tag is the item tag. A repeated key keeps its last value
 *   (DUPLICATE_PARAMETER).
 */
export function readXmlElementValue(
  node: XmlElementNode,
  schema: JsonValue | undefined,
  root: JsonValue | undefined,
  u: XmlElementsUnit,
  issues: XmlElementsReadIssue[],
  at = 0,
): JsonValue {
  const kinds = kindsOf(schema, root, 0);
  const admits = (k: Kind): boolean => kinds === undefined || kinds.has(k);
  if (node.kind === "text") {
    const t = node.text;
    if (t === "") {
      if (kinds === undefined || kinds.has("string")) return "";
      if (kinds.has("object")) return {};
      if (kinds.has("array")) return [];
      if (kinds.has("null")) return null;
      return "";
    }
    if (kinds !== undefined) {
      if (kinds.has("number") && XML_ELEMENT_NUMBER.test(t)) return Number(t);
      if (kinds.has("boolean") && (t === "true" || t === "false")) return t === "true";
      if (kinds.has("string")) return t;
    }
    if (XML_ELEMENT_NUMBER.test(t) && Number.isFinite(Number(t))) return Number(t);
    if (t === "true" || t === "false") return t === "true";
    return t;
  }
  const allItems = node.children.every((c) => c.tag === u.itemTag);
  const asArray = kinds === undefined ? allItems : admits("array") && (allItems || !admits("object"));
  if (asArray)
    return node.children.map((c, i) =>
      readXmlElementValue(c.value, childSchema(schema, root, null, i), root, u, issues, c.at),
    );
  const o: JsonObject = {};
  for (const c of node.children) {
    if (Object.hasOwn(o, c.tag)) issues.push({ code: "DUPLICATE_PARAMETER", at: c.at ?? at });
    setMember(o, c.tag, readXmlElementValue(c.value, childSchema(schema, root, c.tag, 0), root, u, issues, c.at));
  }
  return o;
}

/** Sets a member, even `__proto__`, as JSON.parse does. */
function setMember(o: JsonObject, k: string, v: JsonValue): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

const ALL_KINDS: readonly Kind[] = ["string", "number", "boolean", "null", "object", "array"];

function resolve(s: JsonValue | undefined, root: JsonValue | undefined, depth: number): JsonObject | undefined {
  if (!isJsonObject(s) || depth > 16) return undefined;
  if (typeof s.$ref === "string" && isJsonObject(root)) {
    const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(s.$ref);
    const defs = m ? root[m[1]] : undefined;
    if (m && isJsonObject(defs))
      return resolve(defs[decodeURIComponent(m[2]).replace(/~1/g, "/").replace(/~0/g, "~")], root, depth + 1);
    if (s.$ref === "#") return resolve(root, root, depth + 1);
    return undefined;
  }
  return s;
}

function typeKind(t: JsonValue): Kind | undefined {
  if (t === "integer") return "number";
  return typeof t === "string" && (ALL_KINDS as readonly string[]).includes(t) ? (t as Kind) : undefined;
}

function valueKind(v: JsonValue): Kind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (isJsonObject(v)) return "object";
  return typeof v as Kind;
}

/** The kinds a schema admits by its own keywords (type, const, enum, anyOf / oneOf, allOf, $ref); undefined: any. */
function kindsOf(schema: JsonValue | undefined, root: JsonValue | undefined, depth: number): Set<Kind> | undefined {
  const s = resolve(schema, root, depth);
  if (s === undefined) return schema === false ? new Set() : undefined;
  let kinds: Set<Kind> | undefined;
  const meet = (k: Set<Kind> | undefined): void => {
    if (k === undefined) return;
    kinds = kinds === undefined ? k : new Set([...kinds].filter((x) => k.has(x)));
  };
  if (Object.hasOwn(s, "const")) meet(new Set([valueKind(s.const)]));
  if (Array.isArray(s.enum)) meet(new Set(s.enum.map(valueKind)));
  if (typeof s.type === "string" || Array.isArray(s.type))
    meet(new Set((Array.isArray(s.type) ? s.type : [s.type]).map(typeKind).filter((k): k is Kind => k !== undefined)));
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = s[key];
    if (!Array.isArray(options)) continue;
    const each = options.map((o) => kindsOf(o, root, depth + 1));
    meet(each.some((k) => k === undefined) ? undefined : new Set(each.flatMap((k) => [...(k as Set<Kind>)])));
  }
  if (Array.isArray(s.allOf)) for (const o of s.allOf) meet(kindsOf(o, root, depth + 1));
  if (kinds === undefined && s.type === undefined) {
    // keywords of one type only (`properties`, `items`) say which
    if (isJsonObject(s.properties) || s.additionalProperties !== undefined) meet(new Set(["object"]));
    else if (s.items !== undefined || Array.isArray(s.prefixItems)) meet(new Set(["array"]));
  }
  return kinds;
}

/** The schema of member `key` (or of item `index` when key is null) under `schema`, searching its alternatives. */
function childSchema(
  schema: JsonValue | undefined,
  root: JsonValue | undefined,
  key: string | null,
  index: number,
  depth = 0,
): JsonValue | undefined {
  const s = resolve(schema, root, depth);
  if (s === undefined) return undefined;
  if (key !== null) {
    if (isJsonObject(s.properties) && Object.hasOwn(s.properties, key)) return s.properties[key];
  } else {
    if (Array.isArray(s.prefixItems) && index < s.prefixItems.length) return s.prefixItems[index];
    if (s.items !== undefined && !Array.isArray(s.items)) return s.items;
  }
  for (const k of ["anyOf", "oneOf", "allOf"] as const) {
    const options = s[k];
    if (!Array.isArray(options)) continue;
    for (const o of options) {
      const c = childSchema(o, root, key, index, depth + 1);
      if (c !== undefined) return c;
    }
  }
  if (key !== null && isJsonObject(s.additionalProperties)) return s.additionalProperties;
  return undefined;
}
