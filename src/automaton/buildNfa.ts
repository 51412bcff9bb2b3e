import { Deadline } from "../Deadline.js";
import { LimitExceededError, ToolgramError } from "../errors.js";
import { cachedKey, exprKey } from "../grammar/analysis/exprKey.js";
import { foldExpr } from "../grammar/analysis/foldExpr.js";
import { isProductive } from "../grammar/analysis/productive.js";
import { hasRefs } from "../grammar/analysis/refs.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";
import { analyzeRules, estimateStates, WIDE_ALT_ITEMS } from "./frameRules.js";
import { IntPairMap } from "./IntPairMap.js";
import { utf8Sequences } from "./utf8Sequences.js";
import { BoundedMap } from "../util/BoundedMap.js";

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
  /**
   * The key naming frame `f`'s structure for sharing masks across grammars: `frameKey[f]`, or, for a rule frame (or
   * a string-like frame whose loop refers to rules) whose rules reach no special token, a key of everything it can
   * call: the rules its references reach, with their bodies, which of them are frames, and whether the grammar is
   * built lazily. Two grammars with the same such key build the same frames (state for state, edge for edge), so
   * that frame's masks are the same in both (the any-JSON-value rule of a schema that allows any value, with its
   * objects, arrays and strings, is the same in every schema). Computed on first ask; undefined when there is none.
   */
  frameKeyOf(f: number): string | undefined;
  /** Closure keys (frameKeyOf) made after the construction, when a mask first asked for them (see EAGER_CLOSURE_KEYS). */
  closureKeysLate: number;
  /** Per state: its frame, and its index in a canonical (breadth-first) numbering of that frame's states. */
  stateFrame: Int32Array;
  stateCanon: Int32Array;
  /**
   * Builds frame `f` if it is a lazy frame not built yet (see `LAZY_ITEM_STATES`): its states and edges are appended
   * (the typed arrays above may be replaced by longer ones: read them afresh afterwards). Returns its start state.
   */
  ensureFrame(f: number): number;
  /** Lazy frames whose states and edges were copied from a frame of the same structure built before (see `builtFrames`). */
  framesCopied: number;
  /** States numbered by a walk of their frame (a copied frame takes the numbering recorded with its build instead). */
  statesNumbered: number;
  /**
   * Parts of the grammar are built when a decoding first reaches them: a large grammar (a large tool set), or a
   * deferred one until it is built whole (see `deferred`).
   */
  lazy: boolean;
  /**
   * A grammar small enough to be built whole, with a large choice among alternatives next to a special token (the
   * tools of a turn): built lazily for its first mask (the envelope and the trie of the tools' names, not their
   * arguments), then whole where a decoding first enters one of the alternatives' frames (a tool's name chosen), or
   * any frame after `firstMaskDone`, in one step rather than a tool's part in each of the first steps of each tool's
   * first call. False once built whole.
   */
  deferred: boolean;
  /** Called by the mask table once the first mask (and its prefetch) is computed: see `deferred`. */
  firstMaskDone(): void;
  /**
   * Set by the mask table while it prefetches: a deferred grammar then throws DEFERRED_HOLD where it would be built
   * whole, so that the prefetch stops there and leaves the build to the step that needs it (a tool's name).
   */
  holdDeferred: boolean;
  /** Builds every lazy frame, so that analyses over all states (completion distances) see the whole grammar. */
  buildAll(): void;
}

export interface NfaOptions {
  specialTokens: "token-or-text" | "token-only";
  maxStates: number;
  /**
   * With "token-only": the `token` texts the vocabulary has as special tokens. A `token` node missing from it derives
   * nothing, so that no mask leads into a place only that token could leave. Undefined: all are available.
   */
  availableAtoms?: ReadonlySet<string>;
  /** The budget of the construction (one step per state built, and the grammar analyses' steps). */
  deadline?: Deadline;
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
  clear(): void {
    this.from.length = this.a.length = this.b.length = this.to.length = 0;
  }
}

const STAGE = "building the token automaton";
const utf8 = new TextEncoder();

/** The rules being inlined around a piece of the construction, innermost first. */
interface Inlining {
  rule: string;
  outer: Inlining | null;
}

