import type { FormatDescription } from "../../formats/FormatDescription.js";
import type { ResolvedReasoning } from "../../formats/resolveReasoning.js";
import { ISSUE_CODES } from "../issueCodes.js";
import type { ParseIssue } from "../types.js";
import { splitMarker } from "../../formats/splitMarker.js";

/** What one step of the splitter gives: reasoning text to report, and the turn text after the block to parse. */
export interface ReasoningStep {
  reasoningDelta: string;
  rest: string;
}

/**
 * Separates the reasoning block at the start of a turn from the rest, incrementally: the stream feeds it every
 * chunk and parses only what it passes on. The block is read as compiled grammars write it (`open + R + close`, R
 * ending at the first `close`); a turn that does not start with `open` has no block (an issue when it was
 * required); an unclosed block is all reasoning. Holds back at most `close.length - 1` characters (or the opening
 * marker's length while deciding). A call marker inside the reasoning is not a call: CALL_IN_REASONING. Where the
 * family writes several blocks (`again` after a close opens the next, Muse Glimmer's messages to `self`), their texts
 * are one reasoning joined by `\n`.
 * With `lone` (a family that always closes the block, FormatDescription's `reasoning.closeAlone`), a turn without a
 * block starts with that closing marker alone: it is skipped (no reasoning), and its absence is REASONING_MISSING.
 * `r` is null when the options ask for no block (then only `lone` is read).
 */
export class ReasoningSplitter {
  private state: "deciding" | "inside" | "between" | "after";
  private buf = "";
  /** Reasoning text already reported. */
  private sent = "";
  private readonly issues: ParseIssue[] = [];
  private reasoning: string | undefined;
  /** Characters of the input before `buf`. */
  private consumed = 0;
  /** Offset in the whole text where the turn after the block starts. */
  offset = 0;

  constructor(
    private readonly r: ResolvedReasoning | null,
    private readonly d: FormatDescription,
    private readonly lone: string | null = null,
  ) {
    this.state = r !== null && r.open === "" ? "inside" : "deciding";
    this.blockStart = r?.open.length ?? 0;
  }

  push(chunk: string, final: boolean): ReasoningStep {
    if (this.state === "after") return { reasoningDelta: "", rest: chunk };
    this.buf += chunk;
    if (this.state === "deciding") {
      const open = this.r?.open ?? null;
      const lone = this.lone;
      if (open !== null && this.buf.startsWith(open)) {
        this.buf = this.buf.slice(open.length);
        this.consumed = open.length;
        this.state = "inside";
      } else if (lone !== null && this.buf.startsWith(lone)) {
        const rest = this.buf.slice(lone.length);
        this.offset = lone.length;
        this.buf = "";
        this.state = "after";
        return { reasoningDelta: "", rest };
      } else if ((open?.startsWith(this.buf) || lone?.startsWith(this.buf)) && !final) {
        return { reasoningDelta: "", rest: "" };
      } else {
        if (this.r?.mode === "required" || lone !== null) this.issue("REASONING_MISSING", [0, 0]);
        this.state = "after";
        const rest = this.buf;
        this.buf = "";
        return { reasoningDelta: "", rest };
      }
    }
    // inside a block, or between blocks (only a block opens these states, so `r` is set)
    const r = this.r as ResolvedReasoning;
    let reasoningDelta = "";
    for (;;) {
      if (this.state === "between") {
        // after a block's close: `again` opens one more block (ReasoningDescription.again), anything else the turn
        const again = r.again as string;
        if (this.buf.startsWith(again)) {
          this.buf = this.buf.slice(again.length);
          this.consumed += again.length;
          this.blockStart = this.consumed;
          this.blockText = "";
          this.sent += "\n";
          reasoningDelta += "\n";
          this.state = "inside";
          continue;
        }
        if (again.startsWith(this.buf) && !final) return { reasoningDelta, rest: "" };
        return { reasoningDelta, rest: this.end() };
      }
      const close = this.buf.indexOf(r.close);
      if (close >= 0) {
        const delta = this.buf.slice(0, close);
        this.blockText += delta;
        this.checkBlock();
        this.sent += delta;
        reasoningDelta += delta;
        this.consumed += close + r.close.length;
        this.buf = this.buf.slice(close + r.close.length);
        if (r.again !== undefined) {
          this.state = "between";
          continue;
        }
        return { reasoningDelta, rest: this.end() };
      }
      if (final) {
        const delta = this.buf;
        this.blockText += delta;
        this.sent += delta;
        this.consumed += delta.length;
        this.buf = "";
        this.issue("REASONING_UNCLOSED", [0, this.consumed]);
        this.checkBlock();
        this.end();
        return { reasoningDelta: reasoningDelta + delta, rest: "" };
      }
      let cut = Math.max(0, this.buf.length - (r.close.length - 1));
      // never split a surrogate pair between two deltas
      if (cut > 0 && cut < this.buf.length && /[\uDC00-\uDFFF]/.test(this.buf[cut])) cut--;
      const delta = this.buf.slice(0, cut);
      this.buf = this.buf.slice(cut);
      this.blockText += delta;
      this.consumed += delta.length;
      this.sent += delta;
      return { reasoningDelta: reasoningDelta + delta, rest: "" };
    }
  }

  /** The reasoning read (undefined when the turn had no block) and the issues about it. */
  result(): { reasoning: string | undefined; issues: ParseIssue[] } {
    return { reasoning: this.reasoning, issues: this.issues };
  }

  /** The text of the block being read, and where it starts in the whole text. */
  private blockText = "";
  private blockStart = 0;

  /** The reasoning is read: the turn starts at what is left (returned). */
  private end(): string {
    this.reasoning = this.sent;
    this.offset = this.consumed;
    this.state = "after";
    const rest = this.buf;
    this.buf = "";
    return rest;
  }

  /** A call marker inside a block is not a call: CALL_IN_REASONING at its place in the whole text. */
  private checkBlock(): void {
    const reasoning = this.blockText;
    const base = this.blockStart;
    // the markers that open calls: a section's (DeepSeek's `<｜tool▁calls▁begin｜>`) and a block's
    // (a section's opening marker by its core, as the stream finds it)
    const section = this.d.section === undefined ? null : splitMarker(this.d.section.open).core;
    for (const marker of [section, this.d.open]) {
      if (marker === null || marker === "") continue;
      for (let at = reasoning.indexOf(marker); at >= 0; at = reasoning.indexOf(marker, at + marker.length)) {
        this.issue("CALL_IN_REASONING", [base + at, base + at + marker.length]);
      }
    }
  }

  private issue(code: "REASONING_MISSING" | "REASONING_UNCLOSED" | "CALL_IN_REASONING", span: [number, number]): void {
    this.issues.push({ code, message: ISSUE_CODES[code], span });
  }
}
