import type { Worker } from "node:worker_threads";
import type { CompiledGrammar } from "../CompiledGrammar.js";
import { DEFAULT_LIMITS, type Limits } from "../options.js";
import {
  type CompileJob,
  type CompileOutcome,
  type CompiledGrammarLimits,
  errorFromData,
  grammarFromData,
} from "./compileJob.js";
import type { ParserData, ParserJob } from "./parserJob.js";
import { startWorker } from "./startWorker.js";

/** What the event loop asks the compile worker: a grammar, or a tool set's strict parser. */
export type CompileRequest = { readonly id: number } & (
  | { readonly job: CompileJob }
  | { readonly parserJob: ParserJob }
);

/** The worker's answer to a {@link CompileRequest}. */
export interface CompileAnswer {
  readonly id: number;
  readonly outcome?: CompileOutcome;
  readonly parser?: ParserData;
  readonly crash?: string;
}

interface Pending {
  readonly answer: (m: CompileAnswer) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * Compiles grammars on a worker thread, one at a time in arrival order, so that a large or hostile tool set (up to the
 * compile budget) never pauses the event loop that streams other requests' tokens. The compiled grammar comes back as
 * structured-clone data and is rebuilt here, which costs a small fraction of the compile (docs/ARCHITECTURE.md). A
 * worker that dies fails its pending compiles and is started again for the next one.
 */
export class CompileWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  /** Compiles `job` off the event loop; rejects with the (rebuilt) ToolgramError of a refusal. */
  compile(job: CompileJob): Promise<CompiledGrammar> {
    return this.ask({ job }, (m, resolve, reject) => {
      if (m.outcome === undefined) reject(new Error(`the grammar compile failed: ${m.crash}`));
      else if (m.outcome.ok) resolve(grammarFromData(job, m.outcome.data, resolvedLimits(job.options.limits)));
      else reject(errorFromData(m.outcome.error));
    });
  }

  /** Compiles a tool set's strict parser off the event loop (parserJob.ts). */
  prepareParser(parserJob: ParserJob): Promise<ParserData> {
    return this.ask({ parserJob }, (m, resolve, reject) => {
      if (m.parser === undefined) reject(new Error(`the parser compile failed: ${m.crash}`));
      else resolve(m.parser);
    });
  }

  /** Stops the worker; pending compiles fail. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.failAll(new Error("the compile worker was closed"));
    if (w !== undefined) await w.terminate();
  }

  private ask<T>(
    request: { job: CompileJob } | { parserJob: ParserJob },
    read: (m: CompileAnswer, resolve: (v: T) => void, reject: (e: unknown) => void) => void,
  ): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { answer: (m) => read(m, resolve, reject), reject });
      this.started().postMessage({ id, ...request } satisfies CompileRequest);
    });
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const w = startWorker(new URL("./compileWorkerMain.js", import.meta.url));
    // an idle worker must not keep a process alive that has nothing else to do
    w.unref();
    w.on("message", (m: CompileAnswer) => this.answer(m));
    w.on("error", (e) => this.lost(w, e));
    w.on("exit", (code) => this.lost(w, new Error(`the compile worker exited with code ${code}`)));
    this.worker = w;
    return w;
  }

  private answer(m: CompileAnswer): void {
    const p = this.pending.get(m.id);
    if (p === undefined) return;
    this.pending.delete(m.id);
    p.answer(m);
  }

  private lost(w: Worker, e: Error): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    this.failAll(e);
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}

/** The limits a compile with these options resolved to (what the grammar's emitters and matchers get again). */
function resolvedLimits(limits: Partial<Limits> | undefined): CompiledGrammarLimits {
  const l = { ...DEFAULT_LIMITS, ...limits };
  return { maxCompileSteps: l.maxCompileSteps, maxCompileMs: l.maxCompileMs, maxAutomatonStates: l.maxAutomatonStates };
}
