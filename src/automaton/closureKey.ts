import { exprKey } from "../grammar/analysis/exprKey.js";
import type { GExpr } from "../grammar/Grammar.js";
import type { NfaBuilder } from "./NfaBuilder.js";
import { BoundedMap } from "../util/BoundedMap.js";

/** Closure keys (Nfa.frameKeyOf) of more than this many expression nodes are not made. */
const MAX_CLOSURE_NODES = 2000;
/** Thrown inside a closure key's walk to stop it (see closureKey). */
const NO_KEY = new Error("no closure key");
/** Closure texts seen by this process, each with a short id (the key masks are cached under), least recently used dropped first. */
const closureIds = new BoundedMap<string, number>({ maxEntries: 4096, order: "use" });
let nextClosureId = 0;

/** A short key for a closure text: ids are never reused, so a dropped text's cached masks are only left unused. */
function internClosure(text: string): string {
  let id = closureIds.get(text);
  if (id === undefined) closureIds.set(text, (id = nextClosureId++));
  return `closure ${id}`;
}

/**
 * The closure key of `roots` (see Nfa.frameKeyOf): the roots, then every rule their references reach in order of
 * discovery, references renamed by that order. With `viaFrames` (a synthesized frame's loop), references to rule
 * frames are named by those frames' own closure keys instead, so the any-value rule's text is not written again for
 * each loop that calls it. Undefined when a reached rule has a special token (its NFA depends on the options and the
 * vocabulary) or the closure is large (few grammars share it whole).
 */
export function closureKey(b: NfaBuilder, roots: readonly GExpr[], viaFrames: boolean): string | undefined {
  const { frameIndex, nfa, g, productiveRule, large } = b;
  let nodes = 0;
  // called for every node serialized: stops at a special token or past the size bound (a plain walk, no memo: the
  // memoized analyses cost more on a grammar's fresh expressions than writing the text)
  const visit = (e: GExpr): undefined => {
    if (e.type === "token" || ++nodes > MAX_CLOSURE_NODES) throw NO_KEY;
    return undefined;
  };
  try {
    if (viaFrames) {
      const refName = (r: string): string => {
        const f = frameIndex.get(r);
        const k = f === undefined ? undefined : nfa.frameKeyOf(f);
        if (k === undefined) throw NO_KEY;
        return `{${k}}`;
      };
      try {
        return internClosure(["loop", ...roots.map((e) => exprKey(e, undefined, refName, visit))].join("\n"));
      } catch (e) {
        if (e !== NO_KEY) throw e;
        nodes = 0; // a reference that is not a keyed frame: the whole closure, below
      }
    }
    const order = new Map<string, number>();
    const queue: string[] = [];
    const refName = (r: string): string => {
      let k = order.get(r);
      if (k === undefined) {
        order.set(r, (k = order.size));
        queue.push(r);
      }
      return String(k);
    };
    // (a deferred grammar builds a keyed frame as a whole one does: its lazy tries are next to special tokens)
    const parts: string[] = [large ? "lazy" : "whole"];
    for (const e of roots) parts.push(exprKey(e, undefined, refName, visit));
    for (let k = 0; k < queue.length; k++) {
      // whether a rule is a frame (called) or inlined, and productive, decides what the NFA builds for it
      parts.push(
        `${frameIndex.has(queue[k]) ? "F" : "I"}${productiveRule.has(queue[k]) ? "" : "!"}${exprKey(g.rules.get(queue[k])!, undefined, refName, visit)}`,
      );
    }
    return internClosure(parts.join("\n"));
  } catch (e) {
    if (e === NO_KEY) return undefined;
    throw e;
  }
}
