import { getPriority } from "node:os";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";

/** A compile worker's thread yields the cores to the event loop: its own nice value rises, the process's does not. */
describe("lowerThreadPriority", () => {
  it.runIf(process.platform === "linux")("lowers the calling thread's priority alone", async () => {
    const before = getPriority();
    const source = new URL("../../src/server/lowerThreadPriority.ts", import.meta.url).href;
    const boot = `
      const { parentPort } = require("node:worker_threads");
      const { getPriority } = require("node:os");
      const { readlinkSync } = require("node:fs");
      import("tsx/esm/api").then(async (tsx) => {
        tsx.register();
        const { lowerThreadPriority } = await import(${JSON.stringify(source)});
        const tid = Number(/task\\/(\\d+)$/.exec(readlinkSync("/proc/thread-self"))[1]);
        const was = getPriority(tid);
        const lowered = lowerThreadPriority(3);
        parentPort.postMessage({ lowered, was, now: getPriority(tid) });
      });`;
    const worker = new Worker(boot, { eval: true });
    const answer = await new Promise<{ lowered: boolean; was: number; now: number }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    await worker.terminate();
    expect(answer.lowered).toBe(true);
    expect(answer.now).toBe(Math.min(19, answer.was + 3));
    expect(getPriority()).toBe(before);
  });
});
