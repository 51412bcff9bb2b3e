import { ToolgramError } from "../errors.js";
import { hasRefs } from "../grammar/analysis/refs.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";
import { type BuiltFrame, builtFrames } from "./builtFrames.js";
import { closureKey } from "./closureKey.js";
import { hasTokens, isWideLoop, structuralKey } from "./exprShape.js";
import type { Nfa, NfaOptions } from "./Nfa.js";
import { LAZY_RULE_STATES, NfaBuilder } from "./NfaBuilder.js";
import { build } from "./thompsonStep.js";

/** Thrown by Nfa.ensureFrame where a deferred grammar would be built whole while `holdDeferred` is set. */
export const DEFERRED_HOLD = new Error("deferred grammar held");

/** At most this many closure keys are made with a (small) grammar's NFA; the others when first asked for. */
const EAGER_CLOSURE_KEYS = 16;

/**
 * The grammar's NFA (see `Nfa`): its rule frames built now, or, in a large or deferred grammar, the parts a decoding
 * reaches first, the rest when it first enters them (`Nfa.ensureFrame`).
 */
export function buildNfa(g: Grammar, opts: NfaOptions): Nfa {
  const b = new NfaBuilder(g, opts);
  for (const [name, refs] of b.graph) {
    const missing = refs.find((r) => !g.rules.has(r));
    if (missing !== undefined)
      throw new ToolgramError("INVALID_INPUT", `rule "${name}" references an undefined rule "${missing}"`);
  }
  if (!g.rules.has(g.root)) throw new ToolgramError("INVALID_INPUT", `grammar has no root rule "${g.root}"`);
  const { frames, frameStart, frameEnd, productiveRule, sharing, bodySize } = b;
  frames.forEach((name, i) => (b.closureRoots[i] = [{ type: "ref", rule: name }]));
  for (const [i, name] of frames.entries()) {
    const ok = productiveRule.has(name);
    // a lazily built rule frame gets its states when it is built (a flush appends only states made since the last)
    const now = ok && !(b.lazy && sharing.has(name) && bodySize(name) > LAZY_RULE_STATES);
    if (now) b.started.push(i);
    frameStart.push(now ? b.newState() : -1);
    frameEnd.push(now ? b.newState() : -1);
  }
  frames.forEach((name, i) => {
    if (!productiveRule.has(name)) return;
    // in a large grammar, a rule frame other than the root is built when first entered, like the lazy frames
    if (b.lazy && sharing.has(name) && bodySize(name) > LAZY_RULE_STATES) b.lazyRule.set(i, name);
    else build(b, g.rules.get(name)!, frameStart[i], frameEnd[i], { rule: name, outer: null });
  });
  if (b.lazy) {
    // The string-like frames of a large grammar's lazy parts (a string's content in a tool's arguments), built now
    // rather than with the first part that calls them: a few frames, one per distinct content, so that the first mask
    // can compute their local masks (nearly the whole vocabulary, once per process: MaskTable.warmSharedFrames)
    // before a decoding reaches its first string. A lazy part built later calls the same frame (sharedFrame's key).
    const loops = b.loopsBeforeLiterals;
    for (let k = 0; k < loops.length; k += 2) {
      const loop = loops[k];
      const after = loops[k + 1] as { type: "literal"; text: string };
      if (!isWideLoop(loop) || hasRefs(loop) || hasTokens(loop)) continue;
      const first = String.fromCodePoint(after.text.codePointAt(0)!);
      b.sharedFrame(loop, first === after.text ? after : { type: "literal", text: first });
    }
  }
  buildPending(b);
  b.nfa = newNfa(b);
  b.flush();
  if (!b.lazy) makeEagerClosureKeys(b);
  b.built = true;
  return b.nfa;
}

/** The NFA object, empty (the first flush fills its tables), its methods building and keying frames with `b`. */
function newNfa(b: NfaBuilder): Nfa {
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
    frameNames: b.frameNames,
    frameKey: [],
    stateFrame: new Int32Array(0),
    stateCanon: new Int32Array(0),
    repeatCopies: b.repeatCopies,
    frameStart: b.frameStart,
    frameEnd: b.frameEnd,
    isEnd: new Uint8Array(0),
    atomTexts: b.atomTexts,
    framesCopied: 0,
    statesNumbered: 0,
    closureKeysLate: 0,
    lazy: b.lazy,
    deferred: b.deferred,
    holdDeferred: false,
    firstMaskDone: () => {
      if (nfa.deferred) b.buildRestAtNextFrame = true;
    },
    frameKeyOf: (f) => frameKeyOf(b, f),
    ensureFrame: (f) => ensureFrame(b, f),
    buildAll: () => buildAll(b),
  };
  return nfa;
}

/** Builds the frames made since the last call: synthesized frames (shared, text, repeated items). */
function buildPending(b: NfaBuilder): void {
  const { pendingFrames, frameStart, frameEnd } = b;
  while (pendingFrames.length) {
    const fi = pendingFrames.pop()!;
    const body = b.itemBody.get(fi);
    if (body !== undefined) {
      build(b, body, frameStart[fi], frameEnd[fi]);
      continue;
    }
    // built item by item: going through the seq case would call this very frame again
    const [loop, close] = (b.frameBodies[fi] as { items: GExpr[] }).items;
    const mid = b.newState();
    build(b, loop, frameStart[fi], mid);
    build(b, close, mid, frameEnd[fi]);
  }
}

