import type { Diagnostic } from "../../diagnostic.js";
import { LimitExceededError, UnsupportedSchemaError } from "../../errors.js";
import { countedProductive, countedReach, MAX_COUNTED_CELLS } from "../../grammar/counted.js";
import type { Counted, CountedState, GExpr } from "../../grammar/Grammar.js";
import { alt, cls, EPSILON, lit, NOTHING, rep, seq } from "../../grammar/build.js";
import { ALL_SCALARS, subtractRanges } from "../../grammar/ranges.js";
import type { Limits } from "../../options.js";
import { Deadline } from "../../Deadline.js";
import { AUTOMATA_STAGE, complement, intersect, lengthRange, minimize, trim, type Dfa } from "../../regex/Dfa.js";
import { rangesByTarget } from "../../regex/rangesByTarget.js";
import { dfaToExpr } from "../../regex/dfaToExpr.js";
import { dfaToRules } from "../../regex/dfaToRules.js";
import { languageDfa } from "../../regex/languageDfa.js";
import { countedHubs, lengthBoundedRules } from "../../regex/lengthBoundedRules.js";
import { resolveLookarounds } from "../../regex/resolveLookarounds.js";
import {
  expansionSize,
  hasAnchor,
  hasLook,
  rAlt,
  rChars,
  rLit,
  rRep,
  rSeq,
  R_EMPTY,
  R_NEVER,
  type RNode,
} from "../../regex/RegexNode.js";
import type { StringConstraints } from "../../schema/SchemaNode.js";
import { formatRegex } from "./stringFormats.js";
import { spellExpr } from "./jsonSpelling.js";
import { parsePattern } from "./parsePattern.js";
import { regexToExpr } from "./regexToExpr.js";

export interface StringLowerContext {
  strict: boolean;
  limits: Limits;
  warnings: Diagnostic[];
  /** The compile's budget; without one, the automata get their own budget of `limits`. */
  deadline?: Deadline;
  /** JSON Pointer of the string schema, for errors and warnings. */
  path: string;
  /**
   * Where to add named rules when an automaton is too large for one expression (right-linear rules, one per state).
   * Without it such specs throw LIMIT_GRAMMAR_SIZE.
   */
  rules?: Map<string, GExpr>;
  /** Rule-name prefix for those rules (a valid GBNF name). @defaultValue "string" */
  rulePrefix?: string;
}

/**
 * The grammar of a JSON string's content (between the quotes, escapes included) whose decoded value satisfies
 * `spec`. Exact: the accepted texts are the canonical spellings (docs/ARCHITECTURE.md) of exactly the valid values;
 * values with lone surrogates are never accepted. An unsatisfiable spec gives NOTHING. Common shapes (no
 * constraint, lengths only, one anchored pattern or format, excluded values only) are translated directly; anything
 * else goes through code-point automata (intersection, complement, minimization) and back to an expression.
 */
export function lowerStringContent(spec: StringConstraints, ctx: StringLowerContext): GExpr {
  return spellExpr(lowerString(spec, ctx, spellExpr));
}

const ANY: RNode = rChars(ALL_SCALARS);
/** The longest hostname (RFC 1123 §2.1; without the trailing dot, which the enforced language leaves out). */
const HOSTNAME_MAX_LENGTH = 253;
const ANY_STAR: RNode = rRep(ANY, 0, null);

/** A constraint as a whole-string language. `search`: an unanchored pattern (an automaton gives a crisper shape). */
interface Lang {
  node: RNode;
  anchorFree: boolean;
  search: boolean;
}

/** Every string: what a pattern dropped under `strict: false` leaves. */
const ANY_LANG: Lang = { node: ANY_STAR, anchorFree: true, search: false };

/** The same as lowerStringContent, over decoded code points (no JSON spelling). */
export function lowerStringValue(spec: StringConstraints, ctx: StringLowerContext): GExpr {
  return lowerString(spec, ctx, (e) => e);
}