export function buildNfa(g: Grammar, opts: NfaOptions): Nfa {
  let deadline = opts.deadline;
  // the reference graph, frames and productive rules from one walk of every rule body
  const tokenOk = (text: string): boolean =>
    opts.specialTokens === "token-or-text" || opts.availableAtoms === undefined || opts.availableAtoms.has(text);
  const {
    graph,
    frames,
    size: ruleSize,
    sharing,
    productive: productiveRule,
    bodySize,
    tokenRules,
    recursive,
    wideAlts,
    tokenTexts,
    loopsBeforeLiterals,
  } = analyzeRules(g, tokenOk, deadline);
  // small grammars are built whole (one automaton, no frame boundaries); large ones lazily; a small one with a large
  // choice among alternatives next to a special token (see Nfa.deferred) lazily until a decoding enters a choice
  const large = (ruleSize.get(g.root) ?? 0) > LAZY_GRAMMAR_STATES;
  let lazy = large;
  /** Synthesized frames: a wide loop and the literal that closes it (a string's content and closing quote). */
  const sharedFrames = new Map<string, number>();
  /** Frames whose start and end states were made since the last flush (which numbers their states). */
  const started: number[] = [];
  /** Frames copied since the last flush from a recorded build, whose numbering is the recorded one. */
  const copied = new Map<number, BuiltFrame>();
  const frameBodies: GExpr[] = [];
  const pendingFrames: number[] = [];
  const sharedKeys: (string | undefined)[] = [];
  /** Per frame: the expressions its closure key is made of (see Nfa.frameKeyOf), when it may have one. */
  const closureRoots: (readonly GExpr[] | undefined)[] = [];
  /** frameKeyOf's answers: null when the frame has none. */
  const closureKeys: (string | null | undefined)[] = [];
  const frameIndex = new Map(frames.map((n, i) => [n, i]));
  const frameNames = [...frames];
  const frameStart: number[] = [];
  const frameEnd: number[] = [];
  // every special token's text indexed before any state is built: a mask table maps the vocabulary's special tokens
  // to these when it is made, and a lazily built frame (a tool set's envelope) may be the first to use one
  const atomTexts: string[] = [...tokenTexts];
  const atomIndex = new Map<string, number>(atomTexts.map((t, i) => [t, i]));
  const bytes = new Edges();
  const eps = new Edges();
  const calls = new Edges();
  const atoms = new Edges();
  let n = 0;
  const newState = (): number => {
    if (n >= opts.maxStates) {
      throw new LimitExceededError(
        "LIMIT_AUTOMATON_SIZE",
        `the grammar needs more than ${opts.maxStates} automaton states; lower repetition bounds or raise limits.maxAutomatonStates`,
      );
    }
    deadline?.tick(STAGE);
    return n++;
  };
  const productiveMemo = new Map<GExpr, boolean>();
  const productive = (e: GExpr): boolean => isProductive(e, productiveRule, tokenOk, productiveMemo);
  // A chain's inner state only reads the rest of its chain into `to`, so chains with the same rest and target share
  // it: the UTF-8 tails of a character class ([80-BF][80-BF] → to ...) are built once per target, not once per
  // lead-byte range (a bounded repetition of a string character builds several times fewer states).
  const tails = new IntPairMap();
  // Built from the end, keyed by (byte range, next state): the same sharing as keying by the whole rest of the chain,
  // with short keys (whole-rest keys made every long literal quadratic to build).
  const bytesChain = (from: number, to: number, seq: readonly number[]): void => {
    let next = to;
    for (let k = seq.length - 2; k >= 2; k -= 2) {
      // numbers, not a string (one per chain state built)
      const range = (seq[k] << 8) | seq[k + 1];
      let st = tails.get(range, next);
      if (st < 0) {
        st = newState();
        tails.set(range, next, st);
        bytes.add(st, seq[k], seq[k + 1], next);
      }
      next = st;
    }
    bytes.add(from, seq[0], seq[1], next);
  };
  /** Chain states of exact repetitions, keyed by (item, next state): see the repeat case. */
  const repeatTails = new IntPairMap();
  /** A small number per distinct repeated item (by structural key), for the numeric keys of `repeatTails`. */
  const repeatItems = new Map<string, number>();
  const literalSeqs = new Map<string, number[]>();
  const literal = (from: number, to: number, text: string): void => {
    let seq = literalSeqs.get(text);
    if (!seq) {
      seq = [];
      for (const b of utf8.encode(text)) seq.push(b, b);
      literalSeqs.set(text, seq);
    }
    if (seq.length === 0) eps.add(from, 0, 0, to);
    else bytesChain(from, to, seq);
  };
  const sharedFrame = (loop: GExpr, close: GExpr): number => {
    const key = `${structuralKey(loop)}|${structuralKey(close)}`;
    let fi = sharedFrames.get(key);
    if (fi === undefined) {
      // once per distinct frame, not per place that calls it
      const local = hasRefs(loop) || hasRefs(close);
      fi = frameNames.length;
      frameNames.push(`(shared ${frameNames.length})`);
      frameBodies[fi] = { type: "seq", items: [loop, close] };
      started.push(fi);
      frameStart.push(newState());
      frameEnd.push(newState());
      pendingFrames.push(fi);
      sharedFrames.set(key, fi);
      // a reference names a rule of this grammar: such a frame is keyed by the rules it reaches (frameKeyOf)
      if (!local) sharedKeys[fi] = key;
      else closureRoots[fi] = [loop, close];
    }
    return fi;
  };
  /**
   * Lazy frames: the rest of a large alternative after its first literal (a tool's arguments after its name). Built
   * when the automaton first enters them, so a matcher grows with the alternatives a decoding reaches, not with the
   * sum of all of them. Keyed by the expression object (dedupeRules already made equal tools share one rule).
   */
  const lazyFrames = new Map<GExpr, number>();
  const lazyBody = new Map<number, GExpr>();
  /**
   * Lazy frames that read a literal (the rest of a tool's name and `", "arguments": `) and then call the lazy frame
   * of `lazyBody` (the arguments): a token that completes a name reads only the literal, so choosing among the tools
   * still possible builds their names, not their arguments, which are built when a decoding reads past the literal.
   */
  const lazyHead = new Map<number, string>();
  const lazyFrame = (rest: GExpr, head = ""): number => {
    let fi = head === "" ? lazyFrames.get(rest) : undefined;
    if (fi === undefined) {
      fi = frameNames.length;
      frameNames.push(`(lazy ${frameNames.length})`);
      lazyBody.set(fi, rest);
      frameStart.push(-1);
      frameEnd.push(-1);
      if (head === "") lazyFrames.set(rest, fi);
      else lazyHead.set(fi, head);
    }
    return fi;
  };
  const sizeMemo = new Map<GExpr, number>();
  const sizeOf = (e: GExpr): number =>
    estimateStates(e, (r) => (frameIndex.has(r) ? 1 : (ruleSize.get(r) ?? 1)), sizeMemo);
  // In a small grammar, the alternations lazyAlt would build as a trie in a large one that sit next to a special token
  // (the tools of a turn after `<tool_call>`; not a JSON value's choices, nor a recursive rule's): the first mask
  // needs their shared prefixes only (the tools' names up to where one tool is left). Such a rule reaches a special
  // token, so no closure key covers it, and every keyed frame is built as in a grammar built whole.
  const deferAlts = new Set<GExpr>();
  if (!large) {
    for (const { rule, alt } of wideAlts)
      if (tokenRules.has(rule) && !recursive.has(rule) && sizeOf(alt) > LAZY_ALT_STATES) deferAlts.add(alt);
  }
  const deferred = deferAlts.size > 0;
  if (deferred) lazy = true;
  /** Set by firstMaskDone on a deferred grammar: the next frame entered builds every frame left (see Nfa.deferred). */
  let buildRestAtNextFrame = false;
  /**
   * A large alternation in a large grammar (the tools of a turn): the alternatives that begin with a literal are
   * merged into a trie of their first literals, character by character, as long as several alternatives share the
   * prefix; where one alternative is left, after one more character, the rest of it (the rest of the tool's name,
   * its arguments) is a lazy frame, built when a decoding first reads that far. The other alternatives are built
   * as usual.
   */
  const lazyAlt = (
    items: readonly GExpr[],
    from: number,
    to: number,
    sub: (x: GExpr, a: number, b: number) => void,
  ): void => {
    interface Entry {
      chars: string[];
      rest: GExpr[];
    }
    const entries: Entry[] = [];
    for (const it of items) {
      const head = it.type === "seq" ? it.items[0] : it;
      if (head !== undefined && head.type === "literal" && head.text.length > 0)
        entries.push({ chars: [...head.text], rest: it.type === "seq" ? it.items.slice(1) : [] });
      else sub(it, from, to);
    }
    const node = (at: number, group: Entry[], pos: number): void => {
      const byChar = new Map<string, Entry[]>();
      for (const en of group) {
        if (pos === en.chars.length) {
          // this alternative's literal ends here: its rest starts at this node
          if (en.rest.length === 0) eps.add(at, 0, 0, to);
          else sub(en.rest.length === 1 ? en.rest[0] : { type: "seq", items: en.rest }, at, to);
          continue;
        }
        const ch = en.chars[pos];
        const list = byChar.get(ch);
        if (list) list.push(en);
        else byChar.set(ch, [en]);
      }
      for (const [ch, list] of byChar) {
        const nxt = newState();
        literal(at, nxt, ch);
        if (list.length > 1) {
          node(nxt, list, pos + 1);
          continue;
        }
        const en = list[0];
        const tail = en.chars.slice(pos + 1).join("");
        const body: GExpr =
          tail === ""
            ? en.rest.length === 1
              ? en.rest[0]
              : { type: "seq", items: en.rest }
            : { type: "seq", items: [{ type: "literal", text: tail }, ...en.rest] };
        // the literal that follows (the rest of the name, and literals after it) in a frame of its own, the rest
        // (the arguments) in another, built when a decoding reads past the literal
        let head = tail;
        let k = 0;
        while (k < en.rest.length && en.rest[k].type === "literal") head += (en.rest[k++] as { text: string }).text;
        const restItems = k === 0 ? en.rest : en.rest.slice(k);
        const rest: GExpr | undefined =
          restItems.length === 0
            ? undefined
            : restItems.length === 1
              ? restItems[0]
              : { type: "seq", items: restItems };
        if (sizeOf(body) > LAZY_TAIL_STATES)
          calls.add(
            nxt,
            head !== "" && rest !== undefined && sizeOf(rest) > LAZY_TAIL_STATES
              ? lazyFrame(rest, head)
              : lazyFrame(body),
            0,
            to,
          );
        else if (en.rest.length === 0 && tail === "") eps.add(nxt, 0, 0, to);
        else sub(body, nxt, to);
      }
    };
    if (entries.length > 0) node(from, entries, 0);
  };
  /**
   * Free text: a leading run of ref-free, token-free items that starts with a wide loop and is followed by a part
   * with references or special tokens (the text before a turn's calls). Its own frame, keyed by its structure, so
   * that its masks (almost the whole vocabulary, a walk of the whole token trie) are computed once per vocabulary
   * and shared by every grammar with the same text, whatever its tools.
   */
  const textFrames = new Map<string, number>();
  const textFrame = (body: GExpr): number => {
    const key = `text|${structuralKey(body)}`;
    let fi = textFrames.get(key);
    if (fi === undefined) {
      fi = frameNames.length;
      frameNames.push(`(text ${frameNames.length})`);
      itemBody.set(fi, body);
      started.push(fi);
      frameStart.push(newState());
      frameEnd.push(newState());
      pendingFrames.push(fi);
      textFrames.set(key, fi);
      sharedKeys[fi] = key;
    }
    return fi;
  };
  /** Synthesized frames for the item of a long bounded repetition (a string character under a large maxLength). */
  const itemFrames = new Map<string, number>();
  const itemBody = new Map<number, GExpr>();
  const itemFrame = (item: GExpr): number => {
    const key = `item|${structuralKey(item)}`;
    let fi = itemFrames.get(key);
    if (fi === undefined) {
      fi = frameNames.length;
      frameNames.push(`(repeated ${frameNames.length})`);
      itemBody.set(fi, item);
      started.push(fi);
      frameStart.push(newState());
      frameEnd.push(newState());
      pendingFrames.push(fi);
      itemFrames.set(key, fi);
    }
    return fi;
  };
  // Thompson construction of a productive e between from and to, as a worklist (expressions and chains of inlined
  // rules can nest deeper than the call stack). `inl` lists the rules being inlined around the task.
  interface Task {
    e: GExpr;
    from: number;
    to: number;
    inl: Inlining | null;
  }
  const tasks: Task[] = [];
  const build = (e: GExpr, from: number, to: number, inl: Inlining | null = null): void => {
    tasks.push({ e, from, to, inl });
    while (tasks.length > 0) {
      const t = tasks.pop()!;
      step(t.e, t.from, t.to, t.inl);
    }
  };
  // one queue of parts and one `sub` for every step (a closure per step was a noticeable part of building the NFA);
  // a step's parts are the queue's entries from where it started
  const later: Task[] = [];
  let stepInl: Inlining | null = null;
  const sub = (x: GExpr, a: number, b: number, i: Inlining | null = stepInl): void => {
    later.push({ e: x, from: a, to: b, inl: i });
  };
  /** Builds what `e` needs directly and queues its parts (pushed last-first, so they are built in order). */
  const step = (e: GExpr, from: number, to: number, inl: Inlining | null): void => {
    const base = later.length;
    const outer = stepInl;
    stepInl = inl;
    try {
      stepInto(e, from, to, inl, sub);
    } finally {
      stepInl = outer;
    }
    for (let k = later.length - 1; k >= base; k--) tasks.push(later[k]);
    later.length = base;
  };
  const stepInto = (
    e: GExpr,
    from: number,
    to: number,
    inl: Inlining | null,
    sub: (x: GExpr, a: number, b: number, i?: Inlining | null) => void,
  ): void => {
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
          classesSequenced++;
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
          if (isWideLoop(it) && (after === undefined || after.type !== "literal") && !hasRefs(it) && !hasTokens(it)) {
            let j = k + 1;
            while (j < e.items.length && !hasRefs(e.items[j]) && !hasTokens(e.items[j])) j++;
            if (j < e.items.length) {
              const run = e.items.slice(k, j);
              const nxt = newState();
              calls.add(cur, textFrame(run.length === 1 ? run[0] : { type: "seq", items: run }), 0, nxt);
              cur = nxt;
              k = j - 1;
              continue;
            }
          }
          const nxt = k === e.items.length - 1 ? to : newState();
          sub(it, cur, nxt);
          cur = nxt;
        }
        return;
      }
      case "alt":
        // every item between `from` and `to` themselves: a built item only adds edges out of `from` and into `to`
        // (loops get their own head), so items cannot leak into each other, and the chains of exact repetitions
        // that end in `to` are shared by all items (a bounded number's digits)
        if ((large || deferAlts.has(e)) && e.items.length >= WIDE_ALT_ITEMS && sizeOf(e) > LAZY_ALT_STATES) {
          lazyAlt(e.items.filter(productive), from, to, sub);
          return;
        }
        for (const it of e.items) if (productive(it)) sub(it, from, to);
        return;
      case "repeat": {
        if (!productive(e.item)) {
          eps.add(from, 0, 0, to); // min is 0 here
          return;
        }
        // a long bounded repetition of a larger item calls one frame per copy instead of building every copy
        const copies = e.max ?? e.min + 1;
        const itemFi = copies > 16 && copies * inlineStates(e.item) > REPEAT_COPY_LIMIT ? itemFrame(e.item) : -1;
        const buildItem = (a: number, b: number): void => {
          if (itemFi >= 0) calls.add(a, itemFi, 0, b);
          else sub(e.item, a, b);
        };
        if (itemFi < 0 && e.max === e.min && e.min > 1 && isStep(e.item)) {
          // an exact repetition of one character (`[0-9]{k}`): its copies are built from `to` backwards and shared by
          // every repetition of the same item into the same place, so `[1-9] [0-9]{k}` for k = 1..n (a bounded
          // integer's digits) builds n states, not n²/2. A chain state only reads the rest of its chain into `to`.
          let next = to;
          const itemKey = structuralKey(e.item);
          let item = repeatItems.get(itemKey);
          if (item === undefined) repeatItems.set(itemKey, (item = repeatItems.size));
          for (let k = e.min - 1; k >= 1; k--) {
            let st = repeatTails.get(item, next);
            if (st < 0) {
              st = newState();
              repeatTails.set(item, next, st);
              sub(e.item, st, next);
            }
            next = st;
          }
          sub(e.item, from, next);
          return;
        }
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
        for (let i = inl; i !== null; i = i.outer) {
          if (i.rule === e.rule)
            throw new ToolgramError("INVALID_INPUT", `rule "${e.rule}" is recursive but was not detected as such`);
        }
        sub(body, from, to, { rule: e.rule, outer: inl });
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
  for (const [name, refs] of graph) {
    const missing = refs.find((r) => !g.rules.has(r));
    if (missing !== undefined)
      throw new ToolgramError("INVALID_INPUT", `rule "${name}" references an undefined rule "${missing}"`);
  }
  if (!g.rules.has(g.root)) throw new ToolgramError("INVALID_INPUT", `grammar has no root rule "${g.root}"`);
  const lazyRule = new Map<number, string>();
  frames.forEach((name, i) => (closureRoots[i] = [{ type: "ref", rule: name }]));
  /**
   * The closure key of `roots` (see Nfa.frameKeyOf): the roots, then every rule their references reach in order of
   * discovery, references renamed by that order. With `viaFrames` (a synthesized frame's loop), references to rule
   * frames are named by those frames' own closure keys instead, so the any-value rule's text is not written again for
   * each loop that calls it. Undefined when a reached rule has a special token (its NFA depends on the options and the
   * vocabulary) or the closure is large (few grammars share it whole).
   */
  const closureKey = (roots: readonly GExpr[], viaFrames: boolean): string | undefined => {
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
  };
  for (const [i, name] of frames.entries()) {
    const ok = productiveRule.has(name);
    // a lazily built rule frame gets its states when it is built (a flush appends only states made since the last)
    const now = ok && !(lazy && sharing.has(name) && bodySize(name) > LAZY_RULE_STATES);
    if (now) started.push(i);
    frameStart.push(now ? newState() : -1);
    frameEnd.push(now ? newState() : -1);
  }
  frames.forEach((name, i) => {
    if (!productiveRule.has(name)) return;
    // in a large grammar, a rule frame other than the root is built when first entered, like the lazy frames
    if (lazy && sharing.has(name) && bodySize(name) > LAZY_RULE_STATES) lazyRule.set(i, name);
    else build(g.rules.get(name)!, frameStart[i], frameEnd[i], { rule: name, outer: null });
  });
  const buildPending = (): void => {
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
  };
  if (lazy) {
    // The string-like frames of a large grammar's lazy parts (a string's content in a tool's arguments), built now
    // rather than with the first part that calls them: a few frames, one per distinct content, so that the first mask
    // can compute their local masks (nearly the whole vocabulary, once per process: MaskTable.warmSharedFrames)
    // before a decoding reaches its first string. A lazy part built later calls the same frame (sharedFrame's key).
    for (let k = 0; k < loopsBeforeLiterals.length; k += 2) {
      const loop = loopsBeforeLiterals[k];
      const after = loopsBeforeLiterals[k + 1] as { type: "literal"; text: string };
      if (!isWideLoop(loop) || hasRefs(loop) || hasTokens(loop)) continue;
      const first = String.fromCodePoint(after.text.codePointAt(0)!);
      sharedFrame(loop, first === after.text ? after : { type: "literal", text: first });
    }
  }
  buildPending();
  const lazyBudget =
    deadline === undefined
      ? undefined
      : new Deadline({
          maxCompileSteps: Math.max(0, deadline.budget.maxCompileSteps - deadline.stepsTaken),
          maxCompileMs: Number.POSITIVE_INFINITY,
        });
  // set once the construction is over: a closure key made after it is counted (closureKeysLate)
  let built = false;
  const nfa: Nfa = {
    stateCount: 0,
    byteStart: new Int32Array(1),
    byteLo: new Uint8Array(0),
    byteHi: new Uint8Array(0),
    byteTo: new Int32Array(0),
    epsStart: new Int32Array(1),
    epsTo: new Int32Array(0),
    callStart: new Int32Array(1),
    callRule: new Int32Array(0),
    callTo: new Int32Array(0),
    atomStart: new Int32Array(1),
    atomIdx: new Int32Array(0),
    atomTo: new Int32Array(0),
    frameNames,
    frameKey: [],
    stateFrame: new Int32Array(0),
    stateCanon: new Int32Array(0),
    frameStart,
    frameEnd,
    isEnd: new Uint8Array(0),
    atomTexts,
    framesCopied: 0,
    statesNumbered: 0,
    closureKeysLate: 0,
    lazy,
    deferred,
    holdDeferred: false,
    firstMaskDone: () => {
      if (nfa.deferred) buildRestAtNextFrame = true;
    },
    frameKeyOf: (f) => {
      const eager = nfa.frameKey[f];
      if (eager !== undefined) return eager;
      let k = closureKeys[f];
      if (k === undefined) {
        const roots = closureRoots[f];
        // (null first: a loop's key may ask for its rule's, never the other way round, but a cycle must not recurse)
        closureKeys[f] = null;
        closureKeys[f] = k = (roots === undefined ? undefined : closureKey(roots, f >= frames.length)) ?? null;
        if (built && !eagerKeys && roots !== undefined) nfa.closureKeysLate++;
      }
      return k ?? undefined;
    },
    ensureFrame: (f) => {
      const body = lazyBody.get(f);
      const rule = lazyRule.get(f);
      if (body === undefined && rule === undefined) return frameStart[f];
      if (nfa.deferred && (buildRestAtNextFrame || body !== undefined)) {
        // (before anything is built: the automaton stores nothing of the step this stops)
        if (nfa.holdDeferred) throw DEFERRED_HOLD;
        // a deferred grammar past its first mask, or entering one of its alternatives (a tool chosen, or reached by
        // the first mask's prefetch where a call is required): this frame, then every other, in this one step
        nfa.deferred = false;
        buildRestAtNextFrame = false;
        const start = nfa.ensureFrame(f);
        nfa.buildAll();
        makeEagerClosureKeys();
        return start;
      }
      // a lazy build runs while decoding: the compile's clock is over, its steps (what is left of them, for all
      // lazy builds together) and the state cap still hold
      deadline = lazyBudget;
      lazyBody.delete(f);
      lazyRule.delete(f);
      let kept: BuiltFrame | undefined;
      started.push(f);
      frameStart[f] = newState();
      frameEnd[f] = newState();
      const head = lazyHead.get(f);
      if (head !== undefined) {
        // the literal, then a call of the rest's own lazy frame (made here, built when first entered)
        lazyHead.delete(f);
        const mid = newState();
        literal(frameStart[f], mid, head);
        calls.add(mid, lazyFrame(body!), 0, frameEnd[f]);
      } else if (rule !== undefined) {
        const ruleBody = g.rules.get(rule)!;
        const key = graph.get(rule)!.length > 0 || tokenRules.has(rule) ? undefined : structuralKey(ruleBody);
        // most recently used last: the table drops its least recently used frame when full
        const copy = key === undefined ? undefined : builtFrames.get(key);
        if (copy !== undefined) {
          copyFrame(copy, frameStart[f]);
          copied.set(f, copy);
          nfa.framesCopied++;
        } else {
          const framesBefore = frameNames.length;
          build(ruleBody, frameStart[f], frameEnd[f], { rule, outer: null });
          if (key !== undefined && frameNames.length === framesBefore) kept = keepFrame(key, frameStart[f]);
        }
      } else build(body!, frameStart[f], frameEnd[f]);
      buildPending();
      flush();
      // its numbering too, so that a copy is numbered without a walk
      if (kept !== undefined) kept.canon = nfa.stateCanon.slice(frameStart[f], frameStart[f] + kept.states);
      return frameStart[f];
    },
    buildAll: () => {
      // frames made while building others are lazy too: until none is left
      const wasDeferred = nfa.deferred;
      nfa.deferred = false;
      buildRestAtNextFrame = false;
      while (lazyBody.size + lazyRule.size > 0)
        for (const f of [...lazyBody.keys(), ...lazyRule.keys()]) nfa.ensureFrame(f);
      // built whole now: the closure keys a whole grammar makes with its NFA
      if (wasDeferred) makeEagerClosureKeys();
    },
  };
  /**
   * Records the frame just built from `base` on (its start and end are base and base + 1) in `builtFrames` when it is
   * self-contained: every state made since `base` is its, it made no frame, and every edge is a byte or epsilon edge
   * between its states (the edge lists hold only this build's edges: a lazy build follows a flush).
   */
  const keepFrame = (key: string, base: number): BuiltFrame | undefined => {
    if (calls.from.length > 0 || atoms.from.length > 0) return undefined;
    const inside = (xs: number[]): boolean => xs.every((q) => q >= base && q < n);
    if (!inside(bytes.from) || !inside(bytes.to) || !inside(eps.from) || !inside(eps.to)) return undefined;
    const rel = (xs: number[]): Int32Array => Int32Array.from(xs, (q) => q - base);
    const built: BuiltFrame = {
      states: n - base,
      byteFrom: rel(bytes.from),
      byteLo: Uint8Array.from(bytes.a),
      byteHi: Uint8Array.from(bytes.b),
      byteTo: rel(bytes.to),
      epsFrom: rel(eps.from),
      epsTo: rel(eps.to),
    };
    builtFrames.set(key, built);
    return built;
  };
  /** Appends a recorded frame's states after `base` (its start; base + 1 its end, both made) and its edges, in their order. */
  const copyFrame = (c: BuiltFrame, base: number): void => {
    for (let k = 2; k < c.states; k++) newState();
    for (let k = 0; k < c.byteFrom.length; k++)
      bytes.add(base + c.byteFrom[k], c.byteLo[k], c.byteHi[k], base + c.byteTo[k]);
    for (let k = 0; k < c.epsFrom.length; k++) eps.add(base + c.epsFrom[k], 0, 0, base + c.epsTo[k]);
  };
  /** Appends the states made since the last flush, and their edges, to the NFA's tables. */
  const flush = (): void => {
    const from = nfa.stateCount;
    // each column assigned by name (a computed property name made the NFA object a dictionary, slowing every read)
    let base = nfa.byteStart[from];
    let order = csrAppend((nfa.byteStart = grow(nfa.byteStart, n + 1)), from, n, bytes.from);
    nfa.byteLo = putColumn(nfa.byteLo, base, bytes.a, order);
    nfa.byteHi = putColumn(nfa.byteHi, base, bytes.b, order);
    nfa.byteTo = putColumn(nfa.byteTo, base, bytes.to, order);
    base = nfa.epsStart[from];
    order = csrAppend((nfa.epsStart = grow(nfa.epsStart, n + 1)), from, n, eps.from);
    nfa.epsTo = putColumn(nfa.epsTo, base, eps.to, order);
    base = nfa.callStart[from];
    order = csrAppend((nfa.callStart = grow(nfa.callStart, n + 1)), from, n, calls.from);
    nfa.callRule = putColumn(nfa.callRule, base, calls.a, order);
    nfa.callTo = putColumn(nfa.callTo, base, calls.to, order);
    base = nfa.atomStart[from];
    order = csrAppend((nfa.atomStart = grow(nfa.atomStart, n + 1)), from, n, atoms.from);
    nfa.atomIdx = putColumn(nfa.atomIdx, base, atoms.a, order);
    nfa.atomTo = putColumn(nfa.atomTo, base, atoms.to, order);
    bytes.clear();
    eps.clear();
    calls.clear();
    atoms.clear();
    nfa.isEnd = grow(nfa.isEnd, n);
    // the frames started since the last flush, not every frame (a tool set has a thousand)
    for (const f of started) nfa.isEnd[frameEnd[f]] = 1;
    for (let f = nfa.frameKey.length; f < frameNames.length; f++) nfa.frameKey.push(sharedKeys[f]);
    nfa.stateCount = n;
    numberFrames(nfa, from, started, copied);
    started.length = 0;
    copied.clear();
  };
  flush();
  /** Making the eager closure keys (not counted as late). */
  let eagerKeys = false;
  // the keys of rule frames (a schema's any-value rule, a number used in several places) and of the loops that call
  // them, made with the NFA rather than at the first mask that needs them: a walk that enters such a frame at a large
  // trie subtree asks for its key (MaskTable.subtreeMask), and a value position's cold mask was otherwise mostly this
  // key (the text of the frame's rules), 20–35 µs of a 45–55 µs step. Recursive rules first: their masks are the
  // largest. A deferred grammar makes them when it is built whole (its first mask needs none).
  const makeEagerClosureKeys = (): void => {
    eagerKeys = true;
    let budget = EAGER_CLOSURE_KEYS;
    for (const pass of [true, false]) {
      for (let f = 0; f < frameNames.length && budget > 0; f++) {
        const roots = closureRoots[f];
        if (
          roots === undefined ||
          (f < frames.length ? recursive.has(frames[f]) !== pass : !pass || !roots.some(hasRefs))
        )
          continue;
        nfa.frameKeyOf(f);
        budget--;
      }
    }
    eagerKeys = false;
  };
  if (!lazy) makeEagerClosureKeys();
  built = true;
  return nfa;
}

