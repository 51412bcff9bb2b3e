/**
 * The copies of the bounded repetitions of an NFA (`x{m,n}`: m required copies, then n - m optional ones, each a run),
 * recorded where the copies are built alike, so that a configuration inside one copy can be named apart from which copy
 * it is in (`Automaton.countedKey`).
 *
 * Why: the k-th character of a `maxLength: 40` string is a state of its own whose mask walks the whole token trie, yet
 * a token of fewer bytes than the copies left after it never reaches the bound, so it is read alike from every copy
 * that far from the end. The mask tables take those tokens from the mask of one copy and walk only the longer ones.
 *
 * A run's copy 0 is left out (its entry is where the repetition starts, a state other parts of the grammar may leave
 * from too, and the first copy builds whatever frames the item calls), and so is its last copy (it ends in the state
 * after the repetition, which other parts may share). Copies 1 to n - 2 have fresh entry states, and their states are
 * made by the same construction of the same item in the same order; a run is recorded only where each of them made
 * as many states, so that a state's offset in its copy names the same place in every copy.
 */
export class RepeatCopies {
  /**
   * Per NFA state (grown as states are recorded; a state past the end is in none): its run, -1 for none, or -2 - run
   * for the entry of the run's first copy (see end). Typed: read for every state of a configuration's stack.
   */
  runOf = new Int32Array(0);
  /** Per recorded state: its copy's index in its run, and its offset in the copy (0: the copy's entry). */
  copyOf = new Int32Array(0);
  offsetOf = new Int32Array(0);
  /** Per run: its number of copies. */
  readonly copies: number[] = [];
  /** Per run: its copies' entries, where their items' states start, and how many each made. */
  private readonly runs: { entries: number[]; starts: number[]; size: number }[] = [];
  /**
   * Starts recording a run of `n` copies (or returns null below 4: no copy would be recorded). Its entries are given
   * as they are made (`entry`), and where each copy's item starts being built (`started`: the items are built from a
   * worklist, copy after copy, each whole before the next, so a copy's states run from its start to the next one's).
   */
  begin(n: number): RunRecord | null {
    return n < 4 ? null : { n, entries: [], starts: [] };
  }

  /** The next copy of `run` is entered at state `entry`. */
  entry(run: RunRecord, entry: number): void {
    run.entries.push(entry);
  }

  /** The next copy's item starts being built at state number `at`; the last copy's start ends the run. */
  started(run: RunRecord, at: number): void {
    run.starts.push(at);
    if (run.starts.length === run.n) this.end(run);
  }

  /**
   * Records copies 1 to n - 2 of a run when each made as many states (else nothing), and the first copy's when it made
   * as many too. The first copy's entry is where the repetition starts, which other parts of the grammar may leave from
   * too: it is marked -2 - run, and named only where its edges are found to be the second copy's entry's, shifted
   * (Automaton.firstEntryAlike).
   */
  private end(run: RunRecord): void {
    const { n, entries, starts } = run;
    const size = starts[2] - starts[1];
    for (let k = 2; k < n - 1; k++) if (starts[k + 1] - starts[k] !== size) return;
    const id = this.copies.length;
    this.copies.push(n);
    this.runs.push({ entries, starts, size });
    const first = starts[1] - starts[0] === size ? 0 : 1;
    if (first === 0 && this.runAt(entries[0]) === -1) {
      this.grow(entries[0]);
      this.runOf[entries[0]] = -2 - id;
      this.copyOf[entries[0]] = 0;
      this.offsetOf[entries[0]] = 0;
    }
    for (let k = first; k < n - 1; k++) {
      if (k > 0) this.mark(entries[k], id, k, 0);
      for (let q = starts[k]; q < starts[k] + size; q++) this.mark(q, id, k, 1 + q - starts[k]);
    }
  }

  /** The state at `offset` in copy `copy` of run `run` (a recorded copy, or the first's). */
  stateAt(run: number, copy: number, offset: number): number {
    const r = this.runs[run];
    return offset === 0 ? r.entries[copy] : r.starts[copy] + offset - 1;
  }

  /** runOf[q], or -1 past its end. */
  runAt(q: number): number {
    return q < this.runOf.length ? this.runOf[q] : -1;
  }

  private mark(q: number, run: number, copy: number, offset: number): void {
    // a state of a repetition inside this copy's item keeps the inner run's name: its copies are the finer ones (the
    // characters of a string in an array's item), and a key names one run apart, the others' states as they are
    if (this.runAt(q) !== -1) return;
    this.grow(q);
    this.runOf[q] = run;
    this.copyOf[q] = copy;
    this.offsetOf[q] = offset;
  }

  private grow(q: number): void {
    if (q < this.runOf.length) return;
    const size = Math.max(q + 1, this.runOf.length * 2, 1024);
    const runOf = new Int32Array(size).fill(-1);
    runOf.set(this.runOf);
    this.runOf = runOf;
    const copyOf = new Int32Array(size);
    copyOf.set(this.copyOf);
    this.copyOf = copyOf;
    const offsetOf = new Int32Array(size);
    offsetOf.set(this.offsetOf);
    this.offsetOf = offsetOf;
  }
}

/** A run being recorded (see RepeatCopies.begin). */
export interface RunRecord {
  /** Its number of copies. */
  n: number;
  entries: number[];
  starts: number[];
}
