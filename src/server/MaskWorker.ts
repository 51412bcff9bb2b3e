import type { Worker } from "node:worker_threads";
import type { CompiledGrammar } from "../CompiledGrammar.js";
import type { Vocabulary } from "../vocab/Vocabulary.js";
import { errorFromData } from "./compileJob.js";
import {
  COMPLETED,
  createMaskShared,
  FLAG,
  LOST,
  type MaskOp,
  type MaskShared,
  NARROWED,
  readText,
  REFUSED,
  STATUS,
  type MaskWorkerData,
} from "./maskShared.js";
import { startWorker } from "./startWorker.js";
import { TOKEN_TEXT } from "../vocab/Vocabulary.js";

/** `Atomics.waitAsync` (Node ≥ 16; the project's TypeScript lib predates its type). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      a: Int32Array,
      index: number,
      value: number,
      timeout: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

/** How long the event loop waits for one answer before it calls the worker lost. */
const ANSWER_TIMEOUT_MS = 120_000;

/** Ids of compiled grammars, the same on every worker of the process. */
const grammarIds = new WeakMap<CompiledGrammar, number>();
let nextGrammarId = 1;

/**
 * A worker thread that owns token matchers and computes their masks (`maskWorkerMain.ts`), so that no mask, cold or
 * warm, runs on the event loop. The in-process engine keeps one per sequence: a generation's cold masks hold its own
 * worker only. A grammar is sent once per worker (structured clone of its IR) and dropped there once the event loop
 * has let it go (the grammar cache evicted it).
 */
export class MaskWorker {
  private worker: Worker | undefined;
  private readonly sent = new Set<number>();
  private readonly open = new Set<MaskShared>();
  private nextMatcherId = 0;
  private readonly words: number;
  /** Masks this worker computed (counts for tests and the bench: the event loop computed none of them). */
  masks = 0;
  /** Drops a grammar on the worker once the event loop's copy is collected. */
  private readonly forget = new FinalizationRegistry<number>((gid) => {
    if (this.sent.delete(gid)) this.worker?.postMessage({ op: "drop", gid } satisfies MaskOp);
  });

  /**
   * @param engine The buffer of the engine's counters (`createEngineCounters`): the worker warms its matchers between
   * masks only while one generation runs (idleWarm.ts), and counts the slices there. Without it, warming is never
   * held back.
   */
  constructor(
    private readonly vocab: Vocabulary,
    private readonly engine?: SharedArrayBuffer,
  ) {
    this.words = Math.ceil(vocab.size / 32);
  }

  /** A matcher of `grammar` on this worker, at its start (the automaton built there, not here). */
  async matcher(grammar: CompiledGrammar, options: { jumpForward: boolean }): Promise<WorkerMatcher> {
    const w = this.started();
    const gid = this.grammarId(grammar);
    if (!this.sent.has(gid)) {
      const { maxStates, budget } = grammar.automatonSettings();
      w.postMessage({
        op: "grammar",
        gid,
        grammar: grammar.grammar,
        specialTokens: grammar.specialTokens,
        maxStates,
        budget,
      } satisfies MaskOp);
      this.sent.add(gid);
      this.forget.register(grammar, gid);
    }
    const shared = createMaskShared(this.words);
    const mid = this.nextMatcherId++;
    this.open.add(shared);
    // an answer awaited through Atomics.waitAsync does not keep the process alive: an open matcher's worker does
    w.ref();
    const m = new WorkerMatcher(this, mid, shared, this.vocab);
    await m.ask({ op: "open", mid, gid, buffer: shared.buffer, jumpForward: options.jumpForward });
    m.readPosition();
    return m;
  }

  /** Sends one operation of a matcher (its answer comes through the matcher's shared block). */
  post(op: MaskOp): void {
    this.started().postMessage(op);
  }

  /** A matcher is done: its shared block is no longer answered. */
  closed(mid: number, shared: MaskShared): void {
    this.open.delete(shared);
    if (this.open.size === 0) this.worker?.unref();
    this.worker?.postMessage({ op: "close", mid } satisfies MaskOp);
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.failOpen("the mask worker was closed");
    if (w !== undefined) await w.terminate();
  }