/** A copy of `a` with room for at least `len` entries (capacity doubles, so appends are amortized). */
function grow<T extends Int32Array | Uint8Array>(a: T, len: number): T {
  if (a.length >= len) return a;
  const out = new (a.constructor as new (n: number) => T)(Math.max(len, a.length * 2, 16));
  out.set(a);
  return out;
}

let orderScratch = new Int32Array(1024);
let rowScratch = new Int32Array(1024);

/**
 * Appends rows for states [from, to) to the CSR `start` (room made by the caller), for edges leaving `src[k]` (each
 * one of those states). Returns the edges' indices in row order, or null when they are in row order already (a
 * chain built state after state): the caller copies each column through it.
 */
function csrAppend(start: Int32Array, from: number, to: number, src: readonly number[]): Int32Array | null {
  const base = start[from];
  const count = src.length;
  let sorted = true;
  for (let k = 1; k < count && sorted; k++) if (src[k] < src[k - 1]) sorted = false;
  if (sorted) {
    let k = 0;
    for (let q = from; q < to; q++) {
      start[q] = base + k;
      while (k < count && src[k] === q) k++;
    }
    start[to] = base + count;
    return null;
  }
  const width = to - from;
  if (rowScratch.length < width + 1) rowScratch = new Int32Array(Math.max(width + 1, rowScratch.length * 2));
  const rows = rowScratch;
  rows.fill(0, 0, width + 1);
  for (let k = 0; k < count; k++) rows[src[k] - from + 1]++;
  for (let i = 0; i < width; i++) rows[i + 1] += rows[i];
  for (let q = from; q <= to; q++) start[q] = base + rows[q - from];
  if (orderScratch.length < count) orderScratch = new Int32Array(Math.max(count, orderScratch.length * 2));
  const order = orderScratch;
  // rows[i] is now where row i starts: fill it up
  for (let k = 0; k < count; k++) order[rows[src[k] - from]++] = k;
  return order;
}

