import type { Deadline } from "../Deadline.js";
import type { TokenAvailable } from "../grammar/analysis/productive.js";
import { leastRuleFixpoint } from "../grammar/analysis/ruleFixpoint.js";
import { children } from "../grammar/analysis/foldExpr.js";
import { cyclicNodes } from "../grammar/analysis/ruleGraph.js";
import { countedProductive } from "../grammar/counted.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";

/** What building the NFA needs to know of the grammar's rules before it builds a state. */
export interface RuleAnalysis {
  /** Direct references of every rule, in first-occurrence order (as `referenceGraph`). */
  graph: Map<string, string[]>;
  /** The frame rules, the root first (see `frameRules`). */
  frames: string[];
  /** Estimated NFA states of each rule's body, a call of a frame counting one (see `largeSharedFrames`). */
  size: Map<string, number>;
  /** Frames for recursion or for sharing a rule between callers (not the root, not those bounding inline depth). */
  sharing: Set<string>;
  /** Rules that derive at least one finite text. */
  productive: Set<string>;
  /** Rules on a reference cycle. */
  recursive: ReadonlySet<string>;
  /** Rules whose body has a special-token node. */
  tokenRules: Set<string>;
  /** `estimateStates` of a rule's body, a frame counting one state and another rule its `size`. */
  bodySize(rule: string): number;
  /** Alternations of at least WIDE_ALT_ITEMS alternatives and the rule whose body holds them (found by the same walk). */
  wideAlts: { rule: string; alt: GExpr }[];
  /** The texts of every special-token node, each once, in the order the walk meets them. */
  tokenTexts: string[];
  /**
   * Unbounded repetitions followed by a non-empty literal in a sequence, with that literal, as pairs (loop, literal):
   * the candidates for a string-like shared frame (see `buildNfa`'s seq case), each loop object once per literal.
   */
  loopsBeforeLiterals: GExpr[];
}

/** An alternation of at least this many alternatives may be a choice among tools (see buildNfa's lazy tries). */
export const WIDE_ALT_ITEMS = 4;

/**
 * The rule analyses of `buildNfa` from one walk of every rule body: the reference graph, how often each rule is
 * referenced and in how many copies it would be inlined, which bodies loop. Each of these was a walk of the whole
 * grammar of its own (four walks, and the productive rules' fixpoint a fifth with the root first, evaluating a tool
 * set's root again each time one of its tools was found productive).
 */
