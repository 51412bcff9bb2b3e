import type { Diagnostic } from "../diagnostic.js";
import { InvalidSchemaError, LimitExceededError, UnsupportedSchemaError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, lit, NOTHING, ref } from "../grammar/build.js";
import { Deadline } from "../Deadline.js";
import type { Limits, PropertyOrder, ResolvedSchemaOptions } from "../options.js";
import type { SchemaIR, SchemaNode } from "../schema/SchemaNode.js";
import { anyValueRule } from "./anyValue.js";
import { exprSizeAtMost, totalExprSize } from "../grammar/analysis/exprSize.js";
import { innerStyle, jsonStyle, type JsonStyle } from "./JsonStyle.js";
import { lowerArray } from "./lowerArray.js";
import { lowerKeywordArguments } from "./lowerKeywordArguments.js";
import { lowerObject } from "./lowerObject.js";
import { lowerXmlParameters, type XmlParameterSpelling } from "./lowerXmlParameters.js";
import { lowerGemma4Arguments, type Gemma4Spelling } from "./lowerGemma4.js";
import { lowerXmlElementsArguments } from "./lowerXmlElements.js";
import type { XmlElementsSpelling } from "./XmlElementsSpelling.js";
import type { LowerState } from "./LowerState.js";
import { lowerString } from "./lowerString.js";
import { lowerNumber } from "./number/lowerNumber.js";
import { ruleNameFromPath, uniqueRuleName } from "./ruleName.js";
import { styledValue } from "./styledValue.js";

export interface LowerContext {
  /** Named rules this lowering adds (recursive definitions, the any-JSON value, shared pieces). */
  rules: Map<string, GExpr>;
  /** Rule-name prefix, e.g. "get-weather"; rule names are derived from it and schema paths. */
  prefix: string;
  /** Spelling of separators and whitespace. */
  style: JsonStyle;
  strict: boolean;
  limits: Limits;
  /** How declared properties may be ordered (`SchemaCompileOptions.propertyOrder`); absent: declaration order. */
  propertyOrder?: PropertyOrder;
  warnings: Diagnostic[];
  /** The compile's time budget: LIMIT_COMPILE_TIME is thrown from inside the lowering. */
  deadline: Deadline;
  /** The root is written as keyword arguments `(k=v, ...)` (see lowerKeywordArguments); absent: as JSON. */
  keywordArguments?: boolean;
  /** Between two keyword arguments (absent: `, `). */
  keywordSeparator?: string;
  /** The root is written as tagged parameters (see lowerXmlParameters); absent: as JSON. */
  xmlParameters?: XmlParameterSpelling;
  /** The root is written in Gemma 4's value syntax (see lowerGemma4Arguments); absent: as JSON. */
  gemma4?: Gemma4Spelling;
  /** The root is written as nested elements (see lowerXmlElementsArguments); absent: as JSON. */
  xmlElements?: XmlElementsSpelling;
  /**
   * Set by `lowerSchema`: IR nodes of the expression it returned and of every rule in `rules` (its size check's
   * count), so a caller that keeps them needs no second count.
   */
  size?: number;
}

export function createLowerContext(
  opts: ResolvedSchemaOptions,
  prefix: string,
  warnings: Diagnostic[],
  deadline: Deadline = Deadline.none(),
): LowerContext {
  return {
    rules: new Map(),
    prefix,
    style: jsonStyle(opts.whitespace),
    strict: opts.strict,
    limits: opts.limits,
    propertyOrder: opts.propertyOrder,
    warnings,
    deadline,
  };
}

/** The any-value rule of each context and style, added once however many schemas are lowered into it. */
const anyRules = new WeakMap<Map<string, GExpr>, Map<string, GExpr>>();

function anyRuleOf(st: LowerState, ctx: LowerContext, stateOf: (style: JsonStyle) => LowerState): GExpr {
  let byStyle = anyRules.get(ctx.rules);
  if (!byStyle) anyRules.set(ctx.rules, (byStyle = new Map()));
  let r = byStyle.get(st.style.id);
  if (!r) {
    const inner = innerStyle(st.style);
    // the rule is registered before its members are built: they refer to it (same style) or to the next depth's
    r = anyValueRule(st, ctx.rules, ctx.prefix, (self) => {
      byStyle.set(st.style.id, self);
      return inner === st.style ? self : anyRuleOf(stateOf(inner), ctx, stateOf);
    });
  }
  return r;
}

/** Expressions at most this big are inlined where they are used; bigger shared ones become rules. */
const INLINE_NODES = 24;

/**
 * The grammar expression of one JSON value valid under `ir.root`, in `ctx.style`. Named rules it needs (each
 * definition reached through a `ref`, lowered once; the any-value rule; shared pieces) are added to `ctx.rules`.
 * Accepted texts are canonical spellings of valid values only; what cannot be enforced exactly is refused
 * (strict) or over-approximated with a warning.
 */
