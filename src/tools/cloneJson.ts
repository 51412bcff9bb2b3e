import type { Deadline } from "../Deadline.js";
import { LimitExceededError, ToolgramError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { setOwn } from "../schema/setOwn.js";
import { pointerChild } from "./jsonPointer.js";

/** JSON nesting allowed for a schema nesting limit: a schema level is up to ~3 JSON levels (`allOf/0/properties/x`). */
export function jsonDepthLimit(maxNesting: number): number {
  return 4 * maxNesting + 16;
}

const MAX_JSON_DEPTH = jsonDepthLimit(500);

/**
 * A deep copy of `v` as plain JSON, so normalization never mutates the caller's objects. Object properties that are
 * `undefined` are dropped (as JSON.stringify does); other non-JSON values (functions, NaN, bigint, cycles) are
 * errors, since the declaration could not have been sent to a model as JSON either. Nesting deeper than `maxDepth`
 * is LIMIT_NESTING (before the call stack runs out). `deadline` counts one step per value copied: a JavaScript object
 * that shares one sub-object in many places is copied as the tree its JSON text is, which can be exponentially
 * larger (40 levels of `{anyOf: [s, {items: s}]}`), and is refused by the compile's budget.
 */
export function cloneJson(v: unknown, path: string, maxDepth = MAX_JSON_DEPTH, deadline?: Deadline): JsonValue {
  return cloneValue(v, path, maxDepth, new Set(), deadline);
}

function cloneValue(v: unknown, path: string, maxDepth: number, seen: Set<object>, deadline: Deadline | undefined): JsonValue {
  // a copied value costs a few steps: its path, its entry in `seen`, its key
  deadline?.tick("reading the declaration", path, 4);
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      if (!Number.isFinite(v)) throw new ToolgramError("INVALID_INPUT", `${v} is not a JSON number; use a finite number`, path);
      return v;
    case "object": {
      if (v === null) return null;
      if (seen.size >= maxDepth) {
        throw new LimitExceededError("LIMIT_NESTING", `the declaration nests deeper than ${maxDepth} levels; flatten it or raise limits.maxNesting`, path);
      }
      if (seen.has(v)) throw new ToolgramError("INVALID_INPUT", "the declaration contains a cycle; tools must be plain JSON", path);
      seen.add(v);
      let out: JsonValue;
      if (Array.isArray(v)) {
        out = v.map((x, i) => cloneValue(x, pointerChild(path, i), maxDepth, seen, deadline));
      } else {
        const o: { [k: string]: JsonValue } = {};
        for (const [k, x] of Object.entries(v)) if (x !== undefined) setOwn(o, k, cloneValue(x, pointerChild(path, k), maxDepth, seen, deadline));
        out = o;
      }
      seen.delete(v);
      return out;
    }
    default:
      throw new ToolgramError("INVALID_INPUT", `a ${typeof v} is not a JSON value; tools must be plain JSON`, path);
  }
}
