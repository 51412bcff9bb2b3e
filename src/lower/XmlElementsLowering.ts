import { InvalidSchemaError } from "../errors.js";
import { XML_ELEMENT_BOOLEAN_PATTERN, XML_ELEMENT_NUMBER_PATTERN } from "../formats/xmlElementValues.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, EPSILON, lit, NOTHING, ref, rep, seq } from "../grammar/build.js";
import type { SchemaNode, StringConstraints } from "../schema/SchemaNode.js";
import type { JsonStyle } from "./JsonStyle.js";
import { lowerArray } from "./lowerArray.js";
import { lowerObject, type ObjectSpelling } from "./lowerObject.js";
import type { LowerState } from "./LowerState.js";
import { refuseUnwritableMembers } from "./refuseUnwritableMembers.js";
import { lowerStringValue } from "./string/lowerStringContent.js";
import { ALL_KINDS, emptyOwner, type Kind, kindsKey, kindsOf } from "./xmlElementKinds.js";
import { xmlElementReadsBack } from "./xmlElementReadsBack.js";
import type { XmlElementsSpelling } from "./XmlElementsSpelling.js";

const EMPTY_SPEC: StringConstraints = { minLength: 0, patterns: [], notPatterns: [], formats: [] };

/**
 * One lowering of a tool's arguments as nested elements (see lowerXmlElementsArguments): the schema's places lowered
 * so far (per node and kinds), the rules of definitions and of any-values, the string rules, the paths warned about.
 * `lowerIn` lowers a node at a place of given kinds; the other methods are its cases.
 */
export class XmlElementsLowering {
  private readonly memo = new Map<SchemaNode, Map<string, GExpr>>();
  private readonly defRules = new Map<string, GExpr>();
  private readonly anyRules = new Map<string, GExpr>();
  private readonly strings = new Map<string, GExpr>();
  private readonly warned = new Set<string>();
  /** The style of nested elements: no brackets, no separators (lowerArray and lowerObject read these). */
  private readonly elementStyle: JsonStyle;
  private readonly itemOpen: GExpr;
  private readonly itemClose: GExpr;
  private readonly itemState: LowerState;
  /** The rule of one or more items of any value, once made. */
  private anyItems: string | undefined;

  constructor(
    private readonly st: LowerState,
    private readonly sp: XmlElementsSpelling,
  ) {
    const P = sp.unit.tagPrefix;
    this.elementStyle = {
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
    this.itemOpen = lit(`${P}<${sp.unit.itemTag}>`);
    this.itemClose = lit(`${P}</${sp.unit.itemTag}>`);
    this.itemState = {
      ...st,
      style: this.elementStyle,
      lower: (n) => seq(this.itemOpen, this.lowerIn(n, kindsOf(n, st)), this.itemClose),
    };
  }

  private narrowed(path: string, why: string): void {
    if (this.warned.has(path)) return;
    this.warned.add(path);
    this.st.warnings.push({ code: "NARROWED", message: `format ${this.sp.format}: ${why}`, schemaPath: path });
  }

  private rawText(spec: StringConstraints, k: ReadonlySet<Kind>, path: string): GExpr {
    const st = this.st;
    const escaped = this.sp.forbidden.map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
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
    const hit = this.strings.get(key);
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
    if (st.warnings.length === before) this.strings.set(key, e);
    return e;
  }

  /** A member's value: its kinds without null (the template drops null members). */
  private memberValue(n: SchemaNode): GExpr {
    const k = kindsOf(n, this.st);
    k.delete("null");
    return this.lowerIn(n, k);
  }

  /** `node` at a place of kinds `k`, lowered once per node and kinds. */
  lowerIn(node: SchemaNode, k: ReadonlySet<Kind>): GExpr {
    const ck = kindsKey(k);
    let byKinds = this.memo.get(node);
    if (byKinds === undefined) this.memo.set(node, (byKinds = new Map()));
    const hit = byKinds.get(ck);
    if (hit !== undefined) return hit;
    const e = this.lowerUncached(node, k);
    byKinds.set(ck, e);
    return e;
  }

  private lowerUncached(n: SchemaNode, k: ReadonlySet<Kind>): GExpr {
    const st = this.st;
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
        return this.rawText(n, k, n.path);
      case "enum":
        return alt(
          ...n.values.map((v) => {
            if (v === null) return emptyOwner(k) === "null" ? EPSILON : NOTHING;
            const text = xmlElementReadsBack(v, k, this.sp);
            return text === null ? NOTHING : lit(text);
          }),
        );
      case "array": {
        const minItems = emptyOwner(k) === "array" ? n.minItems : Math.max(1, n.minItems);
        return st.share(n.path, "elements", lowerArray({ ...n, minItems }, this.itemState));
      }
      case "object":
        return st.share(n.path, "elements", this.lowerElementsObject(n, k));
      case "union":
        return alt(...n.options.map((o) => this.lowerIn(o, k)));
      case "any":
        return this.anyValue(n.path, k);
      case "ref":
        return this.lowerRef(n.target, n.path, k);
    }
  }

