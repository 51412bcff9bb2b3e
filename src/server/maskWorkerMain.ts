import { parentPort, workerData } from "node:worker_threads";
import { createMatcher } from "../automaton/createMatcher.js";
import type { TokenMatcher } from "../automaton/TokenMatcher.js";
import type { CompileBudget } from "../Deadline.js";
import { ToolgramError } from "../errors.js";
import { IdleWarmer, warmMoved } from "./idleWarm.js";
import type { Grammar } from "../grammar/Grammar.js";
import { type PieceInput, TOKEN_ATOM, TOKEN_TEXT, Vocabulary } from "../vocab/Vocabulary.js";
import {
  COMPLETED,
  FLAG,
  type MaskOp,
  type MaskShared,
  type MaskWorkerData,
  GENERATIONS,
  NARROWED,
  WARM_SLICES,
  REFUSED,
  STATUS,
  TEXT_LENGTH,
  type VocabularyData,
  viewMaskShared,
  writeText,
} from "./maskShared.js";

/**
 * A mask worker's entry: it owns the matchers of the generations the event loop gives it, and computes their masks,
 * so that a cold mask (a new tool set's first states, a deep recursive schema's new stacks) holds this thread, not
 * the event loop that streams every other request's tokens. Each operation answers through the matcher's shared
 * block (maskShared.ts).
 */
const data = workerData as MaskWorkerData;
const vocab = vocabularyFrom(data);
/** The engine's counters (maskShared.ts; none given: warming is never held back). */
const engine = data.engine === undefined ? undefined : new Int32Array(data.engine);
const words = Math.ceil(vocab.size / 32);

interface GrammarEntry {
  readonly grammar: Grammar;
  readonly specialTokens: "token-or-text" | "token-only";
  readonly maxStates: number | undefined;
  readonly budget: CompileBudget;
}

interface Open {
  readonly mid: number;
  readonly matcher: TokenMatcher;
  readonly shared: MaskShared;
  readonly jumpForward: boolean;
  /**
   * A token accepted ahead threw (nobody waited for that answer): its error stays in the shared block and answers
   * every later operation, so that the event loop reads it when it settles.
   */
  failed?: boolean;
  /** The warm-ahead from the matcher's current position has more to do (set again by every accepted token). */
  ahead?: boolean;
}

const grammars = new Map<number, GrammarEntry>();
const matchers = new Map<number, Open>();

/**
 * Work of one warm-up slice between requests (TokenMatcher.warm's units). On the machine the bench ran on, a slice of
 * 512 took 0.1 ms at the median and 0.4 ms at p90 while the 117-tool set was warmed; a request that arrives meanwhile
 * is served once the slice under way ends.
 */
const IDLE_WARM_SLICE = 512;
/**
 * Work of one warm-ahead slice (TokenMatcher.warmAhead). Larger than IDLE_WARM_SLICE because a position whose mask
 * needs more than a whole slice is left to its step, and those (a string met for the first time, a wide value) are
 * the tail the warm-ahead is for; 2,048 units are about 2.5 ms of a core on the machine of bench/big/results.md
 * ("Warming ahead of a generation"), half a small model's forward pass, which is when the worker waits for the next
 * token.
 */
const AHEAD_WARM_SLICE = 2048;
/**
 * After a matcher's first mask or step, it is warmed in slices while no request waits, and only while its
 * generation is the engine's only one running: a slice takes a core from the others' decoding and event loop (in
 * `bench:serve:gap`, warming beside a running stream widened its largest gap between tokens). First ahead of its
 * position (the masks its next steps need, TokenMatcher.warmAhead), then its grammar from the start (for the next
 * generations, TokenMatcher.warm).
 */
const idle = new IdleWarmer<Open>(
  IDLE_WARM_SLICE,
  (o, work) => {
    if (o.failed === true || matchers.get(o.mid) !== o) return false;
    if (engine !== undefined) Atomics.add(engine, WARM_SLICES, 1);
    return warmMoved(o.matcher, o, AHEAD_WARM_SLICE, work);
  },
  () => engine === undefined || Atomics.load(engine, GENERATIONS) <= 1,
);
/** `o` moved (opened, or a token accepted): warmed ahead of its new position, then from the start. */
const warmSoon = (o: Open): void => {
  o.ahead = true;
  idle.add(o);
};

