import { LimitExceededError, ToolgramError } from "../errors.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";
import { utf8Sequences } from "./utf8Sequences.js";

/**
 * A byte-level NFA with call edges, in compressed-row form (edges of state q are [xStart[q], xStart[q+1])). Rules
 * that are recursive (and the root) are "frame rules": a reference to one is a call edge (the matcher pushes a
 * frame); every other reference is inlined. `token` nodes are atom edges.
 *
 * Only productive parts of the grammar are built (a sub-expression that derives no finite text is left out), so
 * every state lies on a path from its rule's start to its end: a mask never lets a token lead into a dead end.
 */
export interface Nfa {
  stateCount: number;
  byteStart: Int32Array;
  byteLo: Uint8Array;
  byteHi: Uint8Array;
  byteTo: Int32Array;
  epsStart: Int32Array;
  epsTo: Int32Array;
  /** Call edges: call frame rule callRule[k], continue at callTo[k] when it returns. */
  callStart: Int32Array;
  callRule: Int32Array;
  callTo: Int32Array;
  atomStart: Int32Array;
  atomIdx: Int32Array;
  atomTo: Int32Array;
  frameNames: string[];
  /** Start state per frame rule, or -1 for a rule that derives nothing. */
  frameStart: number[];
  frameEnd: number[];
  /** 1 for frame end states. */
  isEnd: Uint8Array;
  /** Texts of the grammar's `token` nodes, indexed by atom index. */
  atomTexts: string[];
  /**
   * Per frame: a key naming its structure when the frame is self-contained (a synthesized frame with no calls or
   * atoms), so that masks computed inside it can be shared by every grammar with the same frame; else undefined.
   */
  frameKey: (string | undefined)[];
  /** Per state: its frame, and its index in a canonical (breadth-first) numbering of that frame's states. */
  stateFrame: Int32Array;
  stateCanon: Int32Array;
}

export interface NfaOptions {
  specialTokens: "token-or-text" | "token-only";
  maxStates: number;
  /**
   * With "token-only": the `token` texts the vocabulary has as special tokens. A `token` node missing from it derives
   * nothing, so that no mask leads into a place only that token could leave. Undefined: all are available.
   */
  availableAtoms?: ReadonlySet<string>;
}

/** Growable edge list: parallel number arrays, turned into CSR at the end. */
class Edges {
  from: number[] = [];
  a: number[] = [];
  b: number[] = [];
  to: number[] = [];
  add(from: number, a: number, b: number, to: number): void {
    this.from.push(from);
    this.a.push(a);
    this.b.push(b);
    this.to.push(to);
  }
  csr(n: number): { start: Int32Array; order: Int32Array } {
    const start = new Int32Array(n + 1);
    for (const f of this.from) start[f + 1]++;
    for (let i = 0; i < n; i++) start[i + 1] += start[i];
    const fill = start.slice(0, n);
    const order = new Int32Array(this.from.length);
    for (let k = 0; k < this.from.length; k++) order[fill[this.from[k]]++] = k;
    return { start, order };
  }
}