/** Writes `src` (in the order `order` gives, or as is) after the first `base` entries of a column. */
function putColumn<T extends Int32Array | Uint8Array>(
  col: T,
  base: number,
  src: readonly number[],
  order: Int32Array | null,
): T {
  const count = src.length;
  const out = grow(col, base + count);
  if (order === null) for (let k = 0; k < count; k++) out[base + k] = src[k];
  else for (let k = 0; k < count; k++) out[base + k] = src[order[k]];
  return out;
}

/** A lazily built rule frame with no references and no special tokens, as built: states relative to its start. */
interface BuiltFrame {
  states: number;
  byteFrom: Int32Array;
  byteLo: Uint8Array;
  byteHi: Uint8Array;
  byteTo: Int32Array;
  epsFrom: Int32Array;
  epsTo: Int32Array;
  /** Each state's canonical number in the frame (-1: not reached from its start), as `numberFrames` gave it. */
  canon?: Int32Array;
}
/**
 * Self-contained lazy rule frames already built, by structural key, for every grammar of the process: a bounded
 * number (`"page": ` with `minimum: 1` spells its bound in about 1,000 states) is the same frame in many tool sets, and
 * a copy of its tables costs a fraction of building it. Its construction depends only on its structure (no
 * reference, no special token), so the copy is the NFA the build would make, state for state and edge for edge.
 * Bounded (a few hundred distinct numbers and enums), the least recently used dropped first.
 */
