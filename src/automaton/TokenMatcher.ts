import { TOKEN_ATOM, TOKEN_TEXT } from "../vocab/Vocabulary.js";
import { DEAD, UNKNOWN } from "./Automaton.js";
import type { MaskTable } from "./MaskTable.js";
import { tablesFull } from "./tablesFull.js";

/** The configuration after an end-of-generation token. */
const TERMINATED = -3;
const MAX_FORCED_BYTES = 4096;
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * Per-sequence state of constrained decoding: one configuration id and the history for rollback. Cheap to create;
 * every table it reads is shared through the {@link MaskTable}.
 */
export class TokenMatcher {
  private readonly table: MaskTable;
  private cfg: number;
  private history: number[] = [];
  /** What each history entry accepted: a token id, or a text's bytes (acceptString); replayed after a reset. */
  private inputs: (number | Uint8Array)[] = [];
  /** The automaton epoch `cfg` and `history` belong to (see Automaton.reset). */
  private epoch: number;

  /**
   * Internal: get a matcher from {@link CompiledGrammar.createMatcher}, which builds (or shares) the mask table
   * this reads; the table is not part of the API.
   * @internal
   */
  constructor(table: MaskTable) {
    this.table = table;
    this.cfg = table.automaton.initial;
    this.epoch = table.automaton.tableEpoch;
  }

  /**
   * Runs `op` on tables of the current epoch. Where it meets a bound of the automaton's tables, the tables are
   * started afresh (every matcher of the grammar replays its input when it next runs) and `op` runs once more: the
   * bounds hold at every step, and a generation under way never fails for them. Only a single step that needs more
   * than the bounds from empty tables throws (LIMIT_AUTOMATON_SIZE), and that leaves the tables usable.
   */
  private guarded<T>(op: () => T): T {
    try {
      this.sync();
      return op();
    } catch (e) {
      if (!tablesFull(e)) throw e;
      this.table.resetAutomaton();
      this.sync();
      try {
        return op();
      } catch (again) {
        // the tables stay usable for the next request: start them afresh once more
        if (tablesFull(again)) this.table.resetAutomaton();
        throw again;
      }
    }
  }

  /** After a reset of the automaton's tables: the configurations of this matcher's history found again. */
  private sync(): void {
    this.table.syncEpoch();
    const A = this.table.automaton;
    if (this.epoch === A.tableEpoch) return;
    this.epoch = A.tableEpoch;
    const terminated = this.cfg === TERMINATED;
    let c = A.initial;
    for (let k = 0; k < this.inputs.length; k++) {
      this.history[k] = c;
      const x = this.inputs[k];
      c = typeof x === "number" ? this.stepToken(c, x) : this.stepBytes(c, x, 0, x.length);
    }
    this.cfg = terminated ? TERMINATED : c;
  }

  /** Number of mask words for this vocabulary: `ceil(vocab.size / 32)`. */
  get bitmaskSize(): number {
    return this.table.words;
  }

  /** Set bit i ⇔ `acceptToken(i)` would succeed. EOS bits are set exactly when the output is complete. */
  fillNextTokenBitmask(bits: Uint32Array): void {
    if (bits.length < this.table.words)
      throw new RangeError(`bitmask needs ${this.table.words} words, got ${bits.length}`);
    this.guarded(() => {
      if (this.cfg === TERMINATED) bits.fill(0);
      else this.table.fill(this.cfg, bits);
    });
  }

  /**
   * Bytes or special tokens still needed to complete the output: 0 when complete, Infinity after an end token or
   * in a dead state. With a byte-level vocabulary this bounds the tokens still needed (the end token not counted).
   */
  tokensToComplete(): number {
    return this.guarded(() => (this.cfg < 0 ? Infinity : this.table.completionDistance().ofConfig(this.cfg)));
  }

