import type { GExpr } from "../grammar/Grammar.js";
import { exprSizeAtMost } from "../grammar/analysis/exprSize.js";
import { lit, seq } from "../grammar/build.js";
import type { StringConstraints, StringNode } from "../schema/SchemaNode.js";
import type { LowerState } from "./LowerState.js";
import { lowerStringContent } from "./string/lowerStringContent.js";
import { BoundedMap } from "../util/BoundedMap.js";

/**
 * Contents already lowered in a compile, by spec: real schemas repeat one string schema under many properties, and a
 * pattern with lengths can need an automaton of thousands of states (and as many rules) each time. Keyed by the rule
 * map the lowerings add their rules to.
 */
const contents = new WeakMap<Map<string, GExpr>, Map<string, GExpr>>();

/** The content (between the quotes) of a string satisfying `spec`. */
export function stringContent(spec: StringConstraints, path: string, st: LowerState): GExpr {
  const key = JSON.stringify([
    st.strict,
    spec.minLength,
    spec.maxLength ?? null,
    spec.patterns,
    spec.notPatterns,
    spec.formats,
    spec.notValues ?? [],
  ]);
  let cache = contents.get(st.rules);
  if (!cache) contents.set(st.rules, (cache = new Map()));
  const hit = cache.get(key);
  if (hit) return hit;
  const pureKey = `${limitsKey(st.limits)}|${key}`;
  const pure = pureContents.get(pureKey);
  if (pure) {
    stringContents.reused++;
    cache.set(key, pure);
    return pure;
  }
  const warned = st.warnings.length;
  const ruleCount = st.rules.size;
  const steps = st.deadline.stepsTaken;
  const e = uncachedContent(spec, path, st);
  stringContents.lowered++;
  // a relaxed spec warns at its own path: only exact lowerings are shared
  if (st.warnings.length !== warned) return e;
  cache.set(key, e);
  // no warning, no rule of its own and no step: what the spec and the limits give, in any compile
  if (st.rules.size === ruleCount && st.deadline.stepsTaken === steps && exprSizeAtMost(e, MAX_PURE_NODES)) {
    pureContents.set(pureKey, e);
  }
  return e;
}

/**
 * Contents that depend on the spec and the limits alone, shared by every compile of the process: every tool set
 * has plain strings, and a format (`date-time`, `uri`) is the same expression of hundreds of nodes wherever it is
 * used. Only contents lowered without a step are kept (formats, lengths, plain strings: no automaton), so a compile
 * spends the same steps whatever ran before it; the oldest are dropped first.
 */
const pureContents = new BoundedMap<string, GExpr>({ maxEntries: 1024, order: "insertion" });
/** Larger contents (long patterns) are not kept: the table stays within a few million nodes whatever it is sent. */
const MAX_PURE_NODES = 4096;

/** Contents lowered and reused from another compile (counted for tests), and a way to forget the shared ones. */
export const stringContents = {
  lowered: 0,
  reused: 0,
  clear(): void {
    pureContents.clear();
  },
};

const limitsKeys = new WeakMap<object, string>();
function limitsKey(limits: object): string {
  let k = limitsKeys.get(limits);
  if (k === undefined) limitsKeys.set(limits, (k = JSON.stringify(limits)));
  return k;
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
