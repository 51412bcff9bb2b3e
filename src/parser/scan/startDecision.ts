import { listLayout } from "../../formats/listLayout.js";
import type { FormatDescription } from "../../formats/FormatDescription.js";

/** How much of the reply's start may be looked at to decide whether it is a call (bounded, for streaming). */
export const START_LOOKAHEAD = 256;

export type StartDecision =
  | { kind: "maybe" }
  | { kind: "no" }
  /** `at`: offset of the block's first character (after leading whitespace); `bodyAt`: after any start prefix. */
  | { kind: "yes"; at: number; bodyAt: number };

const PY_START = /^\[\s*[A-Za-z_][A-Za-z0-9_.-]*\s*\(/;
const PY_PARTIAL = /^\[\s*(?:[A-Za-z_][A-Za-z0-9_.-]*\s*)?$/;

/**
 * For formats whose call is the whole reply (no opening marker): does `head` (the first characters seen) start a
 * call? "maybe" until enough is seen; at `final` (no more input) "maybe" becomes "no".
 */
export function decideStart(d: FormatDescription, head: string, final: boolean): StartDecision {
  const at = head.length - head.trimStart().length;
  let rest = head.slice(at);
  let bodyAt = at;
  let decision: StartDecision = { kind: "no" };
  if (rest === "") decision = { kind: "maybe" };
  else {
    for (const p of d.startPrefixes) {
      if (rest.startsWith(p)) {
        const after = rest.slice(p.length);
        bodyAt = at + p.length + (after.length - after.trimStart().length);
        rest = after.trimStart();
        break;
      }
      if (p.startsWith(rest)) return final ? { kind: "no" } : { kind: "maybe" };
    }
    if (rest === "") decision = { kind: "maybe" };
    else if (d.grouping === "list" && d.unit.kind === "python-call") {
      // `[` alone is too common in text: a pythonic reply starts `[name(`
      if (PY_START.test(rest)) decision = { kind: "yes", at, bodyAt };
      else if (PY_PARTIAL.test(rest)) decision = { kind: "maybe" };
    } else if (rest[0] === (d.grouping === "list" ? listLayout(d).open || "{" : "{")[0])
      // a list without brackets (Phi-4-mini's vLLM example) starts with its first object's brace
      decision = { kind: "yes", at, bodyAt };
  }
  if (decision.kind === "maybe" && (final || head.length >= START_LOOKAHEAD)) return { kind: "no" };
  return decision;
}