export function buildNfa(g: Grammar, opts: NfaOptions): Nfa {
  const frames = frameRules(g);
  /** Synthesized frames: a wide loop and the literal that closes it (a string's content and closing quote). */
  const sharedFrames = new Map<string, number>();
  const frameBodies: GExpr[] = [];
  const pendingFrames: number[] = [];
  const sharedKeys: (string | undefined)[] = [];
  const tokenOk = (text: string): boolean => opts.specialTokens === "token-or-text" || opts.availableAtoms === undefined || opts.availableAtoms.has(text);
  const productiveRule = productiveRules(g, tokenOk);
  const frameIndex = new Map(frames.map((n, i) => [n, i]));
  const frameNames = [...frames];
  const frameStart: number[] = [];
  const frameEnd: number[] = [];
  const atomIndex = new Map<string, number>();
  const atomTexts: string[] = [];
  const bytes = new Edges();
  const eps = new Edges();
  const calls = new Edges();
  const atoms = new Edges();
  let n = 0;
  const newState = (): number => {
    if (n >= opts.maxStates) {
      throw new LimitExceededError("LIMIT_AUTOMATON_SIZE", `the grammar needs more than ${opts.maxStates} automaton states; lower repetition bounds or raise limits.maxAutomatonStates`);
    }
    return n++;
  };
  const productiveMemo = new Map<GExpr, boolean>();
  const productive = (e: GExpr): boolean => {
    let r = productiveMemo.get(e);
    if (r !== undefined) return r;
    switch (e.type) {
      case "literal": case "charClass": r = true; break;
      case "token": r = tokenOk(e.text); break;
      case "seq": r = e.items.every(productive); break;
      case "alt": r = e.items.some(productive); break;
      case "repeat": r = e.min === 0 || productive(e.item); break;
      case "ref": r = productiveRule.has(e.rule); break;
    }
    productiveMemo.set(e, r);
    return r;
  };
  // A chain's inner state only reads the rest of its chain into `to`, so chains with the same rest and target share
  // it: the UTF-8 tails of a character class ([80-BF][80-BF] → to ...) are built once per target, not once per
  // lead-byte range (a bounded repetition of a string character builds several times fewer states).
  const tails = new Map<string, number>();
  const bytesChain = (from: number, to: number, seq: readonly number[]): void => {
    let cur = from;
    for (let k = 0; k < seq.length; k += 2) {
      if (k + 2 === seq.length) {
        bytes.add(cur, seq[k], seq[k + 1], to);
        return;
      }
      const key = `${to}:${seq.slice(k + 2).join(",")}`;
      const known = tails.get(key);
      if (known !== undefined) {
        bytes.add(cur, seq[k], seq[k + 1], known);
        return;
      }
      const nxt = newState();
      tails.set(key, nxt);
      bytes.add(cur, seq[k], seq[k + 1], nxt);
      cur = nxt;
    }
  };
  const literalSeqs = new Map<string, number[]>();
  const classSeqs = new WeakMap<readonly number[], number[][]>();
  const literal = (from: number, to: number, text: string): void => {
    let seq = literalSeqs.get(text);
    if (!seq) {
      seq = [];
      for (const b of new TextEncoder().encode(text)) seq.push(b, b);
      literalSeqs.set(text, seq);
    }
    if (seq.length === 0) eps.add(from, 0, 0, to);
    else bytesChain(from, to, seq);
  };
  const inlining: string[] = [];
  const sharedFrame = (loop: GExpr, close: GExpr): number => {
    const key = structuralKey(loop) + "|" + structuralKey(close);
    let fi = sharedFrames.get(key);
    if (fi === undefined) {
      fi = frameNames.length;
      frameNames.push(`(shared ${frameNames.length})`);
      frameBodies[fi] = { type: "seq", items: [loop, close] };
      frameStart.push(newState());
      frameEnd.push(newState());
      pendingFrames.push(fi);
      sharedFrames.set(key, fi);
      // a reference names a rule of this grammar only: such a frame cannot be matched across grammars
      if (!key.includes("\u0000ref:")) sharedKeys[fi] = key;
    }
    return fi;
  };
  /** Synthesized frames for the item of a long bounded repetition (a string character under a large maxLength). */
  const itemFrames = new Map<string, number>();
  const itemBody = new Map<number, GExpr>();
  const itemFrame = (item: GExpr): number => {
    const key = "item|" + structuralKey(item);
    let fi = itemFrames.get(key);
    if (fi === undefined) {
      fi = frameNames.length;
      frameNames.push(`(repeated ${frameNames.length})`);
      itemBody.set(fi, item);
      frameStart.push(newState());
      frameEnd.push(newState());
      pendingFrames.push(fi);
      itemFrames.set(key, fi);
    }
    return fi;
  };
  // Thompson construction of a productive e between from and to.
  const build = (e: GExpr, from: number, to: number): void => {
    switch (e.type) {
      case "literal":
        literal(from, to, e.text);
        return;
      case "charClass": {
        let seqs = classSeqs.get(e.ranges);
        if (!seqs) {
          seqs = [];
          for (let i = 0; i < e.ranges.length; i += 2) utf8Sequences(e.ranges[i], e.ranges[i + 1], seqs);
          classSeqs.set(e.ranges, seqs);
        }
        for (const seq of seqs) bytesChain(from, to, seq);
        return;
      }
      case "seq": {
        if (e.items.length === 0) {
          eps.add(from, 0, 0, to);
          return;
        }
        let cur = from;
        for (let k = 0; k < e.items.length; k++) {
          const it = e.items[k];
          const after = e.items[k + 1];
          if (after !== undefined && after.type === "literal" && after.text.length > 0 && isWideLoop(it)) {
            // call a shared frame for "loop, closing character": its masks are computed once for every place it
            // occurs. Only the first character closes the frame; the rest of the literal (`", "next_key": ` after
            // the optimizer merged them) is the caller's, so that every string frame with the same content shares
            // one frame key, and so its masks across grammars
            const first = String.fromCodePoint(after.text.codePointAt(0)!);
            const rest = after.text.slice(first.length);
            const last = k + 1 === e.items.length - 1;
            const nxt = last && rest === "" ? to : newState();
            calls.add(cur, sharedFrame(it, first === after.text ? after : { type: "literal", text: first }), 0, nxt);
            cur = nxt;
            if (rest !== "") {
              const nxt2 = last ? to : newState();
              literal(cur, nxt2, rest);
              cur = nxt2;
            }
            k++;
            continue;
          }
          const nxt = k === e.items.length - 1 ? to : newState();
          build(it, cur, nxt);
          cur = nxt;
        }
        return;
      }
      case "alt":
        for (const it of e.items) {
          if (!productive(it)) continue;
          const a = newState();
          const b = newState();
          eps.add(from, 0, 0, a);
          eps.add(b, 0, 0, to);
          build(it, a, b);
        }
        return;
      case "repeat": {
        if (!productive(e.item)) {
          eps.add(from, 0, 0, to); // min is 0 here
          return;
        }
        // a long bounded repetition of a larger item calls one frame per copy instead of building every copy
        const copies = e.max ?? e.min + 1;
        const itemFi = copies > 16 && copies * exprSize(e.item) > REPEAT_COPY_LIMIT ? itemFrame(e.item) : -1;
        const buildItem = (a: number, b: number): void => {
          if (itemFi >= 0) calls.add(a, itemFi, 0, b);
          else build(e.item, a, b);
        };
        let cur = from;
        for (let k = 0; k < e.min; k++) {
          const nxt = newState();
          buildItem(cur, nxt);
          cur = nxt;
        }
        if (e.max === null) {
          // a fresh loop head, so that the loop cannot leak into `from` or `to`
          const head = newState();
          const body = newState();
          eps.add(cur, 0, 0, head);
          eps.add(head, 0, 0, to);
          eps.add(head, 0, 0, body);
          buildItem(body, head);
        } else {
          // optional copies nested as x(x(x)?)?: each copy may stop at `to`
          for (let k = e.min; k < e.max; k++) {
            eps.add(cur, 0, 0, to);
            const nxt = k + 1 === e.max ? to : newState();
            buildItem(cur, nxt);
            cur = nxt;
          }
          if (e.min === e.max) eps.add(cur, 0, 0, to);
        }
        return;
      }
      case "ref": {
        const fi = frameIndex.get(e.rule);
        if (fi !== undefined) {
          calls.add(from, fi, 0, to);
          return;
        }
        const body = g.rules.get(e.rule)!;
        if (inlining.includes(e.rule)) throw new ToolgramError("INVALID_INPUT", `rule "${e.rule}" is recursive but was not detected as such`);
        inlining.push(e.rule);
        build(body, from, to);
        inlining.pop();
        return;
      }
      case "token": {
        let a = atomIndex.get(e.text);
        if (a === undefined) {
          a = atomTexts.length;
          atomTexts.push(e.text);
          atomIndex.set(e.text, a);
        }
        atoms.add(from, a, 0, to);
        if (opts.specialTokens === "token-or-text") literal(from, to, e.text);
        return;
      }
    }
  };
  for (const [name, body] of g.rules) {
    const check = (e: GExpr): void => {
      if (e.type === "ref" && !g.rules.has(e.rule)) throw new ToolgramError("INVALID_INPUT", `rule "${name}" references an undefined rule "${e.rule}"`);
      if (e.type === "seq" || e.type === "alt") e.items.forEach(check);
      else if (e.type === "repeat") check(e.item);
    };
    check(body);
  }
  if (!g.rules.has(g.root)) throw new ToolgramError("INVALID_INPUT", `grammar has no root rule "${g.root}"`);
  for (const name of frames) {
    const ok = productiveRule.has(name);
    frameStart.push(ok ? newState() : -1);
    frameEnd.push(ok ? newState() : -1);
  }
  frames.forEach((name, i) => {
    if (frameStart[i] < 0) return;
    inlining.push(name);
    build(g.rules.get(name)!, frameStart[i], frameEnd[i]);
    inlining.pop();
  });
  while (pendingFrames.length) {
    const fi = pendingFrames.pop()!;
    const body = itemBody.get(fi);
    if (body !== undefined) {
      build(body, frameStart[fi], frameEnd[fi]);
      continue;
    }
    // built item by item: going through the seq case would call this very frame again
    const [loop, close] = (frameBodies[fi] as { items: GExpr[] }).items;
    const mid = newState();
    build(loop, frameStart[fi], mid);
    build(close, mid, frameEnd[fi]);
  }
  const isEnd = new Uint8Array(n);
  for (const e of frameEnd) if (e >= 0) isEnd[e] = 1;
  const b = bytes.csr(n);
  const ep = eps.csr(n);
  const c = calls.csr(n);
  const at = atoms.csr(n);
  const pick = (src: number[], order: Int32Array): Int32Array => Int32Array.from(order, (k) => src[k]);
  const nfa: Nfa = {
    stateCount: n,
    byteStart: b.start,
    byteLo: Uint8Array.from(b.order, (k) => bytes.a[k]),
    byteHi: Uint8Array.from(b.order, (k) => bytes.b[k]),
    byteTo: pick(bytes.to, b.order),
    epsStart: ep.start,
    epsTo: pick(eps.to, ep.order),
    callStart: c.start,
    callRule: pick(calls.a, c.order),
    callTo: pick(calls.to, c.order),
    atomStart: at.start,
    atomIdx: pick(atoms.a, at.order),
    atomTo: pick(atoms.to, at.order),
    frameNames,
    frameKey: frameNames.map((_, i) => sharedKeys[i]),
    stateFrame: new Int32Array(0),
    stateCanon: new Int32Array(0),
    frameStart,
    frameEnd,
    isEnd,
    atomTexts,
  };
  numberFrames(nfa);
  return nfa;
}

