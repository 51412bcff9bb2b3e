import { LimitExceededError, ToolgramError } from "../errors.js";
import { countedLive } from "./counted.js";
import type { Counted, GExpr, Grammar } from "./Grammar.js";
import { removeNullableLoops } from "./passes/removeNullableLoops.js";

/**
 * The reference acceptor: an Earley recognizer over code points, run on a recursive transition network (one small
 * NFA per rule, whose edges read a code point, call another network, or move for free).
 *
 * Why this shape: Earley handles any context-free grammar (ambiguity, left recursion, nullable rules) without
 * transformations, so it is obviously right; running it on NFAs rather than on BNF productions keeps repetition as
 * loops and chains inside one network, which avoids Earley's quadratic cascade on right-recursive repeat rules.
 * Bounded repeats are expanded linearly (one chain state per count); an item worth more than a few states becomes a
 * called sub-network so nested bounds add up instead of multiplying. It is independent from the token automaton,
 * so the two check each other.
 */
export interface Acceptor {
  /** The whole text is a member of the grammar's language. */
  accepts(text: string): boolean;
  /** The text can be extended (possibly by nothing) to a member. */
  isPrefix(text: string): boolean;
  /**
   * Earley items the last call created: the recognizer's work, counted so that tests can bound it (linear in the
   * text for the grammars toolgram emits) without reading a clock.
   */
  readonly lastItems: number;
}

/** Cap on the compiled network's size; grammars from the default limits stay far below it. */
export const MAX_ACCEPTOR_STATES = 5_000_000;

const EPS = 0;
const TERM = 1;
const CALL = 2;

interface Edge {
  kind: 0 | 1 | 2;
  target: number;
  /** TERM: the code-point ranges read; otherwise unused. */
  ranges: readonly number[];
  /** CALL: the network called. */
  net: number;
}

interface Network {
  start: number;
  final: number;
}

/**
 * The compiled networks, packed into typed arrays (edges of state `s` at `edgeStart[s]..edgeStart[s + 1]`, a TERM
 * edge's code-point pairs at `rangeStart[e]..rangeEnd[e]` of `ranges`): a few buffers rather than an object per edge,
 * so that copying them to another thread costs a copy of the bytes, not a walk over tens of thousands of objects.
 */
interface Compiled {
  edgeStart: Int32Array;
  edgeKind: Uint8Array;
  edgeTarget: Int32Array;
  /** CALL: the network called; otherwise -1. */
  edgeNet: Int32Array;
  rangeStart: Int32Array;
  rangeEnd: Int32Array;
  ranges: Int32Array;
  /** network id whose final state this is, or -1. */
  finalOf: Int32Array;
  netStart: Int32Array;
  netFinal: Int32Array;
  rootNet: number;
  nullable: Uint8Array; // per network
  live: Uint8Array; // per state: the network's final state is reachable (only through productive calls)
}

const NO_RANGES: readonly number[] = [];

/** An item worth at most this many states is copied into each repetition; larger ones become sub-networks. */
const INLINE_ITEM_STATES = 4;

class Builder {
  out: Edge[][] = [];
  nets: Network[] = [];
  ruleNet = new Map<string, number>();

  constructor(private readonly g: Grammar) {}

  state(): number {
    if (this.out.length >= MAX_ACCEPTOR_STATES) {
      throw new LimitExceededError(
        "LIMIT_GRAMMAR_SIZE",
        `the grammar expands to more than ${MAX_ACCEPTOR_STATES} acceptor states; lower the repetition bounds (maxLength, maxItems) of the schema`,
      );
    }
    this.out.push([]);
    return this.out.length - 1;
  }

  edge(from: number, kind: 0 | 1 | 2, target: number, ranges: readonly number[] = NO_RANGES, net = -1): void {
    this.out[from].push({ kind, target, ranges, net });
  }

  newNet(): number {
    const start = this.state();
    const final = this.state();
    this.nets.push({ start, final });
    return this.nets.length - 1;
  }

