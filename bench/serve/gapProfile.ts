import { readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { CompileWorker } from "../../src/server/CompileWorker.js";
import { WorkerMatcher } from "../../src/server/MaskWorker.js";
import type { RunningServer } from "../../src/server/startServer.js";

/** One synchronous piece of work on the event loop: what it was, when it started, how long it held the loop. */
interface Piece {
  readonly what: string;
  readonly at: number;
  readonly ms: number;
}

/** A stall of the loop, with how the main thread spent it (Linux schedstat: on a core, or runnable and waiting). */
interface Stall extends Piece {
  readonly cpuMs: number;
  readonly waitMs: number;
}

/**
 * The main thread's time on a core and time runnable but waiting for one, in ms (the first two fields of Linux's
 * per-thread schedstat); zeros elsewhere. Tells a loop held by its own work from a loop starved of a core.
 */
function mainThreadSched(): { cpu: number; wait: number } {
  try {
    const [cpu, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ").map(Number);
    return { cpu: (cpu ?? 0) / 1e6, wait: (wait ?? 0) / 1e6 };
  } catch {
    return { cpu: 0, wait: 0 };
  }
}

/**
 * `bench:serve:gap`'s profile (env TOOLGRAM_GAP_PROFILE=1): wraps the synchronous pieces a request runs on the event
 * loop (rendering the prompt, rebuilding a grammar from the compile worker's copy, creating a matcher, tokenizing the
 * prompt, each token mask) in timers, and watches the loop for stalls, so that each long gap of a stream can be
 * told by what held the loop. Bench only: the wrapped prototypes stay wrapped for the process.
 */
export class GapProfile {
  private readonly pieces: Piece[] = [];
  private readonly stalls: Stall[] = [];
  private timer: NodeJS.Timeout | undefined;
  private gc: PerformanceObserver | undefined;

  /** Wraps the classes' methods (once per process) and the server's own objects. */
  install(server: RunningServer): void {
    current = this;
    wrap(TokenMatcher.prototype, "fillNextTokenBitmask", "mask");
    wrap(CompiledGrammar.prototype, "createMatcher", "createMatcher");
    wrap(CompileWorker.prototype, "answer", "rebuild grammar (worker's copy)");
    // the event loop blocked on a mask worker's answer (a read or a token that could not wait for it)
    wrap(WorkerMatcher.prototype, "settleNow", "blocked on a mask worker");
    wrap(server.state.chat, "render", "render prompt");
    const engine = server.state.engine as unknown as Record<string, unknown>;
    const model = engine.model as Record<string, unknown> | undefined;
    if (model !== undefined) wrap(model, "tokenize", "tokenize");
    const warm = engine.warm as Record<string, unknown> | undefined;
    if (warm !== undefined) wrap(warm, "slice", "warm slice");
    // garbage collections hold the loop too (their start and duration, as pieces)
    this.gc = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) this.add({ what: "gc", at: e.startTime, ms: e.duration });
    });
    this.gc.observe({ entryTypes: ["gc"] });
    let last = performance.now();
    let sched = mainThreadSched();
    this.timer = setInterval(() => {
      const now = performance.now();
      const s = mainThreadSched();
      if (now - last > 20) {
        const stall = { what: "loop stalled", at: last, ms: now - last };
        this.stalls.push({ ...stall, cpuMs: s.cpu - sched.cpu, waitMs: s.wait - sched.wait });
      }
      last = now;
      sched = s;
    }, 1);
  }

  add(p: Piece): void {
    this.pieces.push(p);
  }

  /** Stops watching; the stalls over 40 ms with the pieces that ran inside each, all over 20 ms summed, and the pieces' totals. */
  report(): string[] {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.gc?.disconnect();
    if (current === this) current = undefined;
    const lines: string[] = [];
    for (const s of this.stalls) {
      if (s.ms < 40) continue;
      const inside = this.pieces.filter((p) => p.at >= s.at - 1 && p.at < s.at + s.ms);
      const sum = new Map<string, { n: number; ms: number; max: number }>();
      for (const p of inside) {
        const t = sum.get(p.what) ?? { n: 0, ms: 0, max: 0 };
        sum.set(p.what, { n: t.n + 1, ms: t.ms + p.ms, max: Math.max(t.max, p.ms) });
      }
      const parts = [...sum].map(([w, t]) => `${w} ×${t.n} ${t.ms.toFixed(0)} ms (max ${t.max.toFixed(0)})`);
      const rest = s.ms - [...sum.values()].reduce((a, t) => a + t.ms, 0);
      const sched = `main thread on a core ${s.cpuMs.toFixed(0)} ms, waiting for one ${s.waitMs.toFixed(0)} ms`;
      lines.push(`stall ${s.ms.toFixed(0)} ms (${sched}): ${[...parts, `other ${rest.toFixed(0)} ms`].join(", ")}`);
    }
    const stalled = this.stalls.reduce((a, s) => ({ cpu: a.cpu + s.cpuMs, wait: a.wait + s.waitMs, ms: a.ms + s.ms }), {
      cpu: 0,
      wait: 0,
      ms: 0,
    });
    lines.push(
      `stalls over 20 ms: ×${this.stalls.length}, ${stalled.ms.toFixed(0)} ms, of which the main thread on a core ${stalled.cpu.toFixed(0)} ms, waiting for one ${stalled.wait.toFixed(0)} ms`,
    );
    const totals = new Map<string, { n: number; ms: number; max: number }>();
    for (const p of this.pieces) {
      const t = totals.get(p.what) ?? { n: 0, ms: 0, max: 0 };
      totals.set(p.what, { n: t.n + 1, ms: t.ms + p.ms, max: Math.max(t.max, p.ms) });
    }
    for (const [w, t] of totals) lines.push(`${w}: ×${t.n}, ${t.ms.toFixed(0)} ms, max ${t.max.toFixed(1)} ms`);
    return lines;
  }
}

const wrapped = new WeakSet<object>();

/** The profile the wrapped methods record into (the last one installed). */
let current: GapProfile | undefined;

function record(what: string, at: number): void {
  current?.add({ what, at, ms: performance.now() - at });
}

function wrap(target: object, name: string, what: string): void {
  const holder = target as Record<string, unknown>;
  const original = holder[name];
  if (typeof original !== "function" || wrapped.has(original)) return;
  const timed = function (this: unknown, ...args: unknown[]): unknown {
    const at = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      record(what, at);
    }
  };
  wrapped.add(timed);
  holder[name] = timed;
}
