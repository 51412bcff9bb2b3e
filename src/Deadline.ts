import { LimitExceededError } from "./errors.js";

/** The two units of a compile budget (the `limits` of the same names). */
export interface CompileBudget {
  /**
   * Work steps: every stage counts its work here (schema nodes normalized and lowered, automaton states built,
   * grammar nodes rewritten or printed...). Deterministic: the same input spends the same steps on any machine.
   */
  maxCompileSteps: number;
  /** Wall-clock milliseconds; `Infinity` turns the clock off (the verdict then depends on the input alone). */
  maxCompileMs: number;
}

/** Steps between two readings of the clock (reading it costs well under a microsecond; a step far less). */
const CLOCK_EVERY = 32;

/**
 * The budget of one compile (or of one emitter or automaton built later from its grammar), shared by every stage:
 * normalizing, lowering (string automata included), the grammar passes, the emitters and the token automaton.
 * Loops call `tick` per unit of work; the step count is checked at every tick, the clock every few dozen steps, so
 * an over-budget compile is refused within a small fraction of the budget instead of after the stage that overran
 * it. This is the only place where compile code reads the clock.
 *
 * Steps (`LIMIT_COMPILE_STEPS`) are the unit that tests and conformance ratchets use, with the clock off: a verdict
 * must not depend on how loaded the machine is. Users keep the wall-clock limit too (`LIMIT_COMPILE_TIME`).
 */
export class Deadline {
  private readonly start: number;
  private steps = 0;
  private untilClock = CLOCK_EVERY;

  /**
   * @param parent A sub-budget (see `within`) also spends its parent's steps, and is refused when the parent is.
   */
  constructor(
    readonly budget: CompileBudget,
    private readonly parent?: Deadline,
  ) {
    this.start = Number.isFinite(budget.maxCompileMs) ? performance.now() : 0;
  }

  /** The budget `limits` give (a compile's, or an emitter's run on a compiled grammar). */
  static fromLimits(limits: CompileBudget): Deadline {
    return new Deadline({ maxCompileSteps: limits.maxCompileSteps, maxCompileMs: limits.maxCompileMs });
  }

  /** A deadline that never expires (a stage run on its own, with its own size limits). */
  static none(): Deadline {
    return new Deadline({ maxCompileSteps: Number.POSITIVE_INFINITY, maxCompileMs: Number.POSITIVE_INFINITY });
  }

  /**
   * A narrower budget for an optional piece of work (an improvement with a fallback): its steps count here too. When
   * it is refused, `expired()` of this deadline tells whether the whole compile is over or only the piece.
   */
  within(budget: Partial<CompileBudget>): Deadline {
    return new Deadline(
      {
        maxCompileSteps: Math.min(budget.maxCompileSteps ?? Number.POSITIVE_INFINITY, this.budget.maxCompileSteps),
        maxCompileMs: Math.min(budget.maxCompileMs ?? Number.POSITIVE_INFINITY, this.budget.maxCompileMs),
      },
      this,
    );
  }

  /** Steps spent so far. */
  get stepsTaken(): number {
    return this.steps;
  }

  /** Milliseconds since the budget started (0 with the clock off). */
  elapsedMs(): number {
    return Number.isFinite(this.budget.maxCompileMs) ? performance.now() - this.start : 0;
  }

  /** Whether the budget is spent (to tell the compile's deadline from a local one). */
  expired(): boolean {
    return (
      this.steps > this.budget.maxCompileSteps ||
      this.elapsedMs() > this.budget.maxCompileMs ||
      (this.parent?.expired() ?? false)
    );
  }

  /** `weight` units of work done in `stage` (for the error message) at `path` (a JSON Pointer, for the error). */
  tick(stage: string, path = "", weight = 1): void {
    this.parent?.tick(stage, path, weight);
    this.steps += weight;
    if (this.steps > this.budget.maxCompileSteps) throw this.stepsError(stage, path);
    this.untilClock -= weight;
    if (this.untilClock <= 0) {
      this.untilClock = CLOCK_EVERY;
      this.checkClock(stage, path);
    }
  }

  /** Throws when the budget is spent (at a stage boundary: reads the clock now). */
  check(stage: string, path = ""): void {
    this.parent?.check(stage, path);
    if (this.steps > this.budget.maxCompileSteps) throw this.stepsError(stage, path);
    this.checkClock(stage, path);
  }

  private checkClock(stage: string, path: string): void {
    if (!Number.isFinite(this.budget.maxCompileMs)) return;
    const ms = this.elapsedMs();
    if (ms > this.budget.maxCompileMs) {
      throw new LimitExceededError(
        "LIMIT_COMPILE_TIME",
        `compiling took over ${this.budget.maxCompileMs} ms (limits.maxCompileMs; stopped at ${Math.round(ms)} ms while ${stage}); simplify the schemas or raise the limit`,
        path,
      );
    }
  }

  private stepsError(stage: string, path: string): LimitExceededError {
    return new LimitExceededError(
      "LIMIT_COMPILE_STEPS",
      `compiling needs more than ${this.budget.maxCompileSteps} work steps (limits.maxCompileSteps; stopped while ${stage}); simplify the schemas or raise the limit`,
      path,
    );
  }
}