function vocabularyFrom(d: VocabularyData): Vocabulary {
  const pieces: PieceInput[] = new Array(d.size).fill(null);
  for (let id = 0; id < d.size; id++) {
    if (d.kind[id] === TOKEN_TEXT) pieces[id] = d.bytes.subarray(d.offsets[id], d.offsets[id + 1]);
    else if (d.kind[id] === TOKEN_ATOM) pieces[id] = { special: true, text: d.atoms.get(id) ?? "" };
  }
  return Vocabulary.fromPieces(pieces, { eosTokenIds: d.eosTokenIds, size: d.size });
}

/** The answer is in the shared block: wake the event loop. */
function done(shared: MaskShared, status: number): void {
  Atomics.store(shared.ctrl, STATUS, status);
  Atomics.add(shared.ctrl, FLAG, 1);
  Atomics.notify(shared.ctrl, FLAG);
}

function failed(shared: MaskShared, e: unknown): void {
  const error =
    e instanceof ToolgramError
      ? { kind: e.constructor.name, code: e.code, message: e.message, schemaPath: e.schemaPath }
      : { kind: "Error", code: "INTERNAL", message: e instanceof Error ? e.message : String(e), schemaPath: "" };
  writeText(shared, JSON.stringify(error));
  done(shared, 2);
}

/** What the event loop reads without asking: the forced continuation (with jump-forward) and completeness. */
function position(o: Open): void {
  writeText(o.shared, o.jumpForward ? o.matcher.forcedText() : "");
  o.shared.ctrl[COMPLETED] = o.matcher.isCompleted() ? 1 : 0;
}

/**
 * The next mask, computed as soon as the position is known, while the event loop samples the previous token's
 * successors or evaluates; not where a forced text is about to be appended token by token (each a quick answer the
 * event loop waits for).
 */
function ahead(o: Open): void {
  if (o.shared.ctrl[TEXT_LENGTH] > 0 && o.jumpForward) return;
  const started = performance.now();
  try {
    o.matcher.fillNextTokenBitmask(o.shared.mask);
  } catch {
    // thrown again, to the event loop, when this mask is asked for
    return;
  }
  o.shared.ms[0] = performance.now() - started;
}

function run(m: MaskOp): void {
  switch (m.op) {
    case "grammar":
      grammars.set(m.gid, {
        grammar: m.grammar as Grammar,
        specialTokens: m.specialTokens,
        maxStates: m.maxStates,
        budget: m.budget as CompileBudget,
      });
      return;
    case "drop":
      grammars.delete(m.gid);
      return;
    case "close":
      matchers.delete(m.mid);
      return;
    case "open": {
      const shared = viewMaskShared(m.buffer, words);
      try {
        const g = grammars.get(m.gid);
        if (g === undefined) throw new Error(`grammar ${m.gid} was not sent to the mask worker`);
        const maxStates = g.maxStates === undefined ? {} : { maxStates: g.maxStates };
        const matcher = createMatcher(g.grammar, vocab, { specialTokens: g.specialTokens, ...maxStates }, g.budget);
        const o = { mid: m.mid, matcher, shared, jumpForward: m.jumpForward };
        matchers.set(m.mid, o);
        shared.ms[0] = 0;
        position(o);
        done(shared, 1);
        ahead(o);
        warmSoon(o);
      } catch (e) {
        failed(shared, e);
      }
      return;
    }
    case "accept": {
      const o = matchers.get(m.mid);
      if (o === undefined) return;
      if (o.failed === true) {
        done(o.shared, 2);
        return;
      }
      try {
        const ok = o.matcher.acceptToken(m.token);
        o.shared.ms[0] = 0;
        if (ok) position(o);
        else if (m.ahead) o.shared.ctrl[REFUSED] = 1;
        done(o.shared, ok ? 1 : 0);
        if (ok) ahead(o);
        warmSoon(o);
      } catch (e) {
        if (m.ahead) o.failed = true;
        failed(o.shared, e);
      }
      return;
    }
    case "mask": {
      const o = matchers.get(m.mid);
      if (o === undefined) return;
      if (o.failed === true) {
        done(o.shared, 2);
        return;
      }
      const started = performance.now();
      try {
        const { mask, ctrl } = o.shared;
        ctrl[NARROWED] = 0;
        if (m.tokensLeft > 0) ctrl[NARROWED] = o.matcher.fillNextTokenBitmaskWithin(mask, m.tokensLeft) ? 1 : 0;
        else o.matcher.fillNextTokenBitmask(mask);
        o.shared.ms[0] += performance.now() - started;
        done(o.shared, 1);
      } catch (e) {
        failed(o.shared, e);
      }
      return;
    }
  }
}

parentPort?.on("message", run);