  private grammarId(grammar: CompiledGrammar): number {
    let gid = grammarIds.get(grammar);
    if (gid === undefined) grammarIds.set(grammar, (gid = nextGrammarId++));
    return gid;
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const v = this.vocab;
    const data: MaskWorkerData = {
      size: v.size,
      eosTokenIds: [...v.eosTokenIds],
      kind: v.kind,
      bytes: v.bytes,
      offsets: v.offsets,
      atoms: new Map(v.atoms),
      ...(this.engine === undefined ? {} : { engine: this.engine }),
    };
    const w = startWorker(new URL("./maskWorkerMain.js", import.meta.url), data);
    w.unref();
    const lost = (why: string): void => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.sent.clear();
      this.failOpen(why);
    };
    w.on("error", (e) => lost(`the mask worker failed: ${e.message}`));
    w.on("exit", (code) => lost(`the mask worker exited with code ${code}`));
    this.worker = w;
    return w;
  }

  /** Answers every waiting matcher with an error (the worker is gone). */
  private failOpen(message: string): void {
    for (const shared of this.open) {
      const json = JSON.stringify({ kind: "Error", code: "INTERNAL", message, schemaPath: "" });
      shared.ctrl[2] = new TextEncoder().encodeInto(json, shared.text).written;
      Atomics.store(shared.ctrl, STATUS, 2);
      Atomics.store(shared.ctrl, LOST, 1);
      Atomics.add(shared.ctrl, FLAG, 1);
      Atomics.notify(shared.ctrl, FLAG);
    }
    this.open.clear();
  }
}

/**
 * The event loop's side of a matcher that lives on a {@link MaskWorker}: the shape `generateWithMask` drives, with
 * `prepareMask` awaited before each mask is read and `settle` before the position is read, so that neither a mask nor
 * a step of the automaton (cold or warm) is computed on the event loop. Accepting a token does not wait for the worker
 * where the answer is known here: a token the last mask allows is accepted by construction, and so is a text token
 * that spells the start of the forced continuation (the grammar's only way on); the worker steps meanwhile, and the
 * new position (forced text, completeness) is read once `settle` resolves. Any other token waits for the worker's
 * answer, as does reading a position without `settle` first.
 */
export class WorkerMatcher {
  /** Masks computed for this matcher and the worker's time on each (milliseconds). */
  readonly times: number[] = [];
  /** Accepts answered here without waiting for the worker (counts for tests and the bench). */
  acceptedAhead = 0;
  private ready = -1;
  private narrowed = false;
  private forced = "";
  private completed = false;
  private closedAlready = false;
  /** Operations posted to the worker; `ctrl[FLAG]` counts the ones it answered. */
  private posted = 0;
  /** The last mask read, while the matcher is still at its position (undefined once a token moved it). */
  private allowed: Uint32Array | undefined;
  /** The forced continuation's bytes at the last known position, and how many of them accepted tokens used up. */
  private forcedBytes = new Uint8Array(0);
  private forcedUsed = 0;
  /** Tokens were accepted ahead: the position here is stale until the worker's answers are read. */
  private pendingPosition = false;

  constructor(
    private readonly owner: MaskWorker,
    private readonly mid: number,
    private readonly shared: MaskShared,
    private readonly vocab: Vocabulary,
  ) {}

  private post(op: MaskOp): void {
    this.posted++;
    this.owner.post(op);
  }

  /** Sends `op` and waits, without blocking the event loop, for its answer. */
  async ask(op: MaskOp): Promise<number> {
    this.post(op);
    await this.settle();
    return this.answered();
  }

  /** Resolves once the worker has answered every operation sent (its position is then known here). */
  async settle(): Promise<void> {
    const { ctrl } = this.shared;
    for (;;) {
      const seen = Atomics.load(ctrl, FLAG);
      if (seen === this.posted || Atomics.load(ctrl, LOST) === 1) break;
      const wait = waitAsync(ctrl, FLAG, seen, ANSWER_TIMEOUT_MS);
      if (wait.async && (await wait.value) === "timed-out") throw new Error("the mask worker did not answer");
    }
    this.settled();
  }

  /** Blocks until every operation sent is answered: only where a caller reads without settling first. */
  private settleNow(): void {
    const { ctrl } = this.shared;
    for (;;) {
      const seen = Atomics.load(ctrl, FLAG);
      if (seen === this.posted || Atomics.load(ctrl, LOST) === 1) break;
      if (Atomics.wait(ctrl, FLAG, seen, ANSWER_TIMEOUT_MS) === "timed-out")
        throw new Error("the mask worker did not answer");
    }
    this.settled();
  }

  /**
   * All answered: the position after tokens accepted ahead is read (or the error the worker met on the way thrown). A
   * token accepted ahead and refused there is a broken invariant, not a refusal to report.
   */
  private settled(): void {
    if (Atomics.load(this.shared.ctrl, REFUSED) === 1)
      throw new Error("the mask worker refused a token that its mask or forced text allowed");
    if (!this.pendingPosition) return;
    this.pendingPosition = false;
    this.answered();
    this.readPosition();
  }

