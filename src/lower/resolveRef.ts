import type { SchemaNode } from "../schema/SchemaNode.js";
import type { LowerState } from "./LowerState.js";

/**
 * The schema a `$ref` chain ends at. A chain that names a missing definition, or loops (more hops than there are
 * definitions), stops at its last ref node, which lowering then reports at its own path.
 */
export function resolveRef(node: SchemaNode, st: LowerState): SchemaNode {
  let n = node;
  for (let hops = 0; n.kind === "ref"; hops++) {
    const target = st.defs.get(n.target);
    if (!target || hops > st.defs.size) break;
    n = target;
  }
  return n;
}