  private lowerElementsObject(n: Extract<SchemaNode, { kind: "object" }>, k: ReadonlySet<Kind>): GExpr {
    const P = this.sp.unit.tagPrefix;
    refuseUnwritableMembers(n, k, this.st, this.sp);
    let m = n;
    if (
      n.patternProperties.length > 0 ||
      (n.additionalProperties !== false && n.additionalProperties.kind !== "never")
    ) {
      this.narrowed(
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
      value: (v) => this.memberValue(v),
      after: (key) => lit(`${P}</${key}>`),
    };
    return lowerObject(m, { ...this.st, style: this.elementStyle }, spelling);
  }

  private lowerRef(target: string, path: string, k: ReadonlySet<Kind>): GExpr {
    const st = this.st;
    const key = `${target}\u0000${kindsKey(k)}`;
    let r = this.defRules.get(key);
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
      this.defRules.set(key, r);
      st.rules.set(name, NOTHING); // reserve the name: the body may refer to itself
      st.rules.set(name, this.lowerIn(def, k));
    }
    return r;
  }

  /**
   * Any value at a place of kinds `k`: a string (not spelling a number or boolean), a number, a boolean, an array of
   * any values, null where it owns the empty element; objects have no declared keys to write (NARROWED).
   */
  private anyValue(path: string, k: ReadonlySet<Kind>): GExpr {
    const st = this.st;
    const key = kindsKey(k);
    let r = this.anyRules.get(key);
    if (r !== undefined) return r;
    this.narrowed(
      path,
      "a value of any type may be an object, whose undeclared keys a grammar cannot close (a closing tag repeats its key): objects are not written there (give the value a schema)",
    );
    const name = st.ruleName("", `elements-any-${this.anyRules.size}`);
    r = ref(name);
    this.anyRules.set(key, r);
    st.rules.set(name, NOTHING);
    const items = ref(this.anyItemRule());
    const array = emptyOwner(k) === "array" ? alt(EPSILON, items) : items;
    st.rules.set(
      name,
      alt(
        this.rawText(EMPTY_SPEC, k, path),
        st.lower({ kind: "number", path, integer: false }),
        lit("true"),
        lit("false"),
        array,
        emptyOwner(k) === "null" ? EPSILON : NOTHING,
      ),
    );
    return r;
  }

  /** One or more items of any value (each at a place of every kind). */
  private anyItemRule(): string {
    if (this.anyItems !== undefined) return this.anyItems;
    const name = this.st.ruleName("", "elements-any-items");
    this.anyItems = name;
    this.st.rules.set(name, NOTHING);
    const item = seq(this.itemOpen, this.anyValue("", new Set(ALL_KINDS)), this.itemClose);
    this.st.rules.set(name, rep(item, 1, null));
    return name;
  }
}