  /** Sends `op` and blocks until its answer: only for operations that do not compute a mask. */
  private askNow(op: MaskOp): number {
    this.settleNow();
    this.post(op);
    this.settleNow();
    return this.answered();
  }

  private answered(): number {
    const { ctrl } = this.shared;
    const status = Atomics.load(ctrl, STATUS);
    if (status === 2) {
      const d = JSON.parse(readText(this.shared));
      throw d.kind === "Error" ? new Error(d.message) : errorFromData(d);
    }
    return status;
  }

  /** Computes the next mask on the worker (narrowed to `tokensLeft` when given); resolves once it can be read. */
  async prepareMask(tokensLeft?: number): Promise<void> {
    const left = tokensLeft ?? 0;
    await this.settle();
    if (this.ready === left) return;
    await this.ask({ op: "mask", mid: this.mid, tokensLeft: left });
    this.maskRead(left);
  }

  fillNextTokenBitmask(bits: Uint32Array): void {
    if (this.ready !== 0) this.prepareNow(0);
    bits.set(this.shared.mask);
    this.keep(bits);
  }

  fillNextTokenBitmaskWithin(bits: Uint32Array, tokensLeft: number): boolean {
    if (this.ready !== tokensLeft) this.prepareNow(tokensLeft);
    bits.set(this.shared.mask);
    this.keep(bits);
    return this.narrowed;
  }

  /** The mask just read stands for the current position until a token is accepted. */
  private keep(bits: Uint32Array): void {
    this.allowed ??= new Uint32Array(bits.length);
    this.allowed.set(bits);
  }

  /** A mask read without `prepareMask` first (a caller that does not await it): the event loop waits for it. */
  private prepareNow(tokensLeft: number): void {
    this.askNow({ op: "mask", mid: this.mid, tokensLeft });
    this.maskRead(tokensLeft);
  }

  private maskRead(tokensLeft: number): void {
    this.ready = tokensLeft;
    this.narrowed = this.shared.ctrl[NARROWED] === 1;
    this.times.push(this.shared.ms[0] as number);
    this.owner.masks++;
  }

  acceptToken(token: number): boolean {
    if (this.knownAccepted(token)) {
      this.post({ op: "accept", mid: this.mid, token, ahead: true });
      this.acceptedAhead++;
      this.moved();
      this.pendingPosition = true;
      return true;
    }
    const ok = this.askNow({ op: "accept", mid: this.mid, token, ahead: false }) === 1;
    if (ok) {
      this.moved();
      this.readPosition();
    }
    return ok;
  }

  /**
   * Whether `token` is accepted whatever the worker has still to compute: the last mask (read at this very position)
   * allows it, or it is a text token spelling the next bytes of the forced continuation.
   */
  private knownAccepted(token: number): boolean {
    const a = this.allowed;
    if (a !== undefined) return token >= 0 && token < a.length * 32 && (a[token >>> 5]! & (1 << (token & 31))) !== 0;
    const v = this.vocab;
    if (token < 0 || token >= v.size || v.kind[token] !== TOKEN_TEXT) return false;
    const from = v.offsets[token]!;
    const length = v.offsets[token + 1]! - from;
    if (length === 0 || this.forcedUsed + length > this.forcedBytes.length) return false;
    for (let i = 0; i < length; i++) if (v.bytes[from + i] !== this.forcedBytes[this.forcedUsed + i]) return false;
    this.forcedUsed += length;
    return true;
  }

  /** A token was accepted: the mask read no longer stands for the position. */
  private moved(): void {
    this.ready = -1;
    this.allowed = undefined;
  }

  /** After `open` and each accepted token: what the worker says of the new position. */
  readPosition(): void {
    this.forced = readText(this.shared);
    this.forcedBytes = new TextEncoder().encode(this.forced);
    this.forcedUsed = 0;
    this.completed = this.shared.ctrl[COMPLETED] === 1;
  }

  isCompleted(): boolean {
    this.position();
    return this.completed;
  }

  forcedText(): string {
    this.position();
    return this.forced;
  }

  /** The position after tokens accepted ahead, once the worker has answered (waiting for it if not settled). */
  private position(): void {
    if (this.pendingPosition) this.settleNow();
  }
  /** The generation is over: the worker forgets the matcher. */
  close(): void {
    if (this.closedAlready) return;
    this.closedAlready = true;
    this.owner.closed(this.mid, this.shared);
  }
}
