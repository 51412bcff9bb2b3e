import { UnsupportedSchemaError } from "../errors.js";
import { ALL_SCALARS } from "../grammar/ranges.js";
import { R_EMPTY, type RLook, type RNode, rAlt, rChars, rRep, rSeq } from "./RegexNode.js";

const ANY_STAR: RNode = rRep(rChars(ALL_SCALARS), 0, null);

/**
 * Optional copies of a bounded repetition around a lookaround are unrolled, each one duplicating the rest of the
 * pattern: past this many the pattern is refused rather than built.
 */
export const MAX_LOOKAROUND_COPIES = 8;

/**
 * Rewrites the lookarounds of a whole-string language (a pattern with its search context, `.*p.*`) into
 * intersections and complements of regular languages, which the automata build exactly:
 * - a lookahead at a position constrains the rest of the string: `x (?=B) y` is `x ((y) ∩ (B.*))`, where `y` runs to
 *   the end of the string (it holds the pattern's rest and its search context), `(?!B)` intersects with the
 *   complement of `B.*`;
 * - a lookbehind constrains the string so far: `x (?<=B) y` is `((x) ∩ (.*B)) y`.
 * ECMAScript lookarounds are atomic and lookbehinds match backwards, but without backreferences neither changes
 * which strings match. Refused (UNSUPPORTED_PATTERN, naming the assertion): lookaheads and lookbehinds in one
 * pattern, a lookaround inside an unbounded repetition (its language is a fixed point, not built here), `^` after a
 * lookahead or inside one, `$` before a lookbehind or inside one (both would need the other end of the string).
 */
export function resolveLookarounds(whole: RNode, source: string, path: string): RNode {
  const ahead = hasLookKind(whole, false);
  const behind = hasLookKind(whole, true);
  if (ahead && behind) {
    throw refusal(source, firstLook(whole)!, "lookaheads and lookbehinds in one pattern", path);
  }
  return ahead ? resolveAhead(whole, R_EMPTY, source, path) : resolveBehind(whole, null, source, path);
}

function hasLookKind(n: RNode, behind: boolean): boolean {
  switch (n.t) {
    case "look":
      return n.behind === behind || hasLookKind(n.item, behind);
    case "rep":
    case "not":
      return hasLookKind(n.item, behind);
    case "seq":
    case "alt":
    case "and":
      return n.items.some((it) => hasLookKind(it, behind));
    default:
      return false;
  }
}

function firstLook(n: RNode): RLook | null {
  switch (n.t) {
    case "look":
      return n;
    case "rep":
    case "not":
      return firstLook(n.item);
    case "seq":
    case "alt":
    case "and":
      for (const it of n.items) {
        const f = firstLook(it);
        if (f) return f;
      }
      return null;
    default:
      return null;
  }
}

function has(n: RNode, t: "start" | "end"): boolean {
  switch (n.t) {
    case "start":
    case "end":
      return n.t === t;
    case "chars":
      return false;
    case "rep":
    case "not":
    case "look":
      return has(n.item, t);
    default:
      return n.items.some((it) => has(it, t));
  }
}

function refusal(source: string, at: RLook, what: string, path: string): UnsupportedSchemaError {
  return new UnsupportedSchemaError(
    "UNSUPPORTED_PATTERN",
    `pattern ${JSON.stringify(source)} uses ${what} (${JSON.stringify(at.raw)} at offset ${at.offset}); ` +
      `rewrite it without that, or compile with strict: false to drop it`,
    path,
  );
}

/** `n` followed by `k`, the rest of the string to its end, with the lookaheads of `n` resolved. */
function resolveAhead(n: RNode, k: RNode, source: string, path: string): RNode {
  if (!hasLookKind(n, false)) return rSeq(n, k);
  switch (n.t) {
    case "seq": {
      let acc = k;
      for (let i = n.items.length - 1; i >= 0; i--) acc = resolveAhead(n.items[i], acc, source, path);
      return acc;
    }
    case "alt":
      return rAlt(...n.items.map((it) => resolveAhead(it, k, source, path)));
    case "rep":
      return unroll(n, k, (item, rest) => resolveAhead(item, rest, source, path), source, path);
    case "look": {
      if (has(k, "start") || has(n.item, "start")) throw refusal(source, n, "`^` after or inside a lookahead", path);
      const body = resolveAhead(n.item, ANY_STAR, source, path);
      return { t: "and", items: [k, n.negate ? { t: "not", item: body } : body] };
    }
    default:
      return rSeq(n, k);
  }
}

/** `p` (the string from its start, or nothing when null) followed by `n`, with the lookbehinds of `n` resolved. */
function resolveBehind(n: RNode, p: RNode | null, source: string, path: string): RNode {
  const before = (x: RNode) => (p === null ? x : rSeq(p, x));
  if (!hasLookKind(n, true)) return before(n);
  switch (n.t) {
    case "seq": {
      let acc = p;
      for (const it of n.items) acc = resolveBehind(it, acc, source, path);
      return acc ?? R_EMPTY;
    }
    case "alt":
      return rAlt(...n.items.map((it) => resolveBehind(it, p, source, path)));
    case "rep":
      return unroll(n, p, (item, acc) => resolveBehind(item, acc, source, path), source, path, true);
    case "look": {
      const prefix = p ?? R_EMPTY;
      if (has(prefix, "end") || has(n.item, "end")) throw refusal(source, n, "`$` before or inside a lookbehind", path);
      const body = resolveBehind(n.item, ANY_STAR, source, path);
      return { t: "and", items: [prefix, n.negate ? { t: "not", item: body } : body] };
    }
    default:
      return before(n);
  }
}

/**
 * A bounded repetition holding a lookaround, unrolled: `min` copies, then up to `max - min` optional ones, each
 * resolved against its context (`step(item, context)`). Lookaheads resolve from the right (the context is what
 * follows), lookbehinds from the left (`fromLeft`: the context is what precedes, null for nothing yet).
 */
function unroll<C extends RNode | null>(
  n: Extract<RNode, { t: "rep" }>,
  context: C,
  step: (item: RNode, context: C) => RNode,
  source: string,
  path: string,
  fromLeft = false,
): RNode {
  const look = firstLook(n.item)!;
  if (n.max === null) throw refusal(source, look, "a lookaround inside an unbounded repetition", path);
  if (n.max > MAX_LOOKAROUND_COPIES) {
    throw refusal(source, look, `a lookaround inside a repetition of more than ${MAX_LOOKAROUND_COPIES} copies`, path);
  }
  if (fromLeft) {
    // p x{min,max}: p x^min, then each optional copy either stops or adds one more
    let cur = context;
    for (let i = 0; i < n.min; i++) cur = step(n.item, cur) as C;
    const outs: RNode[] = [cur ?? R_EMPTY];
    for (let i = n.min; i < n.max; i++) {
      cur = step(n.item, cur) as C;
      outs.push(cur ?? R_EMPTY);
    }
    return rAlt(...outs);
  }
  // x{min,max} before k: the optional copies nest from the right, x^min in front of them
  let tail: RNode = context as RNode;
  for (let i = n.min; i < n.max; i++) tail = rAlt(context as RNode, step(n.item, tail as C));
  for (let i = 0; i < n.min; i++) tail = step(n.item, tail as C);
  return tail;
}