  netForRule(name: string): number {
    let id = this.ruleNet.get(name);
    if (id === undefined) {
      if (!this.g.rules.has(name)) {
        throw new ToolgramError("INVALID_INPUT", `the grammar references an undefined rule "${name}"`);
      }
      id = this.newNet();
      this.ruleNet.set(name, id);
      const n = this.nets[id];
      // body compiled after registration, so recursive references find the network
      this.expr(this.g.rules.get(name) as GExpr, n.start, n.final);
    }
    return id;
  }

  /** A rough state count of `e` when inlined, saturating at `cap`. */
  size(e: GExpr, cap: number): number {
    switch (e.type) {
      case "literal":
      case "token":
        return [...e.text].length;
      case "charClass":
      case "ref":
        return 1;
      case "seq":
      case "alt": {
        let n = 1;
        for (const it of e.items) {
          n += this.size(it, cap);
          if (n > cap) return cap + 1;
        }
        return n;
      }
      case "repeat":
      case "counted":
        return cap + 1; // always worth a sub-network
    }
  }

  /** Adds edges so that the paths from `from` to `to` spell exactly the language of `e`. */
  expr(e: GExpr, from: number, to: number): void {
    switch (e.type) {
      case "literal":
      case "token": {
        const cps = [...e.text].map((c) => c.codePointAt(0) as number);
        if (cps.length === 0) {
          this.edge(from, EPS, to);
          return;
        }
        let cur = from;
        cps.forEach((cp, i) => {
          const next = i === cps.length - 1 ? to : this.state();
          this.edge(cur, TERM, next, [cp, cp]);
          cur = next;
        });
        return;
      }
      case "charClass":
        if (e.ranges.length > 0) this.edge(from, TERM, to, e.ranges);
        return;
      case "ref":
        this.edge(from, CALL, to, NO_RANGES, this.netForRule(e.rule));
        return;
      case "seq": {
        if (e.items.length === 0) {
          this.edge(from, EPS, to);
          return;
        }
        let cur = from;
        e.items.forEach((it, i) => {
          const next = i === e.items.length - 1 ? to : this.state();
          this.expr(it, cur, next);
          cur = next;
        });
        return;
      }
      case "alt":
        for (const it of e.items) this.expr(it, from, to);
        return;
      case "repeat":
        this.repeat(e.item, e.min, e.max, from, to);
        return;
      case "counted":
        this.counted(e, from, to);
        return;
    }
  }

  /**
   * A counted node written out: a state per live (automaton state, length) pair reachable from its start (for a
   * `maxLength: 2048` URI about 200,000), so the referee checks the token automaton's lazy construction against
   * the product itself.
   */
  counted(e: Counted, from: number, to: number): void {
    const live = countedLive(e);
    const n = e.states.length;
    // a label larger than a few states is one shared sub-network, called from every pair (as a repetition's item)
    const nets = new Map<GExpr, number>();
    const label = (x: GExpr, a: number, b: number): void => {
      if (this.size(x, INLINE_ITEM_STATES) <= INLINE_ITEM_STATES) {
        this.expr(x, a, b);
        return;
      }
      let net = nets.get(x);
      if (net === undefined) {
        nets.set(x, (net = this.newNet()));
        const nn = this.nets[net];
        this.expr(x, nn.start, nn.final);
      }
      this.edge(a, CALL, b, NO_RANGES, net);
    };
    const at = new Map<number, number>([[e.start, from]]);
    for (let c = 0; c <= e.max; c++) {
      for (let q = 0; q < n; q++) {
        const s = at.get(c * n + q);
        if (s === undefined) continue;
        if (e.states[q].accept && c >= e.min) this.edge(s, EPS, to);
        for (const edge of e.states[q].edges) {
          const c2 = c + edge.len;
          if (c2 > e.max || live[c2 * n + edge.to] === 0) continue;
          let t = at.get(c2 * n + edge.to);
          if (t === undefined) at.set(c2 * n + edge.to, (t = this.state()));
          label(edge.label, s, t);
        }
      }
    }
  }

