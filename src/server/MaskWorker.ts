import type { Worker } from "node:worker_threads";
import type { CompiledGrammar } from "../CompiledGrammar.js";
import type { Vocabulary } from "../vocab/Vocabulary.js";
import { errorFromData } from "./compileJob.js";
import {
  COMPLETED,
  createMaskShared,
  FLAG,
  type MaskOp,
  type MaskShared,
  NARROWED,
  readText,
  STATUS,
  type VocabularyData,
} from "./maskShared.js";
import { startWorker } from "./startWorker.js";

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

  constructor(private readonly vocab: Vocabulary) {
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
    const m = new WorkerMatcher(this, mid, shared);
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
    const data: VocabularyData = {
      size: v.size,
      eosTokenIds: [...v.eosTokenIds],
      kind: v.kind,
      bytes: v.bytes,
      offsets: v.offsets,
      atoms: new Map(v.atoms),
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
      Atomics.store(shared.ctrl, FLAG, 1);
      Atomics.notify(shared.ctrl, FLAG);
    }
    this.open.clear();
  }
}

/**
 * The event loop's side of a matcher that lives on a {@link MaskWorker}: the shape `generateWithMask` drives, with
 * `prepareMask` awaited before each mask is read, so that the mask is computed on the worker while the event loop
 * serves other requests. Accepting a token waits for the worker (a step of the automaton, not a mask); the forced text
 * and completeness come with each answer.
 */
export class WorkerMatcher {
  /** Masks computed for this matcher and the worker's time on each (milliseconds). */
  readonly times: number[] = [];
  private ready = -1;
  private narrowed = false;
  private forced = "";
  private completed = false;
  private closedAlready = false;

  constructor(
    private readonly owner: MaskWorker,
    private readonly mid: number,
    private readonly shared: MaskShared,
  ) {}

  /** Sends `op` and waits, without blocking the event loop, for its answer. */
  async ask(op: MaskOp): Promise<number> {
    const { ctrl } = this.shared;
    Atomics.store(ctrl, FLAG, 0);
    this.owner.post(op);
    const wait = waitAsync(ctrl, FLAG, 0, ANSWER_TIMEOUT_MS);
    if (wait.async && (await wait.value) === "timed-out") throw new Error("the mask worker did not answer");
    return this.answered();
  }

  /** Sends `op` and blocks until its answer: only for operations that do not compute a mask. */
  private askNow(op: MaskOp): number {
    const { ctrl } = this.shared;
    Atomics.store(ctrl, FLAG, 0);
    this.owner.post(op);
    if (Atomics.wait(ctrl, FLAG, 0, ANSWER_TIMEOUT_MS) === "timed-out")
      throw new Error("the mask worker did not answer");
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
    if (this.ready === left) return;
    await this.ask({ op: "mask", mid: this.mid, tokensLeft: left });
    this.ready = left;
    this.narrowed = this.shared.ctrl[NARROWED] === 1;
    this.times.push(this.shared.ms[0] as number);
    this.owner.masks++;
  }

  fillNextTokenBitmask(bits: Uint32Array): void {
    if (this.ready !== 0) this.prepareNow(0);
    bits.set(this.shared.mask);
  }

  fillNextTokenBitmaskWithin(bits: Uint32Array, tokensLeft: number): boolean {
    if (this.ready !== tokensLeft) this.prepareNow(tokensLeft);
    bits.set(this.shared.mask);
    return this.narrowed;
  }

  /** A mask read without `prepareMask` first (a caller that does not await it): the event loop waits for it. */
  private prepareNow(tokensLeft: number): void {
    this.askNow({ op: "mask", mid: this.mid, tokensLeft });
    this.ready = tokensLeft;
    this.narrowed = this.shared.ctrl[NARROWED] === 1;
    this.times.push(this.shared.ms[0] as number);
    this.owner.masks++;
  }

  acceptToken(token: number): boolean {
    const ok = this.askNow({ op: "accept", mid: this.mid, token }) === 1;
    if (ok) {
      this.ready = -1;
      this.readPosition();
    }
    return ok;
  }

  /** After `open` and each accepted token: what the worker says of the new position. */
  readPosition(): void {
    this.forced = readText(this.shared);
    this.completed = this.shared.ctrl[COMPLETED] === 1;
  }

  isCompleted(): boolean {
    return this.completed;
  }

  forcedText(): string {
    return this.forced;
  }

  /** The generation is over: the worker forgets the matcher. */
  close(): void {
    if (this.closedAlready) return;
    this.closedAlready = true;
    this.owner.closed(this.mid, this.shared);
  }
}
