import type { Deadline } from "../Deadline.js";
import { LimitExceededError } from "../errors.js";
import { isNullable } from "../grammar/analysis/nullable.js";
import { isProductive } from "../grammar/analysis/productive.js";
import { hasRefs } from "../grammar/analysis/refs.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";
import { type BuiltFrame, builtFrames } from "./builtFrames.js";
import { csrAppend, grow, putColumn } from "./csrColumns.js";
import { structuralKey } from "./exprShape.js";
import { analyzeRules, estimateStates, type RuleAnalysis } from "./frameRules.js";
import { IntPairMap } from "./IntPairMap.js";
import type { Nfa, NfaOptions } from "./Nfa.js";
import { LAZY_CEILING_FACTOR } from "../options.js";
import { numberFrames } from "./numberFrames.js";
import { RepeatCopies, type RunRecord } from "./RepeatCopies.js";

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
const NO_RULES: ReadonlySet<string> = new Set();
const utf8 = new TextEncoder();

/** The rules being inlined around a piece of the construction, innermost first. */
export interface Inlining {
  rule: string;
  outer: Inlining | null;
}

/** A piece of the Thompson construction: `e` between `from` and `to`, inside the inlined rules `inl`. */
export interface Task {
  e: GExpr;
  from: number;
  to: number;
  inl: Inlining | null;
  /** A copy of a bounded repetition's item, recorded as it is built (see RepeatCopies). */
  run?: RunRecord;
}

/** Above this many estimated NFA states for the whole grammar, large alternatives are built lazily. */
const LAZY_GRAMMAR_STATES = 16_384;
/** An alternation larger than this (estimated states) in a large grammar is built as a lazy trie (`lazyAlt`). */
/**
 * The key prefix of a text frame that ends a branch after a chain (`textFrame(loop, TAIL_FRAME)`: the content of a key
 * other than an object's names, of a string with a minimum length): reached only after that chain, so the first
 * mask does not compute its masks ahead (MaskTable.warmSharedFrames).
 */
export const TAIL_FRAME = "tail";

export const LAZY_ALT_STATES = 1024;
/** In a large grammar, a rule frame (not the root, not one bounding the construction's depth) larger than this is built when first entered. */
export const LAZY_RULE_STATES = 64;

/**
 * The state of one NFA's construction, kept while the NFA lives (lazy frames are built while decoding): the grammar's
 * analysis, the states and edges made since the last flush, the frames and their bodies, and the tables that share
 * states between chains. `thompsonStep` builds expressions with it; `buildNfa` drives it and hands out the `Nfa`.
 */
