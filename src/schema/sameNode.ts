import type { JsonValue } from "../json.js";
import { deepEqual } from "./deepEqual.js";

/** How many parts two nodes are compared by before the answer is "not known to be the same". */
const MAX_COMPARED = 5_000;

/**
 * Whether two IR parts (nodes, or records holding nodes such as a `contains`) are the same schema, source paths
 * aside. Sound, not complete: false when the comparison would be long. JSON values (`enum` values, excluded strings)
 * are compared as JSON, where a key named `path` counts.
 */
export function sameNode(a: unknown, b: unknown): boolean {
  let budget = MAX_COMPARED;
  const eq = (x: unknown, y: unknown): boolean => {
    if (x === y) return true;
    if (--budget < 0 || typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    // only a node (the one record with a string `kind`) has a source path to ignore
    const node = typeof xo.kind === "string";
    const keys = (o: Record<string, unknown>): string[] =>
      Object.keys(o).filter((k) => !(node && k === "path") && o[k] !== undefined);
    const xk = keys(xo);
    if (xk.length !== keys(yo).length) return false;
    return xk.every((k) => {
      if (!Object.hasOwn(yo, k)) return false;
      if (node && (k === "values" || k === "notValues")) return deepEqual(xo[k] as JsonValue, yo[k] as JsonValue);
      return eq(xo[k], yo[k]);
    });
  };
  return eq(a, b);
}