/**
 * Assign each state its frame and a breadth-first index from the frame's start (edges in construction order), which
 * is the same for two frames built from the same structure. A frame with calls or atoms loses its key.
 */
function numberFrames(nfa: Nfa): void {
  const n = nfa.stateCount;
  const frame = new Int32Array(n).fill(-1);
  const canon = new Int32Array(n).fill(-1);
  nfa.frameStart.forEach((start, f) => {
    if (start < 0) return;
    let k = 0;
    const queue = [start];
    frame[start] = f;
    canon[start] = k++;
    let pure = true;
    for (let h = 0; h < queue.length; h++) {
      const q = queue[h];
      const visit = (t: number): void => {
        if (frame[t] < 0) {
          frame[t] = f;
          canon[t] = k++;
          queue.push(t);
        }
      };
      for (let e = nfa.byteStart[q]; e < nfa.byteStart[q + 1]; e++) visit(nfa.byteTo[e]);
      for (let e = nfa.epsStart[q]; e < nfa.epsStart[q + 1]; e++) visit(nfa.epsTo[e]);
      for (let e = nfa.callStart[q]; e < nfa.callStart[q + 1]; e++) {
        pure = false;
        visit(nfa.callTo[e]);
      }
      for (let e = nfa.atomStart[q]; e < nfa.atomStart[q + 1]; e++) {
        pure = false;
        visit(nfa.atomTo[e]);
      }
    }
    if (!pure) nfa.frameKey[f] = undefined;
  });
  nfa.stateFrame = frame;
  nfa.stateCanon = canon;
}

