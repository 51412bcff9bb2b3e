import type { GExpr } from "../grammar/Grammar.js";
import { lit, seq } from "../grammar/build.js";
import type { StringConstraints, StringNode } from "../schema/SchemaNode.js";
import type { LowerState } from "./LowerState.js";
import { lowerStringContent } from "./string/lowerStringContent.js";

/**
 * Contents already lowered in a compile, by spec: real schemas repeat one string schema under many properties, and a
 * pattern with lengths can need an automaton of thousands of states (and as many rules) each time. Keyed by the rule
 * map the lowerings add their rules to.
 */
const contents = new WeakMap<Map<string, GExpr>, Map<string, GExpr>>();

/** The content (between the quotes) of a string satisfying `spec`. */
export function stringContent(spec: StringConstraints, path: string, st: LowerState): GExpr {
  const key = JSON.stringify([st.strict, spec.minLength, spec.maxLength ?? null, spec.patterns, spec.notPatterns, spec.formats, spec.notValues ?? []]);
  let cache = contents.get(st.rules);
  if (!cache) contents.set(st.rules, (cache = new Map()));
  const hit = cache.get(key);
  if (hit) return hit;
  const warned = st.warnings.length;
  const e = uncachedContent(spec, path, st);
  // a relaxed spec warns at its own path: only exact lowerings are shared
  if (st.warnings.length === warned) cache.set(key, e);
  return e;
}

function uncachedContent(spec: StringConstraints, path: string, st: LowerState): GExpr {
  return lowerStringContent(spec, {
    strict: st.strict,
    limits: st.limits,
    warnings: st.warnings,
    deadline: st.deadline,
    path,
    rules: st.rules,
    rulePrefix: st.ruleName(path, "str"),
  });
}

/** A JSON string value satisfying the node. */
export function lowerString(node: StringNode, st: LowerState): GExpr {
  return seq(lit('"'), stringContent(node, node.path, st), lit('"'));
}