  repeat(item: GExpr, min: number, max: number | null, from: number, to: number): void {
    if (max !== null && max < min) return; // matches nothing
    // each copy of the item is either inlined or a call to one shared sub-network
    let copy: (a: number, b: number) => void;
    if (this.size(item, INLINE_ITEM_STATES) <= INLINE_ITEM_STATES) {
      copy = (a, b) => this.expr(item, a, b);
    } else {
      const net = this.newNet();
      const n = this.nets[net];
      this.expr(item, n.start, n.final);
      copy = (a, b) => this.edge(a, CALL, b, NO_RANGES, net);
    }
    // fresh entry state: nothing else may loop back into `from`
    let cur = this.state();
    this.edge(from, EPS, cur);
    for (let i = 0; i < min; i++) {
      const next = this.state();
      copy(cur, next);
      cur = next;
    }
    if (max === null) {
      copy(cur, cur); // `cur` is fresh, so the loop only repeats the item
      this.edge(cur, EPS, to);
      return;
    }
    for (let i = min; i < max; i++) {
      this.edge(cur, EPS, to);
      const next = this.state();
      copy(cur, next);
      cur = next;
    }
    this.edge(cur, EPS, to);
  }
}

/**
 * Backward fixpoint: marks states from which their network's final state is reachable through edges that `ok`
 * admits; a call edge is admitted when the called network's start is marked.
 */
function markBackward(out: Edge[][], nets: Network[], ok: (kind: number) => boolean): Uint8Array {
  const n = out.length;
  const mark = new Uint8Array(n);
  // predecessors by target, and callers by called network, as compressed adjacency lists (few allocations)
  const predStart = new Int32Array(n + 1);
  const callStart = new Int32Array(nets.length + 1);
  for (let s = 0; s < n; s++) {
    for (const e of out[s]) {
      if (!ok(e.kind)) continue;
      predStart[e.target + 1]++;
      if (e.kind === CALL) callStart[e.net + 1]++;
    }
  }
  for (let i = 0; i < n; i++) predStart[i + 1] += predStart[i];
  for (let i = 0; i < nets.length; i++) callStart[i + 1] += callStart[i];
  const preds = new Int32Array(predStart[n]);
  const callers = new Int32Array(callStart[nets.length]);
  const pFill = predStart.slice(0, n);
  const cFill = callStart.slice(0, nets.length);
  for (let s = 0; s < n; s++) {
    for (const e of out[s]) {
      if (!ok(e.kind)) continue;
      preds[pFill[e.target]++] = s;
      if (e.kind === CALL) callers[cFill[e.net]++] = s;
    }
  }
  const startNet = new Int32Array(n).fill(-1);
  nets.forEach((net, i) => (startNet[net.start] = i));
  const work: number[] = [];
  const set = (s: number) => {
    if (!mark[s]) {
      mark[s] = 1;
      work.push(s);
    }
  };
  // does some admitted edge of `s` lead to a marked state?
  const check = (s: number) => {
    if (mark[s]) return;
    for (const e of out[s]) {
      if (!ok(e.kind) || !mark[e.target]) continue;
      if (e.kind === CALL && !mark[nets[e.net].start]) continue;
      set(s);
      return;
    }
  };
  for (const net of nets) set(net.final);
  while (work.length > 0) {
    const t = work.pop() as number;
    for (let i = predStart[t]; i < predStart[t + 1]; i++) check(preds[i]);
    const ni = startNet[t];
    if (ni >= 0) for (let i = callStart[ni]; i < callStart[ni + 1]; i++) check(callers[i]);
  }
  return mark;
}

