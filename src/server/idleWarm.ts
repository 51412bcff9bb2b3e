/**
 * Warms matchers in slices while a worker is idle: one slice for the next matcher in turn, then a turn of the event
 * loop (`setImmediate`), so that the messages that came meanwhile (a mask asked for, a token accepted) are served
 * before the next slice. `warm` gives one slice of `work` to a matcher (TokenMatcher.warm) and says whether it has more
 * to warm (false for a matcher closed meanwhile); a matcher leaves the turn when it has no more. `mayWarm` says whether
 * warming may run now: while it says no, no slice is given, and the turn resumes with the next `add` (the mask
 * worker's: warming takes a core that other generations running at the same time need for their own tokens).
 */
export class IdleWarmer<T> {
  private readonly queue = new Set<T>();
  private running = false;
  /** Slices given, in all. */
  slices = 0;

  constructor(
    private readonly slice: number,
    private readonly warm: (m: T, work: number) => boolean,
    private readonly mayWarm: () => boolean = () => true,
  ) {}

  /**
   * `m` may have masks to warm: it joins the turn (once), and the warm-up starts (or resumes) on a later turn if idle.
   */
  add(m: T): void {
    this.queue.add(m);
    if (this.running) return;
    this.running = true;
    setImmediate(this.step);
  }

  private readonly step = (): void => {
    if (!this.mayWarm()) {
      this.running = false;
      return;
    }
    for (const m of this.queue) {
      this.queue.delete(m);
      let more = false;
      try {
        this.slices++;
        more = this.warm(m, this.slice);
      } catch {
        // a step that reaches what failed here fails there, and answers for it
      }
      if (more) this.queue.add(m);
      break;
    }
    if (this.queue.size > 0) setImmediate(this.step);
    else this.running = false;
  };
}

/** What {@link warmMoved} drives: a matcher's two warm-ups (TokenMatcher.warmAhead, TokenMatcher.warm). */
export interface TwoWarmUps {
  warmAhead(work: number): boolean;
  warm(work: number): boolean;
}

/**
 * One idle slice for a generation's matcher: ahead of its position (`aheadWork`) while `moved.ahead` says that has
 * more (a token accepted sets it), then its grammar from the start (`work`). Returns whether it has more to warm.
 */
export function warmMoved(m: TwoWarmUps, moved: { ahead?: boolean }, aheadWork: number, work: number): boolean {
  if (moved.ahead === true) {
    moved.ahead = m.warmAhead(aheadWork);
    return true;
  }
  return m.warm(work);
}