export function lowerSchema(ir: SchemaIR, ctx: LowerContext): GExpr {
  const defRules = new Map<string, string>();
  const addRule = (path: string, suffix: string, e: GExpr): GExpr => {
    const name = uniqueRuleName(ctx.rules, ruleNameFromPath(ctx.prefix, path, suffix));
    ctx.rules.set(name, e);
    return ref(name);
  };
  // one state per style: members of a container are lowered in its inner style (an indented layout's next depth)
  const states = new Map<JsonStyle, LowerState>();
  const stateOf = (style: JsonStyle): LowerState => {
    let state = states.get(style);
    if (state === undefined) states.set(style, (state = makeState(style)));
    return state;
  };
  const makeState = (style: JsonStyle): LowerState => ({
    strict: ctx.strict,
    limits: ctx.limits,
    propertyOrder: ctx.propertyOrder ?? "declared",
    warnings: ctx.warnings,
    deadline: ctx.deadline,
    style,
    defs: ir.defs,
    rules: ctx.rules,
    ruleName: (path, suffix) => uniqueRuleName(ctx.rules, ruleNameFromPath(ctx.prefix, path, suffix)),
    lower: (n) => lowerNode(n, stateOf(innerStyle(style))),
    addRule,
    share: (path, suffix, e) => (exprSizeAtMost(e, INLINE_NODES) ? e : addRule(path, suffix, e)),
    relax: (keyword, path, why) => {
      if (ctx.strict) {
        throw new UnsupportedSchemaError(
          "UNSUPPORTED_KEYWORD",
          `${keyword}: ${why}; simplify the schema, or compile with strict: false to accept a superset`,
          path,
        );
      }
      ctx.warnings.push({
        code: "OVER_APPROXIMATED",
        message: `${keyword}: ${why}; the grammar accepts a superset, the parser's validation still checks it`,
        schemaPath: path,
      });
    },
  });
  const st = stateOf(ctx.style);

  // the normalizer shares one node object between the places a `$ref` is used: lower it once
  // (per style: the same node nested at another depth of an indented layout is another text)
  const doneByStyle = new Map<JsonStyle, Map<SchemaNode, GExpr>>();
  const lowerNode = (n: SchemaNode, st: LowerState): GExpr => {
    if (n.kind !== "object" && n.kind !== "array" && n.kind !== "string") return lowerUncached(n, st);
    let done = doneByStyle.get(st.style);
    if (done === undefined) doneByStyle.set(st.style, (done = new Map()));
    let e = done.get(n);
    if (e === undefined) done.set(n, (e = lowerUncached(n, st)));
    else if (e.type !== "ref" && !exprSizeAtMost(e, INLINE_NODES)) done.set(n, (e = addRule(n.path, "", e))); // second use: name it
    return e;
  };
  const lowerUncached = (n: SchemaNode, st: LowerState): GExpr => {
    ctx.deadline.tick("lowering the schema", n.path);
    switch (n.kind) {
      case "never":
        return NOTHING;
      case "any":
        return anyRuleOf(st, ctx, stateOf);
      case "null":
        return lit(st.style.keywords.null);
      case "boolean":
        return alt(lit(st.style.keywords.true), lit(st.style.keywords.false));
      case "enum":
        if (n.values.length > ctx.limits.maxEnumSize) {
          throw new LimitExceededError(
            "LIMIT_ENUM_SIZE",
            `enum has ${n.values.length} values, above limits.maxEnumSize ${ctx.limits.maxEnumSize}; raise the limit or shorten the enum`,
            n.path,
          );
        }
        return alt(...n.values.map((v) => styledValue(v, st.style)));
      case "number":
        return lowerNumber(n, {
          strict: ctx.strict,
          warnings: ctx.warnings,
          // named only for `multipleOf`'s residue rules: most numbers are shared pieces without a rule
          get ruleBase() {
            return ruleNameFromPath(ctx.prefix, n.path);
          },
          addRule: (name, e) => {
            const unique = uniqueRuleName(ctx.rules, name);
            ctx.rules.set(unique, e);
            return ref(unique);
          },
        });
      case "string":
        return lowerString(n, st);
      case "array":
        return lowerArray(n, st);
      case "object":
        return lowerObject(n, st);
      case "union":
        return alt(...n.options.map((o) => lowerNode(o, st)));
      case "ref":
        return lowerRef(n.target, n.path, st);
    }
  };

  const lowerRef = (target: string, path: string, st: LowerState): GExpr => {
    const key = `${st.style.id}\u0000${target}`;
    let name = defRules.get(key);
    if (name === undefined) {
      const def = ir.defs.get(target);
      if (!def)
        throw new InvalidSchemaError(
          "INVALID_REF",
          `internal: definition ${target} is missing from the schema IR`,
          path,
        );
      name = uniqueRuleName(ctx.rules, ruleNameFromPath(ctx.prefix, def.path || target));
      defRules.set(key, name);
      ctx.rules.set(name, NOTHING); // reserve the name: the body may refer to itself
      ctx.rules.set(name, lowerNode(def, st));
    }
    return ref(name);
  };

  const root = ctx.xmlElements
    ? lowerXmlElementsArguments(ir.root, st, ctx.xmlElements)
    : ctx.gemma4
      ? lowerGemma4Arguments(ir.root, st, ctx.gemma4)
      : ctx.xmlParameters
        ? lowerXmlParameters(ir.root, st, ctx.xmlParameters)
        : ctx.keywordArguments
          ? lowerKeywordArguments(ir.root, st, ctx.keywordSeparator)
          : lowerNode(ir.root, st);
  ctx.deadline.check("lowering the schema", ir.root.path);
  const size = totalExprSize([root, ...ctx.rules.values()]);
  ctx.size = size;
  if (size > ctx.limits.maxGrammarSize) {
    throw new LimitExceededError(
      "LIMIT_GRAMMAR_SIZE",
      `the grammar has ${size} nodes, above limits.maxGrammarSize ${ctx.limits.maxGrammarSize}; simplify the schema or raise the limit`,
      ir.root.path,
    );
  }
  return root;
}