export class NfaBuilder {
  /** The budget of the construction; a lazy build swaps in what is left of the compile's steps. */
  deadline: Deadline | undefined;
  readonly tokenOk: (text: string) => boolean;
  // the reference graph, frames and productive rules from one walk of every rule body
  readonly graph: RuleAnalysis["graph"];
  readonly frames: string[];
  readonly ruleSize: Map<string, number>;
  readonly sharing: Set<string>;
  readonly productiveRule: Set<string>;
  readonly bodySize: (rule: string) => number;
  readonly tokenRules: Set<string>;
  readonly recursive: ReadonlySet<string>;
  readonly loopsBeforeLiterals: GExpr[];
  /** Small grammars are built whole (one automaton, no frame boundaries); large ones lazily (see Nfa.deferred). */
  readonly large: boolean;
  lazy: boolean;
  /** Synthesized frames: a wide loop and the literal that closes it (a string's content and closing quote). */
  readonly sharedFrames = new Map<string, number>();
  /** Frames whose start and end states were made since the last flush (which numbers their states). */
  readonly started: number[] = [];
  /** Frames copied since the last flush from a recorded build, whose numbering is the recorded one. */
  readonly copied = new Map<number, BuiltFrame>();
  readonly frameBodies: GExpr[] = [];
  readonly pendingFrames: number[] = [];
  readonly sharedKeys: (string | undefined)[] = [];
  /** Per frame: the expressions its closure key is made of (see Nfa.frameKeyOf), when it may have one. */
  readonly closureRoots: (readonly GExpr[] | undefined)[] = [];
  /** frameKeyOf's answers: null when the frame has none. */
  readonly closureKeys: (string | null | undefined)[] = [];
  readonly frameIndex: Map<string, number>;
  readonly frameNames: string[];
  readonly frameStart: number[] = [];
  readonly frameEnd: number[] = [];
  readonly atomTexts: string[];
  readonly atomIndex: Map<string, number>;
  readonly bytes = new Edges();
  readonly eps = new Edges();
  readonly calls = new Edges();
  readonly atoms = new Edges();
  /** States made so far. */
  n = 0;
  private readonly productiveMemo = new Map<GExpr, boolean>();
  private readonly nullableMemo = new Map<GExpr, boolean>();
  // A chain's inner state only reads the rest of its chain into `to`, so chains with the same rest and target share
  // it: the UTF-8 tails of a character class ([80-BF][80-BF] → to ...) are built once per target, not once per
  // lead-byte range (a bounded repetition of a string character builds several times fewer states).
  private readonly tails = new IntPairMap();
  /** Chain states of exact repetitions, keyed by (item, next state): see thompsonStep's repeat case. */
  readonly repeatTails = new IntPairMap();
  /** The copies of bounded repetitions built alike (see RepeatCopies). */
  readonly repeatCopies = new RepeatCopies();
  /** A small number per distinct repeated item (by structural key), for the numeric keys of `repeatTails`. */
  readonly repeatItems = new Map<string, number>();
  private readonly literalSeqs = new Map<string, number[]>();
  /**
   * Lazy frames: the rest of a large alternative after its first literal (a tool's arguments after its name). Built
   * when the automaton first enters them, so a matcher grows with the alternatives a decoding reaches, not with the
   * sum of all of them. Keyed by the expression object (dedupeRules already made equal tools share one rule).
   */
  private readonly lazyFrames = new Map<GExpr, number>();
  /** The rests of long repetitions (see repeatRest), by item and counts. */
  private readonly repeatRests = new Map<string, GExpr>();
  readonly lazyBody = new Map<number, GExpr>();
  /**
   * Lazy frames that read a literal (the rest of a tool's name and `", "arguments": `) and then call the lazy frame
   * of `lazyBody` (the arguments): a token that completes a name reads only the literal, so choosing among the tools
   * still possible builds their names, not their arguments, which are built when a decoding reads past the literal.
   */
  readonly lazyHead = new Map<number, string>();
  /** Rule frames of a large grammar built when first entered, like the lazy frames. */
  readonly lazyRule = new Map<number, string>();
  private readonly sizeMemo = new Map<GExpr, number>();
  /**
   * In a small grammar, the alternations lazyAlt would build as a trie in a large one that sit next to a special
   * token (the tools of a turn after `<tool_call>`; not a JSON value's choices, nor a recursive rule's): the first
   * mask needs their shared prefixes only (the tools' names up to where one tool is left). Such a rule reaches a
   * special token, so no closure key covers it, and every keyed frame is built as in a grammar built whole.
   */
  readonly deferAlts = new Set<GExpr>();
  readonly deferred: boolean;
  /** Set by firstMaskDone on a deferred grammar: the next frame entered builds every frame left (see Nfa.deferred). */
  buildRestAtNextFrame = false;
  /**
   * Free text frames (see thompsonStep's seq case), by structural key: computed once per vocabulary and shared by
   * every grammar with the same text, whatever its tools.
   */
  private readonly textFrames = new Map<string, number>();
  /** Synthesized frames for the item of a long bounded repetition (a string character under a large maxLength). */
  private readonly itemFrames = new Map<string, number>();
  readonly itemBody = new Map<number, GExpr>();
  // Thompson construction as a worklist (expressions and chains of inlined rules can nest deeper than the call stack)
  readonly tasks: Task[] = [];
  // one queue of parts and one `sub` for every step (a closure per step was a noticeable part of building the NFA);
  // a step's parts are the queue's entries from where it started
  readonly later: Task[] = [];
  stepInl: Inlining | null = null;
  /** The NFA handed out, its tables appended to by `flush` (set by buildNfa right after construction). */
  nfa!: Nfa;
  /** Set once the construction is over: a closure key made after it is counted (closureKeysLate). */
  built = false;
  /** Making the eager closure keys (not counted as late). */
  eagerKeys = false;

