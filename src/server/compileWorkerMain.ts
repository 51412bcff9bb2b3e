import { parentPort } from "node:worker_threads";
import { runCompileJob, type CompileJob } from "./compileJob.js";

/** A compile worker's entry: answers each `{ id, job }` with `{ id, outcome }`, or `{ id, crash }` on a bug. */
parentPort?.on("message", (message: { id: number; job: CompileJob }) => {
  try {
    parentPort?.postMessage({ id: message.id, outcome: runCompileJob(message.job) });
  } catch (e) {
    parentPort?.postMessage({ id: message.id, crash: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
