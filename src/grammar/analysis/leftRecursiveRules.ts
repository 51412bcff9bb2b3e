import type { Deadline } from "../../Deadline.js";
import type { GExpr, Grammar } from "../Grammar.js";
import { isNullable, nullableRules } from "./nullable.js";
import { cyclicNodes } from "./ruleGraph.js";

/** Rules reachable at the left edge of `e` (after only nullable items), in first-occurrence order. Iterative. */
function leftRefs(e: GExpr, nullable: ReadonlySet<string>, memo: Map<GExpr, boolean>): string[] {
  const out = new Set<string>();
  const stack: GExpr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop() as GExpr;
    switch (x.type) {
      case "ref":
        out.add(x.rule);
        break;
      case "seq": {
        // the items up to the first one that cannot be empty
        let n = 0;
        while (n < x.items.length && isNullable(x.items[n], nullable, memo)) n++;
        for (let i = Math.min(n, x.items.length - 1); i >= 0; i--) stack.push(x.items[i]);
        break;
      }
      case "alt":
        for (let i = x.items.length - 1; i >= 0; i--) stack.push(x.items[i]);
        break;
      case "repeat":
        if (x.max === null || x.max > 0) stack.push(x.item);
        break;
      default:
        break;
    }
  }
  return [...out];
}

/**
 * Rules that can derive themselves at their left edge without consuming input (A ⇒+ A …), in grammar order: the
 * rules on a cycle of the left-edge graph. llama.cpp's grammar engine refuses such rules (or, when the emptiness is
 * hidden, recurses forever).
 */
export function leftRecursiveRules(g: Grammar, deadline?: Deadline): string[] {
  const nullable = nullableRules(g, deadline);
  const memo = new Map<GExpr, boolean>();
  const edges = new Map<string, string[]>();
  for (const [name, body] of g.rules) edges.set(name, leftRefs(body, nullable, memo));
  const cyclic = cyclicNodes(edges);
  return [...g.rules.keys()].filter((n) => cyclic.has(n));
}
