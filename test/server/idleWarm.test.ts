import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { IdleWarmer } from "../../src/server/idleWarm.js";

/**
 * The mask worker's warm-up between requests: a slice per event-loop turn, matchers in turn, and a message that comes
 * while warming is served before the next slice. Counted in slices and messages, never in time.
 */
describe("warming while a worker is idle", () => {
  it("serves a message that comes while warming before the next slice, and stops when nothing is left", async () => {
    const log: string[] = [];
    const left = new Map([
      ["a", 3],
      ["b", 1],
    ]);
    const idle = new IdleWarmer<string>(512, (m, work) => {
      expect(work).toBe(512);
      log.push(m);
      const n = left.get(m)! - 1;
      left.set(m, n);
      return n > 0;
    });
    const channel = new MessageChannel();
    let served = 0;
    channel.port2.on("message", () => {
      served++;
      log.push("message");
    });
    idle.add("a");
    idle.add("b");
    idle.add("a"); // already in the turn: once
    await new Promise<void>((resolve) => setImmediate(resolve));
    // a request posted after the first slice: served before the warm-up is over
    channel.port1.postMessage("mask");
    for (let k = 0; k < 20 && idle.slices < 4; k++) await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    channel.port1.close();
    channel.port2.close();
    expect(served).toBe(1);
    expect(log.filter((x) => x !== "message")).toEqual(["a", "b", "a", "a"]);
    expect(log.indexOf("message")).toBeLessThan(log.length - 1);
    expect(idle.slices).toBe(4);
    // nothing left: no more slices
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(idle.slices).toBe(4);
  });

  it("gives no slice while warming may not run, and resumes with the next matcher added", async () => {
    let allowed = false;
    const log: string[] = [];
    const idle = new IdleWarmer<string>(
      512,
      (m) => {
        log.push(m);
        return log.length < 3;
      },
      () => allowed,
    );
    idle.add("a");
    for (let k = 0; k < 5; k++) await new Promise<void>((resolve) => setImmediate(resolve));
    // another generation runs: nothing warmed, however many turns pass
    expect(idle.slices).toBe(0);
    allowed = true;
    // the matcher's next step adds it again: the turn resumes where it stopped
    idle.add("a");
    for (let k = 0; k < 10 && idle.slices < 3; k++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(log).toEqual(["a", "a", "a"]);
    expect(idle.slices).toBe(3);
  });
});
