import { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { CompileWorker } from "../../src/server/CompileWorker.js";
import type { RunningServer } from "../../src/server/startServer.js";

/** One synchronous piece of work on the event loop: what it was, when it started, how long it held the loop. */
interface Piece {
  readonly what: string;
  readonly at: number;
  readonly ms: number;
}

/**
 * `bench:serve:gap`'s profile (env TOOLGRAM_GAP_PROFILE=1): wraps the synchronous pieces a request runs on the event
 * loop (rendering the prompt, rebuilding a grammar from the compile worker's copy, creating a matcher, tokenizing the
 * prompt, each token mask) in timers, and watches the loop for stalls, so that each long gap of a stream can be
 * told by what held the loop. Bench only: the wrapped prototypes stay wrapped for the process.
 */
export class GapProfile {
  private readonly pieces: Piece[] = [];
  private readonly stalls: Piece[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** Wraps the classes' methods (once per process) and the server's own objects. */
  install(server: RunningServer): void {
    current = this;
    wrap(TokenMatcher.prototype, "fillNextTokenBitmask", "mask");
    wrap(CompiledGrammar.prototype, "createMatcher", "createMatcher");
    wrap(CompileWorker.prototype, "answer", "rebuild grammar (worker's copy)");
    wrap(server.state.chat, "render", "render prompt");
    const engine = server.state.engine as unknown as Record<string, unknown>;
    const model = engine.model as Record<string, unknown> | undefined;
    if (model !== undefined) wrap(model, "tokenize", "tokenize");
    const warm = engine.warm as Record<string, unknown> | undefined;
    if (warm !== undefined) wrap(warm, "slice", "warm slice");
    let last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      if (now - last > 20) this.stalls.push({ what: "loop stalled", at: last, ms: now - last });
      last = now;
    }, 1);
  }

  add(p: Piece): void {
    this.pieces.push(p);
  }

  /** Stops watching; the stalls over 20 ms with the pieces that ran inside each, and the pieces' totals. */
  report(): string[] {
    if (this.timer !== undefined) clearInterval(this.timer);
    if (current === this) current = undefined;
    const lines: string[] = [];
    for (const s of this.stalls) {
      const inside = this.pieces.filter((p) => p.at >= s.at - 1 && p.at < s.at + s.ms);
      const sum = new Map<string, { n: number; ms: number; max: number }>();
      for (const p of inside) {
        const t = sum.get(p.what) ?? { n: 0, ms: 0, max: 0 };
        sum.set(p.what, { n: t.n + 1, ms: t.ms + p.ms, max: Math.max(t.max, p.ms) });
      }
      const parts = [...sum].map(([w, t]) => `${w} ×${t.n} ${t.ms.toFixed(0)} ms (max ${t.max.toFixed(0)})`);
      const rest = s.ms - [...sum.values()].reduce((a, t) => a + t.ms, 0);
      lines.push(`stall ${s.ms.toFixed(0)} ms: ${[...parts, `other ${rest.toFixed(0)} ms`].join(", ")}`);
    }
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