export function analyzeRules(g: Grammar, tokenOk: TokenAvailable, deadline?: Deadline): RuleAnalysis {
  const graph = new Map<string, string[]>();
  const uses = new Map<string, number>();
  const copies = new Map<string, number>();
  const loops = new Set<string>();
  const tokenRules = new Set<string>();
  const forms = new Map<string, SizeForm>();
  const nodes: GExpr[] = [];
  const mults: number[] = [];
  const weights: number[] = [];
  const wideAlts: { rule: string; alt: GExpr }[] = [];
  const tokenTexts = new Set<string>();
  const loopsBeforeLiterals: GExpr[] = [];
  const seenLoops = new Map<GExpr, Set<string>>();
  for (const [name, body] of g.rules) {
    // a tree walk in pre-order, children in order (a node shared by two parents counts as two occurrences)
    const refs: string[] = [];
    const coef: number[] = [];
    const at = new Map<string, number>();
    let constant = 0;
    let loop = false;
    nodes.push(body);
    mults.push(1);
    weights.push(1);
    while (nodes.length > 0) {
      const x = nodes.pop() as GExpr;
      const mult = mults.pop() as number;
      const w = weights.pop() as number;
      deadline?.tick("analyzing the grammar");
      switch (x.type) {
        case "literal":
          constant += (utf8Length(x.text) + 1) * w;
          break;
        case "charClass":
          constant += (x.ranges.length * 2 + 1) * w;
          break;
        case "counted":
          // a call to a lazy frame (countedStep); its labels are walked for the rules they reference (segment frames,
          // built once each)
          constant += 2 * w;
          for (const label of children(x)) {
            nodes.push(label);
            mults.push(mult);
            weights.push(w);
          }
          break;
        case "token":
          constant += (x.text.length * 2 + 2) * w;
          tokenRules.add(name);
          tokenTexts.add(x.text);
          break;
        case "ref": {
          uses.set(x.rule, (uses.get(x.rule) ?? 0) + 1);
          copies.set(x.rule, (copies.get(x.rule) ?? 0) + mult);
          const k = at.get(x.rule);
          if (k === undefined) {
            at.set(x.rule, refs.length);
            refs.push(x.rule);
            coef.push(w);
          } else coef[k] += w;
          break;
        }
        case "seq":
        case "alt":
          if (x.type === "alt" && x.items.length >= WIDE_ALT_ITEMS) wideAlts.push({ rule: name, alt: x });
          constant += (x.type === "alt" ? 1 + 2 * x.items.length : 1) * w;
          if (x.type === "seq") {
            for (let i = 0; i + 1 < x.items.length; i++) {
              const it = x.items[i];
              const after = x.items[i + 1];
              if (it.type !== "repeat" || it.max !== null || after.type !== "literal" || after.text.length === 0)
                continue;
              let texts = seenLoops.get(it);
              if (texts === undefined) seenLoops.set(it, (texts = new Set()));
              if (texts.has(after.text)) continue;
              texts.add(after.text);
              loopsBeforeLiterals.push(it, after);
            }
          }
          for (let i = x.items.length - 1; i >= 0; i--) {
            nodes.push(x.items[i]);
            mults.push(mult);
            weights.push(w);
          }
          break;
        case "repeat":
          if (x.max === null) loop = true;
          constant += 2 * w;
          nodes.push(x.item);
          mults.push(Math.min(mult * (x.max ?? x.min + 1), 1 << 20));
          // capped: a node under a weight of CAP saturates the estimate anyway (every node counts at least one state),
          // and an infinite weight times a repetition of at most zero copies would be NaN
          weights.push(Math.min(w * (x.max ?? x.min + 1), CAP));
          break;
      }
    }
    graph.set(name, refs);
    forms.set(name, { constant, refs, coef });
    if (loop) loops.add(name);
  }
  const { frames, size, sharing, recursive } = frameRules(g, graph, uses, copies, loops, forms);
  const productive = leastRuleFixpoint(g, (body, set) => derivesText(body, set, tokenOk), deadline, graph);
  const frameSet = new Set(frames);
  const bodySize = (name: string): number =>
    evalForm(forms.get(name)!, (r) => (frameSet.has(r) ? 1 : (size.get(r) ?? 1)));
  return {
    graph,
    frames,
    size,
    sharing,
    productive,
    bodySize,
    tokenRules,
    recursive,
    wideAlts,
    tokenTexts: [...tokenTexts],
    loopsBeforeLiterals,
  };
}

/**
 * A rule body's `estimateStates` as a linear form of the sizes of the rules it references: every node adds its own
 * states times the product of the repetition bounds above it, a reference its rule's size times that product. The
 * estimate only adds and multiplies by bounds, so the form is exact (saturating at CAP) and is found by the same walk
 * as the references, where folding each body again cost as much as the walk.
 */
interface SizeForm {
  constant: number;
  refs: readonly string[];
  coef: readonly number[];
}

function evalForm(f: SizeForm, refStates: (rule: string) => number): number {
  let s = f.constant;
  for (let i = 0; i < f.refs.length; i++) s += f.coef[i] * refStates(f.refs[i]);
  return Math.min(s, CAP);
}

/**
 * `isProductive` without a memo: a tree fold on a stack of values (a memo per node cost a map entry per node, most
 * of the productive rules' time). Bounded by the walk of `analyzeRules`, which visits the same tree.
 */
function derivesText(e: GExpr, rules: ReadonlySet<string>, tokenOk: TokenAvailable): boolean {
  const nodes: GExpr[] = [e];
  const exits: boolean[] = [false];
  const vals: boolean[] = [];
  while (nodes.length > 0) {
    const x = nodes.pop() as GExpr;
    if (!(exits.pop() as boolean)) {
      switch (x.type) {
        case "literal":
        case "charClass":
          vals.push(true);
          continue;
        case "token":
          vals.push(tokenOk(x.text));
          continue;
        case "ref":
          vals.push(rules.has(x.rule));
          continue;
        case "counted":
          vals.push(countedProductive(x));
          continue;
        case "seq":
        case "alt":
          nodes.push(x);
          exits.push(true);
          for (let i = x.items.length - 1; i >= 0; i--) {
            nodes.push(x.items[i]);
            exits.push(false);
          }
          continue;
        case "repeat":
          nodes.push(x, x.item);
          exits.push(true, false);
          continue;
      }
    }
    if (x.type === "repeat") {
      const v = vals.pop() as boolean;
      vals.push(x.min === 0 || v);
      continue;
    }
    const n = (x as { items: GExpr[] }).items.length;
    let v = x.type === "seq";
    for (let k = vals.length - n; k < vals.length; k++) v = x.type === "seq" ? v && vals[k] : v || vals[k];
    vals.length -= n;
    vals.push(v);
  }
  return vals[0];
}