const keys = new WeakMap<GExpr, string>();
/** A canonical text of an expression, so that equal sub-expressions built as different objects share a frame. */
function structuralKey(e: GExpr): string {
  let k = keys.get(e);
  if (k !== undefined) return k;
  switch (e.type) {
    case "literal": k = `l${JSON.stringify(e.text)}`; break;
    case "charClass": k = `c[${e.ranges.join(",")}]`; break;
    case "token": k = `t${JSON.stringify(e.text)}`; break;
    case "ref": k = `\u0000ref:${e.rule}`; break; // JSON.stringify never leaves a raw NUL in the other keys
    case "seq": k = `s(${e.items.map(structuralKey).join(" ")})`; break;
    case "alt": k = `a(${e.items.map(structuralKey).join("|")})`; break;
    case "repeat": k = `p(${structuralKey(e.item)}){${e.min},${e.max ?? ""}}`; break;
  }
  keys.set(e, k);
  return k;
}

/** Above this many NFA states for all copies of a repetition's item, its copies call one frame. */
const REPEAT_COPY_LIMIT = 8192;

const sizes = new WeakMap<GExpr, number>();
/** A rough count of the states an expression builds inline (a reference counts as one). */
function exprSize(e: GExpr): number {
  let n = sizes.get(e);
  if (n !== undefined) return n;
  switch (e.type) {
    case "literal": n = e.text.length + 1; break;
    case "charClass": n = e.ranges.length + 1; break;
    case "token": n = 2 * e.text.length + 2; break;
    case "ref": n = 1; break;
    case "seq": n = e.items.reduce((a, x) => a + exprSize(x), 1); break;
    case "alt": n = e.items.reduce((a, x) => a + exprSize(x) + 2, 1); break;
    case "repeat": n = Math.min(exprSize(e.item) * (e.max ?? e.min + 1) + 2, 1 << 30); break;
  }
  sizes.set(e, n);
  return n;
}