/** Nfa.frameKeyOf: the frame's eager key, else its closure key, made on first ask. */
function frameKeyOf(b: NfaBuilder, f: number): string | undefined {
  const nfa = b.nfa;
  const eager = nfa.frameKey[f];
  if (eager !== undefined) return eager;
  let k = b.closureKeys[f];
  if (k === undefined) {
    const roots = b.closureRoots[f];
    // (null first: a loop's key may ask for its rule's, never the other way round, but a cycle must not recurse)
    b.closureKeys[f] = null;
    b.closureKeys[f] = k = (roots === undefined ? undefined : closureKey(b, roots, f >= b.frames.length)) ?? null;
    if (b.built && !b.eagerKeys && roots !== undefined) nfa.closureKeysLate++;
  }
  return k ?? undefined;
}

/** Nfa.ensureFrame: builds lazy frame `f` (or, in a deferred grammar, everything left) and returns its start. */
function ensureFrame(b: NfaBuilder, f: number): number {
  const { nfa, frameStart, frameEnd } = b;
  const body = b.lazyBody.get(f);
  const rule = b.lazyRule.get(f);
  if (body === undefined && rule === undefined) return frameStart[f];
  if (nfa.deferred && (b.buildRestAtNextFrame || body !== undefined)) {
    // (before anything is built: the automaton stores nothing of the step this stops)
    if (nfa.holdDeferred) throw DEFERRED_HOLD;
    // a deferred grammar past its first mask, or entering one of its alternatives (a tool chosen, or reached by
    // the first mask's prefetch where a call is required): this frame, then every other, in this one step
    nfa.deferred = false;
    b.buildRestAtNextFrame = false;
    const start = nfa.ensureFrame(f);
    nfa.buildAll();
    makeEagerClosureKeys(b);
    return start;
  }
  // a lazy build runs while decoding: the compile's step budget is over, and a refusal now would fail a generation
  // under way; each part is built once, under the far higher ceiling of NfaBuilder.newState
  b.deadline = undefined;
  b.lazyBody.delete(f);
  b.lazyRule.delete(f);
  let kept: BuiltFrame | undefined;
  b.started.push(f);
  frameStart[f] = b.newState();
  frameEnd[f] = b.newState();
  const head = b.lazyHead.get(f);
  if (head !== undefined) {
    // the literal, then a call of the rest's own lazy frame (made here, built when first entered)
    b.lazyHead.delete(f);
    const mid = b.newState();
    b.literal(frameStart[f], mid, head);
    b.calls.add(mid, b.lazyFrame(body!), 0, frameEnd[f]);
  } else if (rule !== undefined) {
    const ruleBody = b.g.rules.get(rule)!;
    const key = b.graph.get(rule)!.length > 0 || b.tokenRules.has(rule) ? undefined : structuralKey(ruleBody);
    // most recently used last: the table drops its least recently used frame when full
    const copy = key === undefined ? undefined : builtFrames.get(key);
    if (copy !== undefined) {
      b.copyFrame(copy, frameStart[f]);
      b.copied.set(f, copy);
      nfa.framesCopied++;
    } else {
      const framesBefore = b.frameNames.length;
      build(b, ruleBody, frameStart[f], frameEnd[f], { rule, outer: null });
      if (key !== undefined && b.frameNames.length === framesBefore) kept = b.keepFrame(key, frameStart[f]);
    }
  } else build(b, body!, frameStart[f], frameEnd[f]);
  buildPending(b);
  b.flush();
  // its numbering too, so that a copy is numbered without a walk
  if (kept !== undefined) kept.canon = nfa.stateCanon.slice(frameStart[f], frameStart[f] + kept.states);
  return frameStart[f];
}

/** Nfa.buildAll: every lazy frame, until none is left. */
function buildAll(b: NfaBuilder): void {
  const nfa = b.nfa;
  // frames made while building others are lazy too: until none is left
  const wasDeferred = nfa.deferred;
  nfa.deferred = false;
  b.buildRestAtNextFrame = false;
  while (b.lazyBody.size + b.lazyRule.size > 0)
    for (const f of [...b.lazyBody.keys(), ...b.lazyRule.keys()]) nfa.ensureFrame(f);
  // built whole now: the closure keys a whole grammar makes with its NFA
  if (wasDeferred) makeEagerClosureKeys(b);
}

// the keys of rule frames (a schema's any-value rule, a number used in several places) and of the loops that call
// them, made with the NFA rather than at the first mask that needs them: a walk that enters such a frame at a large
// trie subtree asks for its key (MaskWalk.subtreeMask), and a value position's cold mask was otherwise mostly this
// key (the text of the frame's rules), 20–35 µs of a 45–55 µs step. Recursive rules first: their masks are the
// largest. A deferred grammar makes them when it is built whole (its first mask needs none).
function makeEagerClosureKeys(b: NfaBuilder): void {
  const { closureRoots, frames, recursive } = b;
  b.eagerKeys = true;
  let budget = EAGER_CLOSURE_KEYS;
  for (const pass of [true, false]) {
    for (let f = 0; f < b.frameNames.length && budget > 0; f++) {
      const roots = closureRoots[f];
      if (
        roots === undefined ||
        (f < frames.length ? recursive.has(frames[f]) !== pass : !pass || !roots.some(hasRefs))
      )
        continue;
      b.nfa.frameKeyOf(f);
      budget--;
    }
  }
  b.eagerKeys = false;
}