/**
 * The root, every rule on a reference cycle, and every rule referenced from several places whose body loops
 * (strings, numbers, arrays): a frame's inside is the same automaton state in every context, so its token masks are
 * computed once and reused wherever it is called (XGrammar's context-independent tokens).
 */
function frameRules(
  g: Grammar,
  graph: ReadonlyMap<string, readonly string[]>,
  uses: ReadonlyMap<string, number>,
  copies: ReadonlyMap<string, number>,
  loops: ReadonlySet<string>,
  forms: ReadonlyMap<string, SizeForm>,
): { frames: string[]; size: Map<string, number>; sharing: Set<string>; recursive: ReadonlySet<string> } {
  const recursive = cyclicNodes(graph);
  const frames = new Set(
    [...g.rules.keys()].filter((n) => n === g.root || recursive.has(n) || ((uses.get(n) ?? 0) >= 2 && loops.has(n))),
  );
  const size = largeSharedFrames(g, graph, copies, forms, frames);
  // frames for recursion or for sharing a rule between callers (a tool's arguments used by several tools), not the
  // ones that only bound the construction's depth (reached by a chain anyway): these may be built when first entered
  const sharing = new Set([...frames].filter((n) => n !== g.root));
  boundInlineDepth(g, graph, frames);
  return {
    frames: [g.root, ...[...g.rules.keys()].filter((n) => n !== g.root && frames.has(n))],
    size,
    sharing,
    recursive,
  };
}

/** A rule inlined in more copies than one whose inlined NFA would have more states than this gets its own frame. */
const INLINE_COPY_LIMIT = 64;
/** ...or whose copies together would (a string character under `maxLength: 500`). */
const INLINE_TOTAL_LIMIT = 4096;

/**
 * Add to `frames` every rule whose inlining would multiply the NFA: one built in several copies (referenced from
 * several places, or under a bounded repetition) whose inlined body is large. Decided callees first, so that a
 * rule's size counts a call to a frame as one state: the NFA stays linear in the grammar's size, where inlining a
 * chain of rules each referenced k times (per-digit residue rules of `multipleOf`) would build k^depth copies.
 */
function largeSharedFrames(
  g: Grammar,
  graph: ReadonlyMap<string, readonly string[]>,
  copies: ReadonlyMap<string, number>,
  forms: ReadonlyMap<string, SizeForm>,
  frames: Set<string>,
): Map<string, number> {
  const size = new Map<string, number>();
  // a rule's size needs its callees' (and whether they became frames): callees first, in a depth-first post-order
  // walked iteratively (a chain of rules can be deeper than the call stack)
  const refStates = (r: string): number => (frames.has(r) ? 1 : (size.get(r) ?? 1));
  const decide = (name: string): void => {
    const form = forms.get(name);
    let s = form ? evalForm(form, refStates) : 1;
    const k = copies.get(name) ?? 0;
    if (!frames.has(name) && k >= 2 && (s > INLINE_COPY_LIMIT || k * s > INLINE_TOTAL_LIMIT)) {
      frames.add(name);
      s = 1;
    }
    size.set(name, s);
  };
  const state = new Map<string, 1 | 2>(); // 1 on the walk's stack, 2 decided
  for (const start of g.rules.keys()) {
    if (state.has(start)) continue;
    const stack: { v: string; i: number }[] = [{ v: start, i: 0 }];
    state.set(start, 1);
    size.set(start, 1); // a reference back to a rule on the stack (recursive: a frame) counts one state
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const succ = graph.get(top.v) ?? [];
      if (top.i < succ.length) {
        const w = succ[top.i++];
        if (!state.has(w) && g.rules.has(w)) {
          state.set(w, 1);
          size.set(w, 1);
          stack.push({ v: w, i: 0 });
        }
        continue;
      }
      stack.pop();
      decide(top.v);
      state.set(top.v, 2);
    }
  }
  return size;
}