  /**
   * `fillNextTokenBitmask`, narrowed to a token budget: at most `tokensLeft` more tokens, the end token included.
   * A token is allowed only if the output can still be completed and ended within what is left after it, so a
   * generation that starts with `tokensToComplete() + 1 <= tokensLeft` and uses this mask at every step always ends
   * with a complete output inside its budget (at worst through single-byte tokens along the shortest completion).
   * The budget only bites near its end: while every allowed token leaves enough room, the mask is unchanged.
   *
   * When the budget is already too small, only tokens that bring the completion closer are allowed (the output
   * ends as soon as it can). Returns whether the budget removed anything. Throws INVALID_OPTION for a vocabulary without single-byte tokens for every byte.
   */
  fillNextTokenBitmaskWithin(bits: Uint32Array, tokensLeft: number): boolean {
    if (!Number.isInteger(tokensLeft) || tokensLeft < 1)
      throw new RangeError(`tokensLeft must be an integer >= 1, got ${tokensLeft}`);
    this.fillNextTokenBitmask(bits);
    return this.guarded(() => this.narrowWithin(bits, tokensLeft));
  }

  private narrowWithin(bits: Uint32Array, tokensLeft: number): boolean {
    const c = this.cfg;
    if (c < 0) return false;
    const lists = this.table.budgetLists(c, (id) => this.peek(id));
    // after an ordinary token, what is left must hold the rest of the completion and the end token
    const limit = Math.max(tokensLeft - 2, lists.here - 1);
    if (limit >= lists.here) {
      const { raiserIds, raiserDist } = lists;
      let k = 0;
      for (; k < raiserIds.length && raiserDist[k] > limit; k++)
        bits[raiserIds[k] >>> 5] &= ~(1 << (raiserIds[k] & 31));
      return k > 0;
    }
    // only progress is affordable: the lowerers within the limit, and the end tokens the plain mask has
    const eos = this.table.vocab.eosTokenIds;
    const ends = eos.filter((e) => (bits[e >>> 5] >>> (e & 31)) & 1);
    bits.fill(0);
    for (const e of ends) bits[e >>> 5] |= 1 << (e & 31);
    const { lowererIds, lowererDist } = lists;
    for (let k = 0; k < lowererIds.length; k++)
      if (lowererDist[k] <= limit) bits[lowererIds[k] >>> 5] |= 1 << (lowererIds[k] & 31);
    return true;
  }

  /** Advance by one token; false (and no change) if the grammar does not allow it. */
  acceptToken(id: number): boolean {
    const next = this.guarded(() => this.peek(id));
    if (next === DEAD) return false;
    this.history.push(this.cfg);
    this.inputs.push(id);
    this.cfg = next;
    return true;
  }

  private peek(id: number): number {
    return this.stepToken(this.cfg, id);
  }

  /** The configuration after token `id` from `c` (TERMINATED after an end token, DEAD when not allowed). */
  private stepToken(c: number, id: number): number {
    if (c < 0) return DEAD;
    const vocab = this.table.vocab;
    if (!Number.isInteger(id) || id < 0 || id >= vocab.size) return DEAD;
    if (vocab.eosTokenIds.includes(id)) return this.table.automaton.isComplete(c) ? TERMINATED : DEAD;
    const kind = vocab.kind[id];
    if (kind === TOKEN_ATOM) {
      const a = this.table.atomIndexOf(id);
      return a < 0 ? DEAD : this.table.automaton.stepAtom(c, a);
    }
    if (kind !== TOKEN_TEXT) return DEAD;
    return this.stepBytes(c, vocab.bytes, vocab.offsets[id], vocab.offsets[id + 1]);
  }

  private stepBytes(c: number, bytes: Uint8Array, from: number, to: number): number {
    const A = this.table.automaton;
    let s = c;
    for (let i = from; i < to && s >= 0; i++) {
      const t = A.cTrans[s * 256 + bytes[i]];
      s = t === UNKNOWN ? A.step(s, bytes[i]) : t;
    }
    return s;
  }

  /** Advance by a text (as UTF-8 bytes), as one history entry; false (and no change) if not allowed. */
  acceptString(text: string): boolean {
    const b = utf8.encode(text);
    const next = this.guarded(() => (this.cfg < 0 ? DEAD : this.stepBytes(this.cfg, b, 0, b.length)));
    if (next < 0) return false;
    this.history.push(this.cfg);
    this.inputs.push(b);
    this.cfg = next;
    return true;
  }

  /** The output so far is a complete match (an end token is allowed). */
  isCompleted(): boolean {
    return this.guarded(() => this.cfg >= 0 && this.table.automaton.isComplete(this.cfg));
  }