/** `spell` maps classes inside named rules (which the caller's final spelling pass does not reach). */
function lowerString(spec: StringConstraints, ctx: StringLowerContext, spell: (e: GExpr) => GExpr): GExpr {
  const { limits, path } = ctx;
  const min = Math.max(0, Math.ceil(spec.minLength));
  let max = spec.maxLength === undefined ? undefined : Math.floor(spec.maxLength);
  // a hostname has at most 253 characters (RFC 1123 §2.1, ajv-formats' `(?=.{1,253}\.?$)`): a length bound the
  // product automaton enforces, as an explicit maxLength would be
  if (spec.formats.includes("hostname")) max = Math.min(max ?? HOSTNAME_MAX_LENGTH, HOSTNAME_MAX_LENGTH);
  if (max !== undefined && max < min) return NOTHING;
  if (min > limits.maxRepeatBound) throw repetitionError("minLength", min, limits, path);
  if (max !== undefined && max > limits.maxRepeatBound) {
    if (ctx.strict) throw repetitionError("maxLength", max, limits, path);
    relax(ctx, `maxLength ${max} exceeds limits.maxRepeatBound and is not enforced by the grammar`);
    max = undefined;
  }

  const pos: Lang[] = [];
  const neg: Lang[] = [];
  for (const p of spec.patterns) {
    const node = tryUnsupported(ctx, () => parsePattern(p, path), `pattern ${JSON.stringify(p)} is not enforced`);
    if (node)
      pos.push(
        tryUnsupported(ctx, () => searchLang(node, p, path), `pattern ${JSON.stringify(p)} is not enforced`) ??
          ANY_LANG,
      );
  }
  for (const f of spec.formats) {
    const node = tryUnsupported(ctx, () => formatRegex(f, path), `format "${f}" is not enforced`);
    if (node) pos.push({ node, anchorFree: !hasAnchor(node), search: false });
  }
  for (const p of spec.notPatterns) {
    const node = tryUnsupported(ctx, () => parsePattern(p, path), `not-pattern ${JSON.stringify(p)} is not enforced`);
    const lang =
      node && tryUnsupported(ctx, () => searchLang(node, p, path), `not-pattern ${JSON.stringify(p)} is not enforced`);
    if (lang) neg.push(lang);
  }
  // values with lone surrogates are never accepted anyway
  const notValues = [...new Set(spec.notValues ?? [])].filter(isWellFormed);
  const hasLength = min > 0 || max !== undefined;

  if (pos.length === 0 && neg.length === 0) {
    if (notValues.length === 0) return lengthOnly(min, max);
    return excludeValues(notValues, min, max);
  }
  if (pos.length === 1 && neg.length === 0 && notValues.length === 0 && pos[0].anchorFree) {
    const only = pos[0];
    checkExpansion(only.node, limits, path);
    if (!hasLength && !only.search) return regexToExpr(only.node, limits, path);
    const merged = hasLength ? mergeLength(only.node, min, max) : null;
    if (merged) return regexToExpr(merged, limits, path);
    if (hasLength && !only.search) {
      // lengths implied by the format/pattern itself (date, uuid, ipv4...) need no automaton product
      const range = lengthRange(toDfa(only.node, ctx, automatonDeadline(ctx)));
      if (range === null) return NOTHING;
      if (range.min >= min && (max === undefined || range.max <= max)) return regexToExpr(only.node, limits, path);
    }
    if (!hasLength) {
      // an unanchored pattern's automaton gives an unambiguous shape (`[^0-9]*[0-9].*` for `\d`); it is only an
      // improvement, so it gets a small budget and falls back to the direct `.*(…).*` translation
      const whole = automatonDeadline(ctx);
      const budget: StringLowerContext = {
        ...ctx,
        rules: undefined,
        limits: { ...limits, maxAutomatonStates: Math.min(limits.maxAutomatonStates, 2_000) },
        deadline: whole.within({ maxCompileSteps: IMPROVEMENT_STEPS }),
      };
      try {
        return viaAutomata(pos, neg, notValues, min, max, budget, spell);
      } catch (e) {
        if (!(e instanceof LimitExceededError)) throw e;
        whole.check("building string automata", ctx.path); // the compile's budget is spent: not a local limit
        return regexToExpr(only.node, limits, path);
      }
    }
  }
  return viaAutomata(pos, neg, notValues, min, max, ctx, spell);
}

function isWellFormed(s: string): boolean {
  return !/\p{Cs}/u.test(s);
}

function repetitionError(what: string, n: number, limits: Limits, path: string): LimitExceededError {
  return new LimitExceededError(
    "LIMIT_REPETITION",
    `${what} ${n} exceeds limits.maxRepeatBound (${limits.maxRepeatBound}); lower it or raise the limit (strict: false drops a too large maxLength)`,
    path,
  );
}

function relax(ctx: StringLowerContext, message: string): void {
  ctx.warnings.push({ code: "OVER_APPROXIMATED", message, schemaPath: ctx.path });
}