/** Above this many rules inlined one inside another, the inner rule gets its own frame (the build recursion's depth). */
const MAX_INLINE_DEPTH = 200;

/**
 * Makes frames of rules that would be inlined more than MAX_INLINE_DEPTH rules deep, so that building the NFA (which
 * inlines a non-frame rule by a nested call) cannot exhaust the stack on a chain of thousands of rules.
 */
function boundInlineDepth(g: Grammar, graph: ReadonlyMap<string, readonly string[]>, frames: Set<string>): void {
  // depth of inlining below a rule: 0 for a frame (a call edge), else 1 + the deepest non-frame callee
  const depth = new Map<string, number>();
  const onStack = new Set<string>();
  for (const start of g.rules.keys()) {
    if (depth.has(start)) continue;
    const stack: { v: string; i: number }[] = [{ v: start, i: 0 }];
    onStack.add(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const succ = graph.get(top.v) ?? [];
      if (top.i < succ.length) {
        const w = succ[top.i++];
        if (!depth.has(w) && !onStack.has(w) && g.rules.has(w)) {
          onStack.add(w);
          stack.push({ v: w, i: 0 });
        }
        continue;
      }
      stack.pop();
      onStack.delete(top.v);
      let d = 1;
      for (const w of succ) if (!frames.has(w)) d = Math.max(d, 1 + (depth.get(w) ?? 0));
      if (d > MAX_INLINE_DEPTH) {
        frames.add(top.v);
        d = 0;
      }
      depth.set(top.v, frames.has(top.v) ? 0 : d);
    }
  }
}

const CAP = 1 << 30;

/**
 * A rough count of the NFA states an expression builds inline, a reference to a rule counting `refStates(rule)`
 * (saturating). Iterative, memoized per node in `memo`; the children's values on a stack of numbers (no array per
 * node: this runs over every rule of a tool set before the NFA has a state).
 */
export function estimateStates(
  e: GExpr,
  refStates: (rule: string) => number,
  memo: Map<GExpr, number> | WeakMap<GExpr, number>,
): number {
  const known = memo.get(e);
  if (known !== undefined) return known;
  const nodes: GExpr[] = [e];
  const exits: boolean[] = [false];
  const vals: number[] = [];
  while (nodes.length > 0) {
    const x = nodes.pop() as GExpr;
    const exit = exits.pop() as boolean;
    let v: number;
    if (!exit) {
      const m = memo.get(x);
      if (m !== undefined) {
        vals.push(m);
        continue;
      }
      switch (x.type) {
        case "literal":
          v = utf8Length(x.text) + 1;
          break;
        case "charClass":
          v = x.ranges.length * 2 + 1;
          break;
        case "token":
          v = x.text.length * 2 + 2;
          break;
        case "ref":
          v = refStates(x.rule);
          break;
        case "counted":
          // a call to the lazy frame of the whole node (countedStep), built when a decoding enters it
          v = 2;
          break;
        case "seq":
        case "alt":
          nodes.push(x);
          exits.push(true);
          for (let i = x.items.length - 1; i >= 0; i--) {
            nodes.push(x.items[i]);
            exits.push(false);
          }
          continue;
        case "repeat":
          nodes.push(x, x.item);
          exits.push(true, false);
          continue;
      }
    } else if (x.type === "repeat") {
      v = Math.min((vals.pop() as number) * (x.max ?? x.min + 1) + 2, CAP);
    } else {
      const items = (x as { items: GExpr[] }).items;
      const per = x.type === "alt" ? 2 : 0;
      let sum = 1;
      for (let k = vals.length - items.length; k < vals.length; k++) sum += vals[k] + per;
      vals.length -= items.length;
      v = Math.min(sum, CAP);
    }
    memo.set(x, v);
    vals.push(v);
  }
  return vals[0];
}

export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // a surrogate pair is one 4-byte code point: 2 + 2 for its two halves
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? 2 : 3;
  }
  return n;
}
