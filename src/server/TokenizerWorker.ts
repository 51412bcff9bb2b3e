import type { Worker } from "node:worker_threads";
import { startWorker } from "./startWorker.js";

interface Pending {
  readonly resolve: (tokens: number[]) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * Tokenizes long texts on a worker thread that loads the model's vocabulary alone (`tokenizerWorkerMain.ts`): a
 * prompt that declares a hundred tools is a hundred thousand characters, whose tokenizing would hold the event loop,
 * and every other stream, for tens to hundreds of milliseconds. The same llama.cpp tokenizer runs there, so the tokens
 * are the ones `model.tokenize(text, true)` gives here. A worker that dies fails its pending texts (the caller then
 * tokenizes here) and is started again for the next one.
 */
export class TokenizerWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** Texts tokenized on the worker (counts for tests). */
  texts = 0;

  constructor(private readonly modelPath: string) {
    // the vocabulary loads while the server starts, not when the first long prompt comes
    this.started();
  }

  tokenize(text: string): Promise<number[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.started().postMessage({ id, text });
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.failAll(new Error("the tokenizer worker was closed"));
    if (w !== undefined) await w.terminate();
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const w = startWorker(new URL("./tokenizerWorkerMain.js", import.meta.url), { modelPath: this.modelPath });
    w.unref();
    w.on("message", (m: { id: number; tokens?: Int32Array; error?: string }) => {
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      this.pending.delete(m.id);
      if (m.tokens === undefined) p.reject(new Error(`the tokenizer worker failed: ${m.error}`));
      else {
        this.texts++;
        p.resolve(Array.from(m.tokens));
      }
    });
    const lost = (e: Error): void => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.failAll(e);
    };
    w.on("error", lost);
    w.on("exit", (code) => lost(new Error(`the tokenizer worker exited with code ${code}`)));
    this.worker = w;
    return w;
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}