  constructor(
    readonly g: Grammar,
    readonly opts: NfaOptions,
  ) {
    this.deadline = opts.deadline;
    this.tokenOk = (text: string): boolean =>
      opts.specialTokens === "token-or-text" || opts.availableAtoms === undefined || opts.availableAtoms.has(text);
    const a = analyzeRules(g, this.tokenOk, this.deadline);
    this.graph = a.graph;
    this.frames = a.frames;
    this.ruleSize = a.size;
    this.sharing = a.sharing;
    this.productiveRule = a.productive;
    this.bodySize = a.bodySize;
    this.tokenRules = a.tokenRules;
    this.recursive = a.recursive;
    this.loopsBeforeLiterals = a.loopsBeforeLiterals;
    this.large = (this.ruleSize.get(g.root) ?? 0) > LAZY_GRAMMAR_STATES;
    this.lazy = this.large;
    this.frameIndex = new Map(this.frames.map((n, i) => [n, i]));
    this.frameNames = [...this.frames];
    // every special token's text indexed before any state is built: a mask table maps the vocabulary's special tokens
    // to these when it is made, and a lazily built frame (a tool set's envelope) may be the first to use one
    this.atomTexts = [...a.tokenTexts];
    this.atomIndex = new Map<string, number>(this.atomTexts.map((t, i) => [t, i]));
    if (!this.large) {
      for (const { rule, alt } of a.wideAlts)
        if (this.tokenRules.has(rule) && !this.recursive.has(rule) && this.sizeOf(alt) > LAZY_ALT_STATES)
          this.deferAlts.add(alt);
    }
    this.deferred = this.deferAlts.size > 0;
    if (this.deferred) this.lazy = true;
  }

  newState(): number {
    // a part built lazily while decoding has a far higher ceiling (see LAZY_CEILING_FACTOR)
    const cap = this.built ? this.opts.maxStates * LAZY_CEILING_FACTOR : this.opts.maxStates;
    if (this.n >= cap) {
      throw new LimitExceededError(
        "LIMIT_AUTOMATON_SIZE",
        `the grammar needs more than ${cap} automaton states; lower repetition bounds or raise limits.maxAutomatonStates`,
      );
    }
    this.deadline?.tick(STAGE);
    return this.n++;
  }

  /**
   * `e` may derive the empty text: an item that refers to rules is taken as such (finding the grammar's nullable rules
   * would be a walk of every rule, for a few repetitions of references).
   */
  mayBeEmpty(e: GExpr): boolean {
    return hasRefs(e) || isNullable(e, NO_RULES, this.nullableMemo);
  }

  productive(e: GExpr): boolean {
    return isProductive(e, this.productiveRule, this.tokenOk, this.productiveMemo);
  }

  sizeOf(e: GExpr): number {
    return estimateStates(e, (r) => (this.frameIndex.has(r) ? 1 : (this.ruleSize.get(r) ?? 1)), this.sizeMemo);
  }

  // Built from the end, keyed by (byte range, next state): the same sharing as keying by the whole rest of the chain,
  // with short keys (whole-rest keys made every long literal quadratic to build).
  bytesChain(from: number, to: number, seq: readonly number[]): void {
    let next = to;
    for (let k = seq.length - 2; k >= 2; k -= 2) {
      // numbers, not a string (one per chain state built)
      const range = (seq[k] << 8) | seq[k + 1];
      let st = this.tails.get(range, next);
      if (st < 0) {
        st = this.newState();
        this.tails.set(range, next, st);
        this.bytes.add(st, seq[k], seq[k + 1], next);
      }
      next = st;
    }
    this.bytes.add(from, seq[0], seq[1], next);
  }

  literal(from: number, to: number, text: string): void {
    let seq = this.literalSeqs.get(text);
    if (!seq) {
      seq = [];
      for (const b of utf8.encode(text)) seq.push(b, b);
      this.literalSeqs.set(text, seq);
    }
    if (seq.length === 0) this.eps.add(from, 0, 0, to);
    else this.bytesChain(from, to, seq);
  }

  /** Queues a part of the step being built (see `thompsonStep`'s `step`). */
  readonly sub = (x: GExpr, a: number, b: number, i: Inlining | null = this.stepInl): void => {
    this.later.push({ e: x, from: a, to: b, inl: i });
  };

  /** A new frame whose start and end states are made now and whose body is built by the next `buildPending`. */
  private startFrame(label: string): number {
    const fi = this.frameNames.length;
    this.frameNames.push(`(${label} ${this.frameNames.length})`);
    return fi;
  }

  private pendFrame(fi: number): void {
    this.started.push(fi);
    this.frameStart.push(this.newState());
    this.frameEnd.push(this.newState());
    this.pendingFrames.push(fi);
  }

