import type { GExpr, Grammar } from "../Grammar.js";
import type { Deadline } from "../../Deadline.js";
import { recursiveRules } from "./recursiveRules.js";
import { removeDeadRules } from "./removeDeadRules.js";
import { collectRefs, exprSize, mapRefs, simplify } from "./walk.js";

/** Bodies of at most this many IR nodes are inlined wherever they are used. */
export const INLINE_MAX_NODES = 3;

/**
 * Inlines every non-root, non-recursive rule that is referenced once, or whose body is trivially small, then drops
 * the rules left unreferenced. Bodies are rebuilt with the smart constructors (flattened, literals merged). Returns
 * `g` itself when that changes nothing.
 */
export function inlineRules(g: Grammar, deadline?: Deadline): Grammar {
  const counts = new Map<string, number>();
  for (const body of g.rules.values()) collectRefs(body, counts);
  const rec = new Set(recursiveRules(g));
  deadline?.check("inlining grammar rules");
  const inlinable = new Set<string>();
  for (const [name, body] of g.rules) {
    if (name === g.root || rec.has(name)) continue;
    if (counts.get(name) === 1 || exprSize(body) <= INLINE_MAX_NODES) inlinable.add(name);
  }
  // full expansion of inlinable rules; terminates because none of them is on a cycle
  const expanded = new Map<string, GExpr>();
  const expand = (e: GExpr): GExpr =>
    mapRefs(e, (r) => {
      if (!inlinable.has(r.rule)) return r;
      let x = expanded.get(r.rule);
      if (!x) {
        deadline?.tick("inlining grammar rules");
        x = expand(g.rules.get(r.rule) as GExpr);
        expanded.set(r.rule, x);
      }
      return x;
    });
  const rules = new Map<string, GExpr>();
  let changed = inlinable.size > 0;
  for (const [name, body] of g.rules) {
    if (inlinable.has(name)) continue;
    deadline?.tick("inlining grammar rules");
    const b = simplify(inlinable.size ? expand(body) : body, deadline);
    if (b !== body) changed = true;
    rules.set(name, b);
  }
  // nothing inlined and every body already simple: the grammar itself (optimize's fixed point, told by identity)
  return removeDeadRules(changed ? { root: g.root, rules } : g);
}