const builtFrames = new BoundedMap<string, BuiltFrame>({ maxEntries: 512, order: "use" });

/** Thrown by Nfa.ensureFrame where a deferred grammar would be built whole while `holdDeferred` is set. */
export const DEFERRED_HOLD = new Error("deferred grammar held");

/** At most this many closure keys are made with a (small) grammar's NFA; the others when first asked for. */
const EAGER_CLOSURE_KEYS = 16;
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

/** Above this many estimated NFA states for the whole grammar, large alternatives are built lazily. */
const LAZY_GRAMMAR_STATES = 16_384;
/** An alternation larger than this (estimated states) in a large grammar is built as a lazy trie (`lazyAlt`). */
const LAZY_ALT_STATES = 1024;
/** In a large grammar, a rule frame (not the root, not one bounding the construction's depth) larger than this is built when first entered. */
const LAZY_RULE_STATES = 64;
/** In a lazy trie, the rest of one alternative larger than this becomes a lazy frame; a smaller one is inlined. */
const LAZY_TAIL_STATES = 8;

/**
 * Assign each state its frame and a breadth-first index from the frame's start (edges in construction order), which
 * is the same for two frames built from the same structure. A frame with calls or atoms loses its key.
 */
/** Numbers the unvisited targets of state q's edges (CSR `starts`/`tos`) into frame f from `k` on; returns the next number. */
function enqueueTargets(
  starts: Int32Array,
  tos: Int32Array,
  q: number,
  f: number,
  k: number,
  frame: Int32Array,
  canon: Int32Array,
  queue: number[],
): number {
  for (let e = starts[q]; e < starts[q + 1]; e++) {
    const t = tos[e];
    if (frame[t] < 0) {
      frame[t] = f;
      canon[t] = k++;
      queue.push(t);
    }
  }
  return k;
}