  /** An end token was accepted. */
  isTerminated(): boolean {
    return this.cfg === TERMINATED;
  }

  /**
   * Computes ahead, in idle time, the masks a generation of this grammar reaches soonest (every matcher of the grammar
   * and vocabulary shares them): the first mask's prefetch carried on, position by position, every level from the
   * start before any deeper one. Spends at most `work` units on trie walks (units: trie nodes walked, plus 16 per
   * closure walked and configuration made; counted, never timed); a position's determinization, which cannot be
   * stopped midway, is taken from the next call's work. Returns whether there is more to do: call it again in the next
   * idle slice. The masks are exactly those a step would compute, and it stops well below the automaton's bounds. The
   * first call computes the first mask whole if no step has. In the big bench, warming a tool set averaged 1.4–3.6 µs
   * a unit (its determinization weighs more than its walks).
   */
  warm(work: number): boolean {
    if (!Number.isFinite(work) || work < 0) throw new RangeError(`work must be a finite number >= 0, got ${work}`);
    return this.table.warm(work);
  }

  /**
   * Computes ahead, in the idle time between two masks of this generation (the model's forward pass), the masks of
   * the positions it can reach next from where it is: its next mask first, then, best first as the first mask's
   * prefetch goes, the positions after it (a narrow mask's tokens longest first, a wide mask's one-byte steps), up to
   * 24 steps ahead. Spends about `work` units (the units of {@link TokenMatcher.warm}: trie nodes walked, plus 16 per
   * closure walked and configuration made, plus 4 per position looked at; counted, never timed); a walk that would pass
   * what is left stops and stores nothing, and a position's determinization, which cannot be stopped midway, is taken
   * from the next call's work. Calls from the same position go on where the last one stopped; after a token is
   * accepted the walk starts afresh from the new position. Returns whether there is more to do from this position.
   * The masks are exactly those a step would compute, every matcher of the grammar and vocabulary shares them, and it
   * stops below the automaton's bounds, as `warm` does. Call it after each accepted token, before any `warm`.
   */
  warmAhead(work: number): boolean {
    if (!Number.isFinite(work) || work < 0) throw new RangeError(`work must be a finite number >= 0, got ${work}`);
    return this.guarded(() => (this.cfg < 0 ? false : this.table.warmAhead(this.cfg, work)));
  }

  /** Undo the last `n` accepted tokens (or strings). */
  rollback(n = 1): void {
    if (!Number.isInteger(n) || n < 0 || n > this.history.length)
      throw new RangeError(`cannot roll back ${n} steps (history has ${this.history.length})`);
    if (n === 0) return;
    this.sync();
    this.cfg = this.history[this.history.length - n];
    this.history.length -= n;
    this.inputs.length -= n;
  }

  /** Back to the start of the grammar, history cleared: the matcher is as new, for the next sequence. */
  reset(): void {
    this.cfg = this.table.automaton.initial;
    this.epoch = this.table.automaton.tableEpoch;
    this.history = [];
    this.inputs = [];
  }

  /**
   * The unique continuation (whole characters only), for jump-forward decoding; "" when there is a choice, and
   * when the last token ended inside a character.
   */
  forcedText(): string {
    return this.guarded(() => this.forcedTextNow());
  }

  private forcedTextNow(): string {
    const A = this.table.automaton;
    let s = this.cfg;
    const out: number[] = [];
    while (s >= 0 && out.length < MAX_FORCED_BYTES) {
      const b = A.forcedByte(s);
      if (b < 0) break;
      out.push(b);
      s = A.step(s, b);
    }
    // text cannot start inside a character: after a token that ended mid-character there is no forced *text*
    if (out.length > 0 && (out[0] & 0xc0) === 0x80) return "";
    // cut a trailing partial UTF-8 character
    let end = out.length;
    let k = end - 1;
    while (k >= 0 && (out[k] & 0xc0) === 0x80) k--;
    if (k >= 0) {
      const lead = out[k];
      const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      if (end - k < need) end = k;
    }
    return utf8Decoder.decode(Uint8Array.from(out.slice(0, end)));
  }
}