function compile(g: Grammar): Compiled {
  // same language; avoids one Earley item per count of `x{0,n}` when `x` is nullable
  const b = new Builder(removeNullableLoops(g));
  const rootNet = b.netForRule(g.root);
  const finalOf = new Int32Array(b.out.length).fill(-1);
  b.nets.forEach((net, i) => (finalOf[net.final] = i));
  const nullState = markBackward(b.out, b.nets, (k) => k !== TERM);
  const nullable = Uint8Array.from(b.nets, (net) => nullState[net.start]);
  const live = markBackward(b.out, b.nets, () => true);
  return { ...packed(b.out), finalOf, ...packedNets(b.nets), rootNet, nullable, live };
}

/** The edges as typed arrays; edges that share a ranges array share its copy. */
function packed(
  out: Edge[][],
): Pick<Compiled, "edgeStart" | "edgeKind" | "edgeTarget" | "edgeNet" | "rangeStart" | "rangeEnd" | "ranges"> {
  let edges = 0;
  for (const es of out) edges += es.length;
  const edgeStart = new Int32Array(out.length + 1);
  const edgeKind = new Uint8Array(edges);
  const edgeTarget = new Int32Array(edges);
  const edgeNet = new Int32Array(edges);
  const rangeStart = new Int32Array(edges);
  const rangeEnd = new Int32Array(edges);
  const at = new Map<readonly number[], number>();
  const flat: number[] = [];
  let e = 0;
  out.forEach((es, s) => {
    edgeStart[s] = e;
    for (const edge of es) {
      edgeKind[e] = edge.kind;
      edgeTarget[e] = edge.target;
      edgeNet[e] = edge.net;
      let from = at.get(edge.ranges);
      if (from === undefined) {
        from = flat.length;
        at.set(edge.ranges, from);
        for (const x of edge.ranges) flat.push(x);
      }
      rangeStart[e] = from;
      rangeEnd[e] = from + edge.ranges.length;
      e++;
    }
  });
  edgeStart[out.length] = e;
  return { edgeStart, edgeKind, edgeTarget, edgeNet, rangeStart, rangeEnd, ranges: Int32Array.from(flat) };
}

function packedNets(nets: Network[]): Pick<Compiled, "netStart" | "netFinal"> {
  return { netStart: Int32Array.from(nets, (n) => n.start), netFinal: Int32Array.from(nets, (n) => n.final) };
}