function numberFrames(
  nfa: Nfa,
  fromState: number,
  started: readonly number[],
  copied: ReadonlyMap<number, BuiltFrame>,
): void {
  const n = nfa.stateCount;
  const frame = grow(nfa.stateFrame, n);
  const canon = grow(nfa.stateCanon, n);
  frame.fill(-1, fromState, n);
  canon.fill(-1, fromState, n);
  // only frames started since the last numbering (their states are all new: a frame's states are made together)
  for (const f of started) {
    const start = nfa.frameStart[f];
    const copy = copied.get(f)?.canon;
    if (copy !== undefined) {
      // a copy of a recorded build: the same states and edges in the same order, so the same numbering (and pure)
      for (let k = 0; k < copy.length; k++) {
        canon[start + k] = copy[k];
        if (copy[k] >= 0) frame[start + k] = f;
      }
      continue;
    }
    let k = 0;
    const queue = [start];
    frame[start] = f;
    canon[start] = k++;
    let pure = true;
    // breadth-first over byte, epsilon, call-return and atom edges, in that order (a plain function, not a closure
    // per state: this runs for every NFA state)
    for (let h = 0; h < queue.length; h++) {
      const q = queue[h];
      k = enqueueTargets(nfa.byteStart, nfa.byteTo, q, f, k, frame, canon, queue);
      k = enqueueTargets(nfa.epsStart, nfa.epsTo, q, f, k, frame, canon, queue);
      if (nfa.callStart[q] < nfa.callStart[q + 1] || nfa.atomStart[q] < nfa.atomStart[q + 1]) pure = false;
      k = enqueueTargets(nfa.callStart, nfa.callTo, q, f, k, frame, canon, queue);
      k = enqueueTargets(nfa.atomStart, nfa.atomTo, q, f, k, frame, canon, queue);
    }
    if (!pure) nfa.frameKey[f] = undefined;
    nfa.statesNumbered += queue.length;
  }
  nfa.stateFrame = frame;
  nfa.stateCanon = canon;
}