function tryUnsupported<T>(ctx: StringLowerContext, f: () => T, what: string): T | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof UnsupportedSchemaError && !ctx.strict) {
      relax(ctx, `${what}: ${e.message}`);
      return null;
    }
    throw e;
  }
}

function checkExpansion(node: RNode, limits: Limits, path: string): void {
  if (expansionSize(node, limits.maxRepetitionExpansion) > limits.maxRepetitionExpansion) {
    throw new LimitExceededError(
      "LIMIT_REPETITION",
      `nested repetitions expand to more than limits.maxRepetitionExpansion (${limits.maxRepetitionExpansion}) copies; lower the bounds`,
      path,
    );
  }
}

/**
 * A pattern under search semantics as a whole-string language. When anchors stand only at the ends of top-level
 * alternatives they become "no `.*` on that side"; elsewhere they stay for the automaton, which fires `^` only at
 * the start and `$` only at the end (so `a^b` is empty, as in ECMAScript).
 */
function searchLang(node: RNode, source: string, path: string): Lang {
  if (hasLook(node)) {
    return { node: resolveLookarounds(rSeq(ANY_STAR, node, ANY_STAR), source, path), anchorFree: false, search: true };
  }
  const alts = node.t === "alt" ? node.items : [node];
  // alternatives with the same anchoring share one `.*` prefix/suffix: `.*(a|b).*`, not `.*a.*|.*b.*`, whose
  // automaton remembers which alternatives matched (2^n states for n words)
  const groups = new Map<string, { start: boolean; end: boolean; bodies: RNode[] }>();
  let search = false;
  for (const a of alts) {
    const items = a.t === "seq" ? [...a.items] : [a];
    let anchoredStart = false;
    let anchoredEnd = false;
    while (items.length && items[0].t === "start") (anchoredStart = true), items.shift();
    while (items.length && items[items.length - 1].t === "end") (anchoredEnd = true), items.pop();
    if (items.some(hasAnchor)) return { node: rSeq(ANY_STAR, node, ANY_STAR), anchorFree: false, search: true };
    if (!anchoredStart || !anchoredEnd) search = true;
    const key = `${anchoredStart}${anchoredEnd}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { start: anchoredStart, end: anchoredEnd, bodies: [] }));
    g.bodies.push(rSeq(...items));
  }
  const out = [...groups.values()].map((g) =>
    rSeq(g.start ? R_EMPTY : ANY_STAR, rAlt(...g.bodies), g.end ? R_EMPTY : ANY_STAR),
  );
  return { node: rAlt(...out), anchorFree: true, search };
}

/** Number of code points every match of `n` has, or null when it varies (or the node has anchors). */
function fixedLength(n: RNode): number | null {
  switch (n.t) {
    case "chars":
      return 1;
    case "seq": {
      let total = 0;
      for (const it of n.items) {
        const l = fixedLength(it);
        if (l === null) return null;
        total += l;
      }
      return total;
    }
    case "rep": {
      const l = fixedLength(n.item);
      return l !== null && n.max === n.min ? l * n.min : null;
    }
    default:
      return null;
  }
}

/**
 * Folds length bounds into shapes like `C`, `C{a,b}`, `prefix C{a,b} suffix` (fixed-length parts around one
 * repeated class) or fixed-length sequences; null for any other shape.
 */
function mergeLength(node: RNode, min: number, max: number | undefined): RNode | null {
  const items = node.t === "seq" ? node.items : [node];
  let fixed = 0;
  let variable = -1;
  for (let i = 0; i < items.length; i++) {
    const l = fixedLength(items[i]);
    if (l !== null) fixed += l;
    else if (variable < 0 && items[i].t === "rep" && (items[i] as { item: RNode }).item.t === "chars") variable = i;
    else return null;
  }
  if (variable < 0) return fixed >= min && (max === undefined || fixed <= max) ? node : R_NEVER;
  const r = items[variable] as { t: "rep"; item: RNode; min: number; max: number | null };
  const lo = Math.max(r.min, min - fixed);
  const hi = max === undefined ? r.max : r.max === null ? max - fixed : Math.min(r.max, max - fixed);
  const out = [...items];
  out[variable] = rRep(r.item, lo, hi);
  return hi !== null && hi < lo ? R_NEVER : rSeq(...out);
}

function lengthOnly(min: number, max: number | undefined): GExpr {
  return rep(cls(ALL_SCALARS), min, max ?? null);
}

interface TrieNode {
  terminal: boolean;
  children: Map<number, TrieNode>;
}

/**
 * Every string of the length bounds except the given values, straight from their trie: at each node either stop
 * (unless a value ends there), leave the trie with a code point no value continues with (then anything of the
 * remaining length), or follow a value's next code point. Used for "additional" object keys.
 */
function excludeValues(values: string[], min: number, max: number | undefined): GExpr {
  const root: TrieNode = { terminal: false, children: new Map() };
  for (const v of values) {
    let n = root;
    for (const ch of v) {
      const cp = ch.codePointAt(0)!;
      let c = n.children.get(cp);
      if (!c) n.children.set(cp, (c = { terminal: false, children: new Map() }));
      n = c;
    }
    n.terminal = true;
  }
  const any = cls(ALL_SCALARS);
  const walk = (n: TrieNode, depth: number): GExpr => {
    const parts: GExpr[] = [];
    if (!n.terminal && depth >= min && (max === undefined || depth <= max)) parts.push(EPSILON);
    if (max === undefined || depth < max) {
      const used: number[] = [];
      for (const cp of [...n.children.keys()].sort((a, b) => a - b)) used.push(cp, cp);
      const rest = Math.max(0, min - depth - 1);
      parts.push(
        seq(cls(subtractRanges(ALL_SCALARS, used)), rep(any, rest, max === undefined ? null : max - depth - 1)),
      );
      for (const [cp, c] of [...n.children].sort((a, b) => a[0] - b[0])) {
        parts.push(seq(lit(String.fromCodePoint(cp)), walk(c, depth + 1)));
      }
    }
    return alt(...parts);
  };
  return walk(root, 0);
}

function lengthDfa(min: number, max: number | undefined, maxStates: number, path: string): Dfa {
  const n = (max ?? min) + 1;
  if (n > maxStates) {
    throw new LimitExceededError(
      "LIMIT_AUTOMATON_SIZE",
      `a length bound of ${n - 1} combined with patterns/formats needs more than limits.maxAutomatonStates (${maxStates}) states; lower the bound`,
      path,
    );
  }
  const accept: boolean[] = [];
  const trans: number[][] = [];
  for (let i = 0; i < n; i++) {
    accept.push(i >= min);
    const to = i + 1 < n ? i + 1 : max === undefined ? i : -1;
    const t: number[] = [];
    if (to >= 0) for (let k = 0; k < ALL_SCALARS.length; k += 2) t.push(ALL_SCALARS[k], ALL_SCALARS[k + 1], to);
    trans.push(t);
  }
  return { start: 0, accept, trans };
}

/**
 * Automata built in one compile, by the regex node they were built from: a format's language is one node
 * (`formatRegex` keeps it), built again for every property that names the format (`url`'s takes 128,000 steps, and a
 * schema may name it a dozen times). Kept per compile (its deadline), not per process, so that a compile's steps, and
 * with them its verdict under the step budget, never depend on what the process compiled before.
 */
const builtDfas = new WeakMap<Deadline, Map<RNode, Dfa>>();

function toDfa(node: RNode, ctx: StringLowerContext, deadline: Deadline): Dfa {
  let built = builtDfas.get(deadline);
  if (built === undefined) builtDfas.set(deadline, (built = new Map()));
  let dfa = built.get(node);
  if (dfa === undefined) built.set(node, (dfa = languageDfa(node, ctx.limits.maxAutomatonStates, ctx.path, deadline)));
  return dfa;
}

/** The budget automata spend: the compile's, or (a string lowered on its own) one of `limits`. */
function automatonDeadline(ctx: StringLowerContext): Deadline {
  return (ctx.deadline ??= Deadline.fromLimits(ctx.limits));
}

/**
 * Steps for an automaton that only improves the shape of an expression (an unanchored pattern's): past them the
 * direct translation is used.
 */
const IMPROVEMENT_STEPS = 200_000;

function viaAutomata(
  pos: Lang[],
  neg: Lang[],
  notValues: string[],
  min: number,
  max: number | undefined,
  ctx: StringLowerContext,
  spell: (e: GExpr) => GExpr,
): GExpr {
  const cap = ctx.limits.maxAutomatonStates;
  const deadline = automatonDeadline(ctx);
  const dfas: Dfa[] = [];
  for (const l of pos) dfas.push(toDfa(l.node, ctx, deadline));
  for (const l of neg) dfas.push(minimize(complement(toDfa(l.node, ctx, deadline)), deadline, ctx.path));
  if (notValues.length)
    dfas.push(minimize(complement(toDfa(rAlt(...notValues.map(rLit)), ctx, deadline)), deadline, ctx.path));
  dfas.sort((a, b) => a.accept.length - b.accept.length);
  let acc = dfas[0];
  for (let i = 1; i < dfas.length; i++) {
    if (acc.accept.length === 0) return NOTHING;
    acc = minimize(intersect(acc, dfas[i], cap, ctx.path, deadline), deadline, ctx.path);
  }
  acc = minimize(acc, deadline, ctx.path);
  const range = lengthRange(acc);
  if (range === null) return NOTHING;
  // the length bounds need a product only when the other constraints do not imply them (date, uuid, ipv4...)
  if (min > range.min || (max !== undefined && max < range.max)) {
    const lengths = (max ?? min) + 1;
    if (ctx.rules && acc.accept.length * lengths > MAX_DIRECT_PRODUCT) {
      // a large product: only the automaton's loop states carry the length counter (lengthBoundedRules); past its
      // own bound, the whole product below is tried (and refused the same way when it is too large too)
      const rules = ctx.rules;
      const before = new Set(rules.keys());
      try {
        return lengthBoundedRules(acc, min, max, rules, ctx.rulePrefix ?? "string", spell, cap, ctx.path, deadline);
      } catch (e) {
        if (!(e instanceof LimitExceededError) || e.code !== "LIMIT_AUTOMATON_SIZE") throw e;
        for (const name of [...rules.keys()]) if (!before.has(name)) rules.delete(name); // a refusal adds no rule
      }
    }
    // the product has a state per reachable (state, length) pair at least: past the cap it cannot be built, and
    // trying costs the cap's worth of steps (a URI under maxLength 2048 took 1.7 million), so count them first
    const tooLarge = max !== undefined && reachablePairs(acc, min, max, ctx) > cap;
    try {
      if (tooLarge) throw new LimitExceededError("LIMIT_AUTOMATON_SIZE", `more than ${cap} (state, length) pairs`);
      acc = minimize(intersect(acc, lengthDfa(min, max, cap, ctx.path), cap, ctx.path, deadline), deadline, ctx.path);
    } catch (e) {
      if (!(e instanceof LimitExceededError)) throw e;
      deadline.check("building string automata", ctx.path); // the compile's budget is spent: not a local limit
      // the product passes the automaton's size cap (and rules per loop state did above): a counter beside the
      // automaton, which the token matcher builds and text grammars cannot hold (see Counted)
      const counted = max === undefined ? null : countedNode(acc, min, max, spell, ctx);
      if (counted !== null) return counted;
      if (ctx.strict) {
        throw new LimitExceededError(
          e.code,
          `minLength ${min}/maxLength ${max ?? "-"} together with the patterns/format need a too large automaton (${e.message}); lower the length bounds, or compile with strict: false to enforce the patterns/format without them`,
          ctx.path,
        );
      }
      relax(ctx, `minLength/maxLength are not enforced together with the patterns/format: ${e.message}`);
    }
    if (acc.accept.length === 0) return NOTHING;
  }
  if (!ctx.rules) return dfaToExpr(acc, Math.min(ctx.limits.maxGrammarSize, MAX_STRING_EXPR_SIZE), ctx.path, deadline);
  try {
    return dfaToExpr(acc, MAX_INLINE_EXPR_SIZE, ctx.path, deadline);
  } catch (e) {
    if (!(e instanceof LimitExceededError)) throw e;
    deadline.check("building string automata", ctx.path); // the compile's budget is spent: not a local limit
    return dfaToRules(acc, ctx.rules, ctx.rulePrefix ?? "string", spell, deadline, ctx.path);
  }
}

/**
 * The strings of `acc`'s language with a length in [min, max] as a counted node (labels spelled by `spell`), or null
 * (adding no rule) when its table of live (state, length) pairs would pass MAX_COUNTED_CELLS, or its reachable pairs,
 * with those of the compile's other counted strings, maxAutomatonStates: the caller then refuses the length bound.
 */
function countedNode(
  acc: Dfa,
  min: number,
  max: number,
  spell: (e: GExpr) => GExpr,
  ctx: StringLowerContext,
): GExpr | null {
  const a = trim(acc);
  if (a.accept.length === 0) return NOTHING;
  const deadline = automatonDeadline(ctx);
  // over the automaton's loop states when segment rules can be added, else over every state, one character per edge
  const rules = ctx.rules;
  const before = new Set(rules?.keys());
  const dropRules = (): null => {
    for (const name of [...(rules?.keys() ?? [])]) if (!before.has(name)) rules?.delete(name); // a refusal adds no rule
    return null;
  };
  const hubs = rules && countedHubs(a, rules, ctx.rulePrefix ?? "string", spell, ctx.path, deadline);
  const { states, start } = hubs || { states: everyState(a, spell, ctx.path, deadline), start: a.start };
  if (states.length * (max + 1) > MAX_COUNTED_CELLS) return dropRules();
  const node: Counted = { type: "counted", states, start, min, max, path: ctx.path };
  // the table of live pairs is built here, inside the compile's budget, rather than by the first mask
  deadline.tick(AUTOMATA_STAGE, ctx.path, states.length * (max + 1));
  if (!countedProductive(node)) {
    dropRules();
    return NOTHING;
  }
  // the token automaton builds every reachable pair when a decoding enters the node: bounded here, at compile, so that
  // no decoding meets a limit there. All the counted strings of a compile together get what one automaton may have
  // (maxAutomatonStates), well inside what decoding may add (LAZY_CEILING_FACTOR times it): a 5,000-character bound
  // over a 100-word pattern is 975,000 pairs, 600 MB and a 3-second first mask, refused as before
  const { weight } = countedReach(node, labelStates);
  const spent = (countedWeights.get(deadline) ?? 0) + weight;
  if (spent > ctx.limits.maxAutomatonStates) return dropRules();
  countedWeights.set(deadline, spent);
  return node;
}

/** The live (state, length) pairs of `acc` under [min, max] reachable from its start (see countedReach). */
function reachablePairs(acc: Dfa, min: number, max: number, ctx: StringLowerContext): number {
  const a = trim(acc);
  if (a.accept.length === 0 || a.accept.length * (max + 1) > MAX_COUNTED_CELLS) return 0;
  const deadline = automatonDeadline(ctx);
  const node: Counted = {
    type: "counted",
    states: everyState(a, (e) => e, ctx.path, deadline),
    start: a.start,
    min,
    max,
    path: ctx.path,
  };
  deadline.tick(AUTOMATA_STAGE, ctx.path, a.accept.length * (max + 1));
  return countedReach(node, () => 0).pairs;
}

/** A counted automaton over every state of `a`, an edge per target state reading one character of its class. */
function everyState(a: Dfa, spell: (e: GExpr) => GExpr, path: string, deadline: Deadline): CountedState[] {
  const states: CountedState[] = [];
  for (let q = 0; q < a.accept.length; q++) {
    const edges: CountedState["edges"][number][] = [];
    for (const [to, ranges] of rangesByTarget(a.trans[q])) {
      deadline.tick(AUTOMATA_STAGE, path);
      // a transition list is sorted by code point, so each target's ranges are too
      edges.push({ label: spell(cls(ranges)), len: 1, to });
    }
    states.push({ accept: a.accept[q], edges });
  }
  return states;
}

/** The NFA states the counted strings of one compile (by its deadline) will build, summed. */
const countedWeights = new WeakMap<Deadline, number>();

/**
 * The NFA states one edge's label may add beyond its pair's own (an upper estimate): none for a class of one-byte
 * characters (a byte edge), a few per range for the UTF-8 chains of a wider class, a character's bytes but one.
 */
function labelStates(label: GExpr): number {
  if (label.type === "charClass") return label.ranges[label.ranges.length - 1] < 0x80 ? 0 : 4 * label.ranges.length;
  if (label.type === "literal" && [...label.text].length === 1) return new TextEncoder().encode(label.text).length - 1;
  // anything longer than a character is a frame of its own, built once and called from every pair (countedStep)
  return 0;
}

/**
 * Above this many (state × length) pairs, a length bound next to patterns/formats is built by lengthBoundedRules
 * (counter on the loop states only) instead of the whole product automaton.
 */
const MAX_DIRECT_PRODUCT = 20_000;

/** With a rule map available, larger automata become right-linear rules rather than one big expression. */
export const MAX_INLINE_EXPR_SIZE = 4_000;

/** Cap on one string's expression built from an automaton (state elimination can grow fast on dense automata). */
export const MAX_STRING_EXPR_SIZE = 100_000;