  sharedFrame(loop: GExpr, close: GExpr): number {
    const key = `${structuralKey(loop)}|${structuralKey(close)}`;
    let fi = this.sharedFrames.get(key);
    if (fi === undefined) {
      // once per distinct frame, not per place that calls it
      const local = hasRefs(loop) || hasRefs(close);
      fi = this.startFrame("shared");
      this.frameBodies[fi] = { type: "seq", items: [loop, close] };
      this.pendFrame(fi);
      this.sharedFrames.set(key, fi);
      // a reference names a rule of this grammar: such a frame is keyed by the rules it reaches (frameKeyOf)
      if (!local) this.sharedKeys[fi] = key;
      else this.closureRoots[fi] = [loop, close];
    }
    return fi;
  }

  /**
   * The lazy frame of `item{min,max}`, the rest of a long repetition after its first chunk of copies (see
   * thompsonStep's REPEAT_CHUNK): one per item and counts, so equal strings (`maxLength` alike) share their rests.
   */
  repeatRest(item: GExpr, min: number, max: number | null): number {
    const key = `${structuralKey(item)}|${min}|${max}`;
    let rest = this.repeatRests.get(key);
    if (rest === undefined) this.repeatRests.set(key, (rest = { type: "repeat", item, min, max }));
    return this.lazyFrame(rest);
  }

  lazyFrame(rest: GExpr, head = ""): number {
    let fi = head === "" ? this.lazyFrames.get(rest) : undefined;
    if (fi === undefined) {
      fi = this.startFrame("lazy");
      this.lazyBody.set(fi, rest);
      this.frameStart.push(-1);
      this.frameEnd.push(-1);
      if (head === "") this.lazyFrames.set(rest, fi);
      else this.lazyHead.set(fi, head);
    }
    return fi;
  }

  /**
   * Free text: a leading run of ref-free, token-free items that starts with a wide loop and is followed by a part
   * with references or special tokens (the text before a turn's calls). Its own frame, keyed by its structure, so
   * that its masks (almost the whole vocabulary, a walk of the whole token trie) are computed once per vocabulary
   * and shared by every grammar with the same text, whatever its tools.
   */
  textFrame(body: GExpr, kind: "text" | typeof TAIL_FRAME = "text"): number {
    const key = `${kind}|${structuralKey(body)}`;
    let fi = this.textFrames.get(key);
    if (fi === undefined) {
      fi = this.startFrame("text");
      this.itemBody.set(fi, body);
      this.pendFrame(fi);
      this.textFrames.set(key, fi);
      this.sharedKeys[fi] = key;
    }
    return fi;
  }

  itemFrame(item: GExpr): number {
    const key = `item|${structuralKey(item)}`;
    let fi = this.itemFrames.get(key);
    if (fi === undefined) {
      fi = this.startFrame("repeated");
      this.itemBody.set(fi, item);
      this.pendFrame(fi);
      this.itemFrames.set(key, fi);
    }
    return fi;
  }

  /**
   * Records the frame just built from `base` on (its start and end are base and base + 1) in `builtFrames` when it is
   * self-contained: every state made since `base` is its, it made no frame, and every edge is a byte or epsilon edge
   * between its states (the edge lists hold only this build's edges: a lazy build follows a flush).
   */
  keepFrame(key: string, base: number): BuiltFrame | undefined {
    const { bytes, eps, n } = this;
    if (this.calls.from.length > 0 || this.atoms.from.length > 0) return undefined;
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
  }

  /** Appends a recorded frame's states after `base` (its start; base + 1 its end, both made) and its edges, in their order. */
  copyFrame(c: BuiltFrame, base: number): void {
    for (let k = 2; k < c.states; k++) this.newState();
    for (let k = 0; k < c.byteFrom.length; k++)
      this.bytes.add(base + c.byteFrom[k], c.byteLo[k], c.byteHi[k], base + c.byteTo[k]);
    for (let k = 0; k < c.epsFrom.length; k++) this.eps.add(base + c.epsFrom[k], 0, 0, base + c.epsTo[k]);
  }

  /** Appends the states made since the last flush, and their edges, to the NFA's tables. */
  flush(): void {
    const { nfa, n, bytes, eps, calls, atoms } = this;
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
    for (const f of this.started) nfa.isEnd[this.frameEnd[f]] = 1;
    for (let f = nfa.frameKey.length; f < this.frameNames.length; f++) nfa.frameKey.push(this.sharedKeys[f]);
    nfa.stateCount = n;
    numberFrames(nfa, from, this.started, this.copied);
    this.started.length = 0;
    this.copied.clear();
  }
}
