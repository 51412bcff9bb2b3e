import type { Deadline } from "../Deadline.js";
import { LimitExceededError, ToolgramError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { setOwn } from "../schema/setOwn.js";
import { childPath } from "../util/jsonPointer.js";

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
export function cloneJson(
  v: unknown,
  path: string,
  maxDepth = MAX_JSON_DEPTH,
  deadline?: Deadline,
  seen?: CopySeen,
): JsonValue {
  const c = new Cloner(path, maxDepth, deadline);
  const out = c.value(v);
  if (seen !== undefined) seen.negativeZero ||= c.negativeZero;
  return out;
}

/** What a copy met, for its readers: whether a number was -0 (JSON.stringify writes it `0`). */
export interface CopySeen {
  negativeZero: boolean;
}

/** Pointers spelled by `cloneJson` (for errors only), for tests that count the work. */
export const clonePaths = { spelled: 0 };

/**
 * The copy's walk. The pointer of the value being copied is kept as a stack of keys and spelled only for an error:
 * spelling it for every value copied was most of the copy's garbage.
 */
class Cloner {
  private readonly seen = new Set<object>();
  private readonly keys: (string | number)[] = [];
  negativeZero = false;

  constructor(
    private readonly base: string,
    private readonly maxDepth: number,
    private readonly deadline: Deadline | undefined,
  ) {}

  private path(): string {
    clonePaths.spelled++;
    let p = this.base;
    for (const k of this.keys) p = childPath(p, k);
    return p;
  }

  value(v: unknown): JsonValue {
    // a copied value costs a few steps: its path, its entry in `seen`, its key
    if (this.deadline !== undefined) {
      try {
        this.deadline.tick("reading the declaration", "", 4);
      } catch (e) {
        if (e instanceof LimitExceededError && e.schemaPath === "")
          throw new LimitExceededError(e.code, e.message, this.path(), { cause: e });
        throw e;
      }
    }
    switch (typeof v) {
      case "string":
      case "boolean":
        return v;
      case "number":
        if (!Number.isFinite(v))
          throw new ToolgramError("INVALID_INPUT", `${v} is not a JSON number; use a finite number`, this.path());
        if (v === 0 && Object.is(v, -0)) this.negativeZero = true;
        return v;
      case "object": {
        if (v === null) return null;
        const seen = this.seen;
        if (seen.size >= this.maxDepth) {
          throw new LimitExceededError(
            "LIMIT_NESTING",
            `the declaration nests deeper than ${this.maxDepth} levels; flatten it or raise limits.maxNesting`,
            this.path(),
          );
        }
        if (seen.has(v))
          throw new ToolgramError(
            "INVALID_INPUT",
            "the declaration contains a cycle; tools must be plain JSON",
            this.path(),
          );
        seen.add(v);
        const keys = this.keys;
        let out: JsonValue;
        if (Array.isArray(v)) {
          const a: JsonValue[] = new Array(v.length);
          for (let i = 0; i < v.length; i++) {
            // a hole stays a hole (as Array.prototype.map leaves it; JSON.stringify writes null)
            if (!(i in v)) continue;
            keys.push(i);
            a[i] = this.value(v[i]);
            keys.pop();
          }
          out = a;
        } else {
          const o: { [k: string]: JsonValue } = {};
          const src = v as Record<string, unknown>;
          for (const k of Object.keys(src)) {
            const x = src[k];
            if (x === undefined) continue;
            keys.push(k);
            setOwn(o, k, this.value(x));
            keys.pop();
          }
          out = o;
        }
        seen.delete(v);
        return out;
      }
      default:
        throw new ToolgramError(
          "INVALID_INPUT",
          `a ${typeof v} is not a JSON value; tools must be plain JSON`,
          this.path(),
        );
    }
  }
}