/** Whether the code-point pairs `ranges[from..to)` contain `cp` (binary search over pairs). */
function pairsContain(ranges: Int32Array, from: number, to: number, cp: number): boolean {
  let lo = 0;
  let hi = (to - from) / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[from + mid * 2]) hi = mid - 1;
    else if (cp > ranges[from + mid * 2 + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

interface Waiter {
  target: number;
  origin: number;
}

/** Runs the recognizer: `wantFull` asks for membership, otherwise for a live prefix. */
function run(c: Compiled, text: string, wantFull: boolean, work?: { items: number }): boolean {
  const cps: number[] = [];
  for (const ch of text) cps.push(ch.codePointAt(0) as number);
  const n = cps.length;
  const rootStart = c.netStart[c.rootNet];
  const rootFinal = c.netFinal[c.rootNet];
  if (!c.live[rootStart]) return false;
  const waiters: Map<number, Waiter[]>[] = [];

  // the set being built at position k: items (state, origin), keyed state * (n + 1) + origin
  let curStates: number[] = [rootStart];
  let curOrigins: number[] = [0];
  for (let k = 0; k <= n; k++) {
    const seen = new Set<number>();
    const wk = new Map<number, Waiter[]>();
    waiters.push(wk);
    const states: number[] = [];
    const origins: number[] = [];
    const add = (s: number, o: number) => {
      if (!c.live[s]) return; // cannot reach its end: drop (keeps isPrefix exact)
      const key = s * (n + 1) + o;
      if (seen.has(key)) return;
      seen.add(key);
      states.push(s);
      origins.push(o);
      if (work !== undefined) work.items++;
    };
    for (let i = 0; i < curStates.length; i++) add(curStates[i], curOrigins[i]);
    const nextStates: number[] = [];
    const nextOrigins: number[] = [];
    const cp = k < n ? cps[k] : -1;
    for (let i = 0; i < states.length; i++) {
      const s = states[i];
      const o = origins[i];
      const net = c.finalOf[s];
      if (net >= 0) {
        const ws = waiters[o].get(net);
        if (ws) for (let j = 0; j < ws.length; j++) add(ws[j].target, ws[j].origin);
      }
      for (let j = c.edgeStart[s]; j < c.edgeStart[s + 1]; j++) {
        const kind = c.edgeKind[j];
        const target = c.edgeTarget[j];
        if (kind === EPS) {
          add(target, o);
        } else if (kind === TERM) {
          if (cp >= 0 && pairsContain(c.ranges, c.rangeStart[j], c.rangeEnd[j], cp)) {
            nextStates.push(target);
            nextOrigins.push(o);
          }
        } else {
          const callee = c.edgeNet[j];
          if (!c.live[target] || !c.live[c.netStart[callee]]) continue;
          let ws = wk.get(callee);
          if (!ws) {
            ws = [];
            wk.set(callee, ws);
          }
          ws.push({ target, origin: o });
          add(c.netStart[callee], k);
          // a nullable callee may already have completed here; Aycock–Horspool: step over it now
          if (c.nullable[callee]) add(target, o);
        }
      }
    }
    if (k === n) {
      if (!wantFull) return states.length > 0;
      for (let i = 0; i < states.length; i++) if (states[i] === rootFinal && origins[i] === 0) return true;
      return false;
    }
    if (nextStates.length === 0) return false;
    curStates = nextStates;
    curOrigins = nextOrigins;
  }
  return false;
}

const cache = new WeakMap<Grammar, Compiled>();

function compiled(g: Grammar): Compiled {
  let c = cache.get(g);
  if (!c) {
    c = compile(g);
    cache.set(g, c);
  }
  return c;
}

/** An acceptor for `grammar`, compiled once (and cached per grammar object: do not mutate a grammar after use). */
export function createAcceptor(grammar: Grammar): Acceptor {
  return acceptorFromData(compiled(grammar));
}

/**
 * The compiled recognizer of `grammar` as structured-clone data (plain arrays, typed arrays and records), so that a
 * worker thread can pay for compiling it and another thread adopt it ({@link acceptorFromData}).
 */
export type AcceptorData = Compiled;

/**
 * The recognizer `createAcceptor` would compile for `grammar`, compiled afresh (not shared with this thread's cache),
 * as data for another thread: its buffers may be transferred.
 */
export function acceptorData(grammar: Grammar): AcceptorData {
  return compile(grammar);
}

/** The buffers of `data`, to transfer it to another thread rather than copy it. */
export function acceptorBuffers(data: AcceptorData): ArrayBuffer[] {
  const views = [
    data.edgeStart,
    data.edgeKind,
    data.edgeTarget,
    data.edgeNet,
    data.rangeStart,
    data.rangeEnd,
    data.ranges,
    data.finalOf,
    data.netStart,
    data.netFinal,
    data.nullable,
    data.live,
  ];
  return [...new Set(views.map((v) => v.buffer as ArrayBuffer))];
}

/** An acceptor over a recognizer compiled elsewhere ({@link acceptorData}): nothing is compiled here. */
export function acceptorFromData(data: AcceptorData): Acceptor {
  const work = { items: 0 };
  return {
    accepts: (text) => ((work.items = 0), run(data, text, true, work)),
    isPrefix: (text) => ((work.items = 0), run(data, text, false, work)),
    get lastItems() {
      return work.items;
    },
  };
}

/** Whether `text` is a member of the grammar's language (exact; code points; a `token` matches its text). */
export function accepts(grammar: Grammar, text: string): boolean {
  return run(compiled(grammar), text, true);
}