/**
 * A character class's UTF-8 byte-range sequences, per class object for every grammar of the process: the free text's
 * classes (built once per format's marker, `textWithout`) and the lowering's spelled classes are the same objects in
 * every compile, and their sequences were a twentieth of a 20-tool set's NFA construction.
 */
const classSeqs = new WeakMap<readonly number[], number[][]>();
let classesSequenced = 0;
/** Character classes turned into UTF-8 byte-range sequences by this process (each class object once). */
export function classesSequencedCount(): number {
  return classesSequenced;
}

const keys = new WeakMap<GExpr, string>();
/** A canonical text of an expression, so that equal sub-expressions built as different objects share a frame. */
function structuralKey(e: GExpr): string {
  return cachedKey(e, keys);
}

/** Above this many NFA states for all copies of a repetition's item, its copies call one frame. */
const REPEAT_COPY_LIMIT = 8192;

const inlineMemo = new WeakMap<GExpr, number>();
/** `estimateStates` with every reference counting one state (a call). */
function inlineStates(e: GExpr): number {
  return estimateStates(e, () => 1, inlineMemo);
}

/** One character: a class or a one-code-point literal (reads one character and nothing else). */
function isStep(e: GExpr): boolean {
  return e.type === "charClass" || (e.type === "literal" && [...e.text].length === 1);
}

/** An unbounded loop over a class of more than 256 code points (string content and the like). */
function isWideLoop(e: GExpr): boolean {
  if (e.type !== "repeat" || e.max !== null) return false;
  return hasWideClass(e.item);
}

function hasWideClass(x: GExpr): boolean {
  if (x.type === "charClass") {
    let n = 0;
    for (let i = 0; i < x.ranges.length; i += 2) n += x.ranges[i + 1] - x.ranges[i] + 1;
    return n > 256;
  }
  if (x.type === "alt" || x.type === "seq") return x.items.some(hasWideClass);
  if (x.type === "repeat") return hasWideClass(x.item);
  return false;
}

const withTokens = new WeakMap<GExpr, boolean>();
/** The expression has a special-token node. */
function hasTokens(e: GExpr): boolean {
  return foldExpr<boolean>(e, (x, kids) => x.type === "token" || kids.some(Boolean), withTokens);
}
