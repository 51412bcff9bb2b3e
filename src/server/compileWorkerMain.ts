import { parentPort } from "node:worker_threads";
import type { CompileAnswer, CompileRequest } from "./CompileWorker.js";
import { runCompileJob } from "./compileJob.js";
import { lowerThreadPriority } from "./lowerThreadPriority.js";
import { parserBuffers, runParserJob } from "./parserJob.js";

// a tool set's compiles are one-off work: the event loop and the decoding threads of running streams go first
lowerThreadPriority(10);

/**
 * A compile worker's entry: answers each `{ id, job }` with `{ id, outcome }`, each `{ id, parserJob }` with
 * `{ id, parser }` (its recognizer's buffers transferred, not copied), or either with `{ id, crash }` on a bug.
 */
parentPort?.on("message", (message: CompileRequest) => {
  try {
    if ("job" in message) parentPort?.postMessage({ id: message.id, outcome: runCompileJob(message.job) });
    else {
      const parser = runParserJob(message.parserJob);
      parentPort?.postMessage({ id: message.id, parser } satisfies CompileAnswer, parserBuffers(parser));
    }
  } catch (e) {
    parentPort?.postMessage({ id: message.id, crash: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
