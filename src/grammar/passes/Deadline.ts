import { LimitExceededError } from "../../errors.js";

/**
 * The wall-clock budget of one compile (`limits.maxCompileMs`), shared by every stage: normalizing, lowering
 * (string automata included) and the grammar passes. Loops call `tick` per unit of work, which reads the clock
 * every few hundred units, so an over-budget compile is refused within a small fraction of the budget instead of
 * after the stage that overran it.
 */
export class Deadline {
  private readonly start = performance.now();
  private n = 0;

  constructor(readonly budgetMs: number) {}

  /** A deadline that never expires (stages run on their own, outside a compile). */
  static none(): Deadline {
    return new Deadline(Number.POSITIVE_INFINITY);
  }

  /** Milliseconds since the compile started. */
  elapsedMs(): number {
    return performance.now() - this.start;
  }

  /** The deadline as a `Date.now()` value, for code that takes one (the automata). */
  epochMs(): number {
    return Date.now() + (this.budgetMs - this.elapsedMs());
  }

  /** Whether the budget is spent (for code that must tell the compile's deadline from a local budget). */
  expired(): boolean {
    return this.elapsedMs() > this.budgetMs;
  }

  /** One unit of work done; checks the clock every 32 units (reading it costs well under a microsecond). */
  tick(stage: string, path = ""): void {
    if ((++this.n & 31) === 0) this.check(stage, path);
  }

  /** Throws LIMIT_COMPILE_TIME when the budget is spent. */
  check(stage: string, path = ""): void {
    const ms = this.elapsedMs();
    if (ms > this.budgetMs) {
      throw new LimitExceededError(
        "LIMIT_COMPILE_TIME",
        `compiling took over ${this.budgetMs} ms (limits.maxCompileMs; stopped at ${Math.round(ms)} ms while ${stage}); simplify the schemas or raise the limit`,
        path,
      );
    }
  }
}
