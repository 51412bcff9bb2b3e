import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/**
 * Lowers the calling thread's scheduling priority by `steps` nice levels, on Linux, where a thread's nice value is its
 * own: a worker thread doing a tool set's one-off work (compiling its grammar and strict parser, seconds of CPU for a
 * large or deep set) then yields the cores to the event loop and llama.cpp's decoding threads, which every running
 * stream needs, instead of competing with them as equals. Elsewhere (or if the thread cannot be named) nothing
 * changes. Returns whether it was lowered.
 */
export function lowerThreadPriority(steps: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const tid = Number(/\/task\/(\d+)$/.exec(readlinkSync("/proc/thread-self"))?.[1]);
    if (!Number.isSafeInteger(tid) || tid <= 0) return false;
    setPriority(tid, Math.min(19, getPriority(tid) + steps));
    return true;
  } catch {
    return false;
  }
}