/** An unbounded loop over a class of more than 256 code points (string content and the like). */
function isWideLoop(e: GExpr): boolean {
  if (e.type !== "repeat" || e.max !== null) return false;
  const wide = (x: GExpr): boolean => {
    if (x.type === "charClass") {
      let n = 0;
      for (let i = 0; i < x.ranges.length; i += 2) n += x.ranges[i + 1] - x.ranges[i] + 1;
      return n > 256;
    }
    if (x.type === "alt" || x.type === "seq") return x.items.some(wide);
    if (x.type === "repeat") return wide(x.item);
    return false;
  };
  return wide(e.item);
}

function forEachRef(e: GExpr, f: (rule: string) => void): void {
  if (e.type === "ref") f(e.rule);
  else if (e.type === "seq" || e.type === "alt") for (const x of e.items) forEachRef(x, f);
  else if (e.type === "repeat") forEachRef(e.item, f);
}

/** Rules that derive at least one finite text (least fixpoint). */
function productiveRules(g: Grammar, tokenOk: (text: string) => boolean): Set<string> {
  const prod = new Set<string>();
  const p = (e: GExpr): boolean => {
    switch (e.type) {
      case "literal": case "charClass": return true;
      case "token": return tokenOk(e.text);
      case "seq": return e.items.every(p);
      case "alt": return e.items.some(p);
      case "repeat": return e.min === 0 || p(e.item);
      case "ref": return prod.has(e.rule);
    }
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, body] of g.rules) {
      if (!prod.has(name) && p(body)) {
        prod.add(name);
        changed = true;
      }
    }
  }
  return prod;
}

function hasLoop(e: GExpr): boolean {
  if (e.type === "repeat") return e.max === null || hasLoop(e.item);
  if (e.type === "seq" || e.type === "alt") return e.items.some(hasLoop);
  return false;
}

/**
 * The root, every rule on a reference cycle, and every rule referenced from several places whose body loops
 * (strings, numbers, arrays): a frame's inside is the same automaton state in every context, so its token masks are
 * computed once and reused wherever it is called (XGrammar's context-independent tokens).
 */
function frameRules(g: Grammar): string[] {
  const refs = new Map<string, Set<string>>();
  const uses = new Map<string, number>();
  for (const [name, body] of g.rules) {
    const acc = new Set<string>();
    forEachRef(body, (r) => {
      acc.add(r);
      uses.set(r, (uses.get(r) ?? 0) + 1);
    });
    refs.set(name, acc);
  }
  const shared = (n: string): boolean => (uses.get(n) ?? 0) >= 2 && hasLoop(g.rules.get(n)!);
  // Tarjan's strongly connected components
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const recursive = new Set<string>();
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of refs.get(v) ?? []) {
      if (!refs.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || refs.get(v)!.has(v)) comp.forEach((c) => recursive.add(c));
    }
  };
  for (const name of g.rules.keys()) if (!index.has(name)) visit(name);
  const frames = new Set([...g.rules.keys()].filter((n) => n === g.root || recursive.has(n) || shared(n)));
  largeSharedFrames(g, frames);
  return [g.root, ...[...g.rules.keys()].filter((n) => n !== g.root && frames.has(n))];
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
function largeSharedFrames(g: Grammar, frames: Set<string>): void {
  const copies = new Map<string, number>();
  const count = (e: GExpr, mult: number): void => {
    if (e.type === "ref") copies.set(e.rule, (copies.get(e.rule) ?? 0) + mult);
    else if (e.type === "seq" || e.type === "alt") for (const x of e.items) count(x, mult);
    else if (e.type === "repeat") count(e.item, Math.min(mult * (e.max ?? e.min + 1), 1 << 20));
  };
  for (const body of g.rules.values()) count(body, 1);
  const size = new Map<string, number>();
  const cap = (x: number): number => Math.min(x, 1 << 30);
  const est = (e: GExpr): number => {
    switch (e.type) {
      case "literal": return new TextEncoder().encode(e.text).length + 1;
      case "charClass": return e.ranges.length * 2 + 1;
      case "token": return e.text.length * 2 + 2;
      case "seq": return cap(e.items.reduce((a, x) => a + est(x), 1));
      case "alt": return cap(e.items.reduce((a, x) => a + est(x) + 2, 1));
      case "repeat": return cap(est(e.item) * (e.max ?? e.min + 1) + 2);
      case "ref": return frames.has(e.rule) ? 1 : ruleSize(e.rule);
    }
  };
  const ruleSize = (name: string): number => {
    const known = size.get(name);
    if (known !== undefined) return known;
    size.set(name, 1); // non-frame rules are not recursive; this only guards against a malformed grammar
    const body = g.rules.get(name);
    let s = body ? est(body) : 1;
    const k = copies.get(name) ?? 0;
    if (!frames.has(name) && k >= 2 && (s > INLINE_COPY_LIMIT || k * s > INLINE_TOTAL_LIMIT)) {
      frames.add(name);
      s = 1;
    }
    size.set(name, s);
    return s;
  };
  for (const name of g.rules.keys()) ruleSize(name);
}
