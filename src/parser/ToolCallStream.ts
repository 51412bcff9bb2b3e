import { ToolgramError } from "../errors.js";
import { describeFormat } from "../formats/describeFormat.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import { assembleBlock } from "./assemble/assembleBlock.js";
import { assembleFencedCall } from "./assemble/assembleFencedCall.js";
import { CallCollector } from "./assemble/CallCollector.js";
import { ISSUE_CODES } from "./issueCodes.js";
import { UNIT_CODECS } from "./units/callUnit.js";
import { BlockScanner } from "./scan/BlockScanner.js";
import { cutAtCloseMarker } from "./scan/cutAtCloseMarker.js";
import { findSectionMarker } from "./scan/findSectionMarker.js";
import { hasOtherGeneration, otherGeneration } from "./scan/otherGeneration.js";
import { afterSeparators, findLateStart, lateStarts } from "./scan/lateStarts.js";
import { splitMarker } from "../formats/splitMarker.js";
import { FENCE, findFence } from "./scan/findFence.js";
import type { BlockEnd } from "./scan/ScannedBlock.js";
import { decideStart, START_LOOKAHEAD } from "./scan/startDecision.js";
import { strictBlockCheck } from "./strictBlockCheck.js";
import { validatorsFor } from "./toolValidators.js";
import type { ParseOptions, ParseResult, StreamEvent, ToolCallConstraint, ToolCallShape } from "./types.js";
import { resolveReasoning } from "../formats/resolveReasoning.js";
import { ReasoningSplitter } from "./reasoning/ReasoningSplitter.js";
import { withReasoning } from "./reasoning/withReasoning.js";
import { wholeReply } from "../formats/wholeReply.js";
import { firstMessageOpen, firstMessageOpenAfter, recipientClose } from "../formats/messageHead.js";

/** Strict mode compares the text between blocks with the separator; longer text is not kept. */
const MAX_SEPARATOR_CAPTURE = 64;

/** Tolerant re-readings of the text after an unclosed block (each is linear; the cap keeps the total linear). */
const MAX_RESCANS = 8;

/**
 * `start`: a format without an opening marker, before deciding whether the reply is a call; `message`: a turn of
 * messages (Functionary v3.2), before its first recipient; `text`: between blocks; `block`: inside one (a
 * BlockScanner reads it); `tail`: after a start-of-reply block, all text; `choose`: after a block's opening marker,
 * before its first character tells which generation of the family wrote it (tolerant mode, otherGeneration).
 */
type State = "start" | "message" | "text" | "block" | "tail" | "choose";

/**
 * Incremental tool-call parser. `push` returns events as soon as they are known; `flush` returns the last events;
 * `end` returns the result, which is exactly `parseToolCalls(allText)` — `parseToolCalls` is this class fed in one
 * chunk, so the two cannot disagree. Work is linear in the input: each character is examined a bounded number
 * of times, and only a marker-length tail (or the first characters of the reply, for formats without an opening
 * marker) is held back between chunks.
 *
 * Three parts, the same for every format: this class finds the blocks in the text (the description's markers and
 * start rules); a BlockScanner (src/parser/scan) finds where a block and its units end and reports early events;
 * assembleBlock (src/parser/assemble) reads the finished block's units into calls and issues through the unit
 * kind's codec (src/parser/units).
 */
export class ToolCallStream<T extends ToolCallConstraint = ToolCallShape> {
  private readonly d: FormatDescription;
  private readonly out: CallCollector<T>;
  private state: State;
  private pending = "";
  private pos = 0;
  private readonly contentParts: string[] = [];
  private blocksSeen = 0;
  private sepText = "";
  private prevBlockEnd = 0;
  private scanner: BlockScanner | null = null;
  /** Tolerant mode, a whole-reply JSON format: the texts that start a call after the reply's start (lateStarts). */
  private readonly late: readonly string[];
  /** A call just ended in state `tail`: separators and another call may follow (lateCall). */
  private afterCall = false;
  /** The description the current block is read with: the format's, or its family's other generation's. */
  private blockD: FormatDescription;
  /** A block opened at `start` by `opener`, waiting for its first character (state `choose`). */
  private chosen: { start: number; opener: string } | null = null;
  /** Tolerant mode: the unit's own start, which opens a block whose opening marker the model left out (or null). */
  private readonly bareStart: string | null;
  private flushed = false;
  private rescans = 0;
  /** Tolerant mode: a start prefix opened the reply's block, so its end marker may follow it (startPrefixEnd). */
  private prefixOpened = false;
  /** An undecided code block (held back from `at`), searched up to `searched` (absolute offsets). */
  private fenceResume: { at: number; searched: number } | null = null;
  private result: ParseResult<T> | undefined;
  /** Formats with a section around the calls: inside one now, how many were opened, blocks in the current one. */
  private inSection = false;
  private sections = 0;
  private sectionBlocks = 0;
  private sectionAt = 0;
  /**
   * A turn of messages: where its first message starts (null: not reached yet), and the text before its first
   * recipient as written (`messages.first`, or "" when the prompt or the reasoning block wrote it or it is missing).
   */
  private firstAt: number | null = null;
  private firstOpener = "";
  /** A turn of messages: the text message being read (its marker's span, and whether text followed), or null. */
  private textMessage: { span: [number, number]; read: boolean } | null = null;
  /** The reasoning block's closing marker (null when the options ask for none). */
  private readonly reasoningClose: string | null;
  /** Splits the reasoning block off the turn's start (null when the options ask for none). */
  private readonly reasoning: ReasoningSplitter | null;

  constructor(options: ParseOptions = {}) {
    const d = describeFormat(options.format ?? "qwen3");
    const mode = options.mode ?? "tolerant";
    if (mode !== "strict" && mode !== "tolerant") {
      throw new ToolgramError("INVALID_OPTION", `mode must be "strict" or "tolerant", got ${JSON.stringify(mode)}`);
    }
    const undeclared = options.additionalProperties ?? "forbid";
    if (undeclared !== "forbid" && undeclared !== "spec") {
      throw new ToolgramError(
        "INVALID_OPTION",
        `additionalProperties must be "forbid" or "spec", got ${JSON.stringify(undeclared)}`,
      );
    }
    this.d = d;
    this.blockD = d;
    const validators = options.tools ? validatorsFor(options.tools, undeclared) : undefined;
    const grammarCheck =
      mode === "strict" && options.tools ? strictBlockCheck(options.tools, d, undeclared) : undefined;
    this.out = new CallCollector<T>(mode, validators, grammarCheck);
    this.state = wholeReply(d) ? "start" : d.messages !== undefined ? "message" : "text";
    this.late = mode === "tolerant" ? lateStarts(d) : [];
    this.bareStart = mode === "tolerant" && d.open !== null ? (UNIT_CODECS[d.unit.kind].bareStart?.(d) ?? null) : null;
    const reasoning = resolveReasoning(d, options);
    // a family that always closes the block (MiniMax M3) starts a turn without one with the closing marker alone
    const lone =
      d.reasoning?.closeAlone === true && reasoning?.mode !== "required"
        ? (reasoning?.close ?? d.reasoning.close)
        : null;
    this.reasoning = reasoning === null && lone === null ? null : new ReasoningSplitter(reasoning, d, lone);
    this.reasoningClose = reasoning?.close ?? null;
  }

  /** Feeds a chunk of model output; returns the events it completes. */
  push(chunk: string): StreamEvent<T>[] {
    if (this.flushed) return [];
    this.pending += this.splitReasoning(chunk, false);
    this.run(false);
    return this.out.take();
  }

  /** Ends the input: releases held-back text and closes an unfinished block. Returns the last events. */
  flush(): StreamEvent<T>[] {
    if (this.flushed) return [];
    this.flushed = true;
    this.pending += this.splitReasoning("", true);
    this.run(true);
    // The canonical reply (and the compiled grammar) ends with its last call: only separators come between blocks.
    if (this.out.mode === "strict" && this.blocksSeen > 0 && this.sepText !== (this.d.afterCalls ?? "")) {
      this.out.issue("TEXT_AFTER_CALLS", ISSUE_CODES.TEXT_AFTER_CALLS, [this.prevBlockEnd, this.pos]);
    }
    if (this.inSection) this.out.issue("UNCLOSED_SECTION", ISSUE_CODES.UNCLOSED_SECTION, [this.sectionAt, this.pos]);
    this.closeTextMessage();
    return this.out.take();
  }

  /** Ends the input (flushing if needed) and returns the result, equal to `parseToolCalls` of all pushed text. */
  end(): ParseResult<T> {
    if (!this.flushed) this.flush();
    this.result ??= withReasoning(
      {
        content: this.contentParts.join(""),
        calls: this.out.calls,
        issues: this.out.issues,
        dropped: this.out.dropped,
      },
      this.reasoning,
    );
    return this.result;
  }

  /** The reasoning block's text goes out as `reasoning` events; what follows it is parsed. */
  private splitReasoning(chunk: string, final: boolean): string {
    if (this.reasoning === null) return chunk;
    const step = this.reasoning.push(chunk, final);
    if (step.reasoningDelta !== "") this.out.reasoning(step.reasoningDelta);
    return step.rest;
  }

  private text(s: string): void {
    if (s === "") return;
    if (this.textMessage !== null) this.textMessage.read = true;
    this.contentParts.push(s);
    this.out.text(s);
    if ((this.blocksSeen > 0 || this.inSection) && this.sepText.length <= MAX_SEPARATOR_CAPTURE)
      this.sepText += s.slice(0, MAX_SEPARATOR_CAPTURE + 1);
  }

  private run(final: boolean): void {
    for (;;) {
      const s = this.pending;
      let i = 0;
      let stop = false;
      while (i < s.length && !stop) {
        switch (this.state) {
          case "tail":
          case "text": {
            const r = this.scanText(s, i, final);
            i = r.i;
            stop = r.stop;
            break;
          }
          case "start": {
            const dec = decideStart(this.d, s.slice(i, i + START_LOOKAHEAD), final);
            const list = dec.kind === "yes" ? this.lateList(s, i + dec.bodyAt, final) : true;
            if (dec.kind === "maybe" || list === "need") stop = true;
            else if (dec.kind === "no" || !list) this.state = "tail";
            else {
              this.text(s.slice(i, i + dec.at));
              this.prefixOpened = dec.bodyAt > dec.at;
              this.beginBlock(this.pos + i + dec.at, s.slice(i + dec.at, i + dec.bodyAt));
              i += dec.bodyAt;
            }
            break;
          }
          case "message": {
            const r = this.firstMessage(s, i, final);
            i = r.i;
            stop = r.stop;
            break;
          }
          case "choose": {
            let j = i;
            while (j < s.length && /\s/.test(s[j])) j++;
            if (j >= s.length && !final) stop = true;
            else this.choose(s[j] ?? "");
            break;
          }
          case "block": {
            const r = (this.scanner as BlockScanner).scan(s, i, final);
            i = r.i;
            stop = r.needMore;
            if (r.end !== null) this.endBlock(r.end);
            break;
          }
        }
      }
      this.pending = s.slice(i);
      this.pos += i;
      if (!final) return;
      if (this.state === "choose") {
        this.choose("");
        continue;
      }
      if (this.state === "start" && this.pending === "") {
        this.state = "tail";
        return;
      }
      if (this.state === "block") {
        // input ended inside a block (or after a list that needs no closing bracket nor marker)
        const rest = this.endBlock((this.scanner as BlockScanner).complete ? "closed" : "eof");
        if (rest !== null) {
          this.pending = rest.text;
          this.pos = rest.pos;
          continue;
        }
      }
      return;
    }
  }

  /**
   * Text between blocks (`text`), or after a start-of-reply block (`tail`: no marker opens a block there), up to the
   * next opening marker. With tools, a Markdown code block of JSON is looked at too (assembleFencedCall). A prefix
   * of a marker or fence at the end is held back, and an undecided code block from its fence on.
   */
  private scanText(s: string, i: number, final: boolean): { i: number; stop: boolean } {
    if (this.state === "tail" && this.late.length > 0) {
      const r = this.lateCall(s, i, final);
      if (r !== null) return r;
    }
    const prefixEnd = this.d.startPrefixEnd;
    if (this.state === "tail" && this.prefixOpened && prefixEnd !== undefined && this.out.mode === "tolerant") {
      // right after a block its start prefix opened: its end marker (Llama 4's `<|python_end|>`) is consumed
      if (!final && s.length - i < prefixEnd.length && prefixEnd.startsWith(s.slice(i))) return { i, stop: true };
      this.prefixOpened = false;
      if (s.startsWith(prefixEnd, i)) return { i: i + prefixEnd.length, stop: false };
    }
    const open = this.state === "text" ? this.d.open : null;
    let p = open === null ? -1 : s.indexOf(open, i);
    let opener = open;
    // a section's blocks without an opening marker (MiniMax-M1's JSON lines) open at their value's `{`
    const bare = this.state !== "text" ? null : this.inSection && open === null ? "{" : this.bareStart;
    const section = this.state === "text" ? this.d.section : undefined;
    if (section !== undefined) {
      // the section's markers come before the text's other readings: a block or a code block after them waits
      const marker = this.inSection ? section.close : section.open;
      // searched only up to the first other reading (a block, a code block), so each text is looked at once
      let end = p < 0 ? s.length : p;
      if (bare !== null) {
        const q = s.slice(i, end).indexOf(bare);
        if (q >= 0) end = i + q;
      }
      const fence = this.out.hasTools ? fenceBefore(s, i, end) : -1;
      if (fence >= 0) end = fence;
      const hit = findSectionMarker(s, i, end, marker, final);
      if (hit.kind === "found") {
        this.text(s.slice(i, hit.start));
        const span: [number, number] = [this.pos + hit.start, this.pos + hit.end];
        if (!hit.exact) {
          // a repair in tolerant mode; strict mode, like the grammar, wants the marker's own padding
          const message = `whitespace around ${JSON.stringify(marker.trim())} differs from the canonical ${JSON.stringify(marker)}`;
          this.out.issue(this.out.mode === "strict" ? "SECTION_LAYOUT" : "WHITESPACE_AROUND_TAGS", message, span);
        }
        this.sectionMarker(span);
        return { i: hit.end, stop: false };
      }
      if (hit.kind === "wait") {
        this.text(s.slice(i, hit.start));
        return { i: hit.start, stop: true };
      }
      // a marker that holds a fence (Command R+'s `\nAction:\n```json\n[`) and is not complete yet: its start waits
      // for the rest, or the fence in it would be read as a code block where the batch sees the marker
      const across = fence >= 0 && !final ? markerAcrossFence(s, i, fence, marker) : -1;
      if (across >= 0) {
        this.text(s.slice(i, across));
        return { i: across, stop: true };
      }
      if (end === s.length) {
        const hold = final
          ? 0
          : Math.max(
              heldPrefix(s, i, marker),
              heldPrefix(s, i, splitMarker(marker).core),
              heldPrefix(s, i, open),
              heldPrefix(s, i, bare),
              this.out.hasTools ? heldPrefix(s, i, FENCE) : 0,
            );
        this.text(s.slice(i, s.length - hold));
        return { i: s.length - hold, stop: true };
      }
    }
    const variants = this.state === "text" && this.out.mode === "tolerant" ? (this.d.openVariants ?? []) : [];
    for (const v of variants) {
      // another spelling of the opening marker (Granite 3.1's `<tool_call>`), searched only up to the first marker
      const q = (p < 0 ? s.slice(i) : s.slice(i, p)).indexOf(v);
      if (q >= 0) [p, opener] = [i + q, v];
    }
    if (bare !== null) {
      // searched only up to the opening marker too; a block it opens has no opener
      const q = (p < 0 ? s.slice(i) : s.slice(i, p)).indexOf(bare);
      if (q >= 0) [p, opener] = [i + q, ""];
    }
    // searched only up to the marker, so the text between blocks is looked at once (no rescan of the rest per block)
    const f = this.out.hasTools ? fenceBefore(s, i, p < 0 ? s.length : p) : -1;
    // an opening marker that holds a fence (MiniCPM3's `<|tool_call_start|>\n```python`), not complete yet, waits as
    // a section's does: the batch sees the marker there, not a code block
    const across = f >= 0 && p < 0 && !final && open !== null ? markerAcrossFence(s, i, f, open) : -1;
    if (across >= 0) {
      this.text(s.slice(i, across));
      return { i: across, stop: true };
    }
    if (f >= 0 && (p < 0 || f < p)) return this.scanFence(s, i, f, final, open);
    if (opener !== null && p >= 0 && this.d.messages !== undefined && opener === open) {
      // a turn of messages: `open` followed by the text's recipient opens a text message, not a call
      const t = open + this.d.messages.text;
      if (s.startsWith(t, p)) {
        this.text(s.slice(i, p));
        this.openTextMessage([this.pos + p, this.pos + p + t.length]);
        return { i: p + t.length, stop: false };
      }
      if (!final && s.length - p < t.length && t.startsWith(s.slice(p))) {
        this.text(s.slice(i, p));
        return { i: p, stop: true };
      }
    }
    if (opener !== null && p >= 0 && this.d.messages !== undefined && opener === open && this.out.mode === "tolerant") {
      // a later message is a call's only when it starts like one, as the first is (firstMessage): a message to no
      // tool written as text (`>>>Hello there`, a second ` to=self`) stays text, never a failed call that loses it.
      // One that starts like a call to an undeclared tool is still a call, reported as UNKNOWN_TOOL.
      const head = callMessageHead(this.d, s, p + open.length, final);
      if (head === "wait") {
        this.text(s.slice(i, p));
        return { i: p, stop: true };
      }
      if (!head.call) {
        this.text(s.slice(i, p));
        const written = s.slice(p + open.length, Math.min(head.end, p + open.length + MESSAGE_QUOTE));
        this.out.issue(
          "MESSAGE_NOT_A_CALL",
          `the message opened by ${JSON.stringify(open)} starts with ${JSON.stringify(written)}, not a tool's name, ${JSON.stringify(recipientClose(this.d))} and its arguments: kept as text`,
          [this.pos + p, this.pos + head.end],
        );
        return { i: p + open.length, stop: false };
      }
    }
    if (opener !== null && p >= 0) {
      this.text(s.slice(i, p));
      if (opener !== open && variants.includes(opener)) {
        this.out.issue(
          "OPEN_MARKER_VARIANT",
          `${JSON.stringify(opener)} opens the block where the format writes ${JSON.stringify(open)}`,
          [this.pos + p, this.pos + p + opener.length],
        );
      }
      this.beginBlock(this.pos + p, opener);
      return { i: p + opener.length, stop: false };
    }
    const hold = final
      ? 0
      : Math.max(
          heldPrefix(s, i, open),
          heldPrefix(s, i, bare),
          this.out.hasTools ? heldPrefix(s, i, FENCE) : 0,
          ...variants.map((v) => heldPrefix(s, i, v)),
        );
    this.text(s.slice(i, s.length - hold));
    return { i: s.length - hold, stop: true };
  }

  /**
   * Tolerant reading of a whole-reply JSON list (xLAM): the reply's `[` starts the list only when a call object (or
   * the list's end) follows it; `[TOOL_CALLS][{…}]` is text before a late start. True for other formats.
   */
  private lateList(s: string, at: number, final: boolean): boolean | "need" {
    if (this.late.length === 0 || this.d.grouping !== "list") return true;
    const open = this.d.list?.open ?? "[";
    // a list without brackets starts at its first call object, which the start decision has already seen
    if (open === "") return true;
    let j = at + open.length;
    // bounded, so a run of whitespace is not waited on (and read again) to its end
    while (j < s.length && j - at < 64 && /\s/.test(s[j])) j++;
    if (j >= s.length) return final ? true : "need";
    if (j - at >= 64) return true;
    return s[j] === "{" || s[j] === "]";
  }

  /**
   * Tolerant reading of a whole-reply JSON format after its start (lateStarts): right after a call, separators then
   * another call (MORE_CALLS; the separators are neither content nor a call); after text, a call starting there
   * (CALL_AFTER_TEXT; the text stays content). Null when the usual tail reading applies (after the text is written
   * up to the next late start, or held back when a start may straddle the chunk's end).
   */
  private lateCall(s: string, i: number, final: boolean): { i: number; stop: boolean } | null {
    if (this.afterCall) {
      const sep = afterSeparators(s, i, this.late, final);
      if (sep.call === "need") return { i, stop: true };
      this.afterCall = false;
      if (sep.call) {
        this.out.issue("MORE_CALLS", ISSUE_CODES.MORE_CALLS, [this.pos + i, this.pos + sep.end]);
        this.beginBlock(this.pos + sep.end, "");
        return { i: sep.end, stop: false };
      }
    }
    // a code block comes first: the usual reading takes it (a fenced call), and comes back after it
    const f = this.out.hasTools ? fenceBefore(s, i, s.length) : -1;
    // searched only up to the fence (no start holds a backtick), so each text is looked at once
    const p = findLateStart(f < 0 ? s : s.slice(0, f), i, this.late);
    if (p < 0 && f >= 0) return null;
    if (p < 0) {
      // the usual reading, up to where a start may straddle the chunk's end
      const hold = final ? 0 : Math.max(...this.late.map((t) => heldPrefix(s, i, t)));
      if (hold === 0) return null;
      this.text(s.slice(i, s.length - hold));
      return { i: s.length - hold, stop: true };
    }
    this.text(s.slice(i, p));
    this.out.issue("CALL_AFTER_TEXT", ISSUE_CODES.CALL_AFTER_TEXT, [this.pos + p, this.pos + p]);
    this.beginBlock(this.pos + p, "");
    return { i: p, stop: false };
  }

  /** Text from `i` up to a code block's fence at `f` (before any opening marker), then the code block: a call or text. */
  private scanFence(
    s: string,
    i: number,
    f: number,
    final: boolean,
    open: string | null,
  ): { i: number; stop: boolean } {
    const resume =
      this.fenceResume !== null && this.fenceResume.at === this.pos + f ? this.fenceResume.searched - this.pos : 0;
    const fence = findFence(s, f, final, open, resume);
    this.fenceResume = null;
    if (fence !== null && "need" in fence) {
      this.fenceResume = { at: this.pos + f, searched: this.pos + fence.searched };
      this.text(s.slice(i, f));
      return { i: f, stop: true };
    }
    if (fence === null) {
      this.text(s.slice(i, f + FENCE.length));
      return { i: f + FENCE.length, stop: false };
    }
    this.text(s.slice(i, f));
    const raw = s.slice(f, fence.end);
    if (
      assembleFencedCall(raw, this.pos + f, fence.contentStart - f, fence.contentEnd - f, this.d, this.out) !== "call"
    )
      this.text(raw);
    return { i: fence.end, stop: false };
  }

  /**
   * The turn's first message (a turn of messages), after the reasoning block if any. The prompt wrote the first
   * `open`, or all of it but `messages.first` (Muse Glimmer's ` to=`), which the turn writes unless a reasoning block
   * came first. Then the recipient decides: the text's (`all\n`) opens a text message; a name closed as a call's
   * recipient is (`NAME\n{`, `NAME<|message|><`) opens a call; anything else is text, never a call, so no text is
   * lost to a call that is not there (strict mode: MESSAGE_LAYOUT). Holds back at most a name's length.
   */
  private firstMessage(s: string, i: number, final: boolean): { i: number; stop: boolean } {
    const d = this.d;
    const first = firstMessageOpen(d);
    if (this.firstAt === null) {
      this.firstAt = this.pos + i;
      this.firstOpener = "";
      // after a reasoning block, the text before the first recipient unless the block's closing marker ended with it
      const lead =
        this.reasoningClose !== null && this.reasoning?.result().reasoning !== undefined
          ? firstMessageOpenAfter(d, this.reasoningClose)
          : first;
      if (lead !== "") {
        if (s.startsWith(lead, i)) {
          this.firstOpener = lead;
          i += lead.length;
        } else if (!final && s.length - i < lead.length && lead.startsWith(s.slice(i))) {
          this.firstAt = null;
          return { i, stop: true };
        } else if (this.out.mode === "strict")
          this.out.issue("MESSAGE_LAYOUT", `the turn does not open its first message with ${JSON.stringify(lead)}`, [
            this.pos + i,
            this.pos + i,
          ]);
      }
    }
    const t = (d.messages as { text: string }).text;
    const at = this.firstAt;
    if (s.startsWith(t, i)) {
      this.openTextMessage([at, this.pos + i + t.length]);
      this.state = "text";
      return { i: i + t.length, stop: false };
    }
    if (!final && s.length - i < t.length && t.startsWith(s.slice(i))) return { i, stop: true };
    const head = readsAsCallMessage(d, s, i, final);
    if (head === "wait") return { i, stop: true };
    if (head) {
      this.beginBlock(at, this.firstOpener);
      return { i, stop: false };
    }
    // no recipient: the message is text
    if (this.out.mode === "strict")
      this.out.issue("MESSAGE_LAYOUT", "a message without a recipient", [at, this.pos + i]);
    this.text(this.firstOpener);
    this.state = "text";
    return { i, stop: false };
  }

  /**
   * A text message's marker (consumed: neither content nor a call). Strict mode: the canonical turn has at most one,
   * at its start, holding text.
   */
  private openTextMessage(span: [number, number]): void {
    this.closeTextMessage();
    if (this.out.mode === "strict" && (span[0] !== 0 || this.blocksSeen > 0))
      this.out.issue("MESSAGE_LAYOUT", "a text message after the turn's first message", span);
    this.textMessage = { span, read: false };
  }

  /** The text message ends (a block opens, or the input ends): strict mode wants text in it. */
  private closeTextMessage(): void {
    if (this.textMessage === null) return;
    if (this.out.mode === "strict" && !this.textMessage.read)
      this.out.issue("MESSAGE_LAYOUT", "an empty text message", this.textMessage.span);
    this.textMessage = null;
  }

  private beginBlock(start: number, opener: string): void {
    this.closeTextMessage();
    if (this.d.section !== undefined) this.sectionBlock(start);
    else if (this.out.mode === "strict" && this.blocksSeen > 0 && this.sepText !== this.d.blockSeparator) {
      this.out.issue(
        "NONCANONICAL_SEPARATOR",
        `expected ${JSON.stringify(this.d.blockSeparator)} between call blocks`,
        [this.prevBlockEnd, start],
      );
    }
    const tolerant = this.out.mode === "tolerant";
    if (tolerant && opener === this.d.open && hasOtherGeneration(this.d)) {
      this.chosen = { start, opener };
      this.state = "choose";
      return;
    }
    this.blockD = this.d;
    this.scanner = new BlockScanner(this.d, start, opener, this.out, tolerant);
    this.state = "block";
  }

  /** The block waiting in state `choose` starts with `first`: it is read as the generation that writes it so. */
  private choose(first: string): void {
    const { start, opener } = this.chosen as { start: number; opener: string };
    this.chosen = null;
    const other = otherGeneration(this.d, first);
    this.blockD = other ?? this.d;
    if (other !== null)
      this.out.issue(
        "OTHER_GENERATION",
        `the call after ${JSON.stringify(opener)} is written as ${other.name} writes it, not as ${this.d.name}`,
        [start, start + opener.length],
      );
    this.scanner = new BlockScanner(this.blockD, start, opener, this.out, true);
    this.state = "block";
  }

  /**
   * Hands the finished block to the assembler. Returns text to scan again when the tolerant re-reading of a block
   * the input ended inside cut it at its closing marker.
   */
  private endBlock(end: BlockEnd): { text: string; pos: number } | null {
    let block = (this.scanner as BlockScanner).finish(end);
    this.scanner = null;
    let rest: { text: string; pos: number } | null = null;
    if (end === "eof" && this.out.mode === "tolerant" && this.rescans < MAX_RESCANS) {
      const cut = cutAtCloseMarker(block, this.blockD);
      if (cut !== null) {
        this.rescans++;
        for (const slot of cut.cancelled) this.out.cancel(slot);
        block = cut.block;
        rest = { text: cut.rest, pos: cut.restAt };
      }
    }
    assembleBlock(block, this.blockD, this.out);
    this.blocksSeen++;
    this.sepText = "";
    this.prevBlockEnd = block.start + block.text.length;
    this.state = wholeReply(this.d) ? "tail" : "text";
    this.afterCall = this.late.length > 0 && this.d.grouping === "block";
    if (this.inSection) this.sectionBlocks++;
    return rest;
  }

  /**
   * A section's opening or closing marker in the text (consumed: neither content nor a call). Strict mode: the
   * canonical reply has one section, nothing between its opening marker and its first block, nor between its last
   * block and its closing marker, and at least one block.
   */
  private sectionMarker(span: [number, number]): void {
    const strict = this.out.mode === "strict";
    const at = span[0];
    if (!this.inSection) {
      if (strict && (this.sections > 0 || this.blocksSeen > 0))
        this.out.issue("SECTION_LAYOUT", "a second section of calls", span);
      this.inSection = true;
      this.sections++;
      this.sectionBlocks = 0;
      this.sectionAt = at;
    } else {
      if (strict && this.sectionBlocks === 0)
        this.out.issue("SECTION_LAYOUT", "a section without calls", [this.sectionAt, span[1]]);
      else if (strict && this.sepText !== "")
        this.out.issue("SECTION_LAYOUT", "text between the last call block and the section's closing marker", [
          this.prevBlockEnd,
          at,
        ]);
      this.inSection = false;
    }
    this.sepText = "";
  }

  /** Strict mode: a block of a format with a section sits inside it, after the canonical separator. */
  private sectionBlock(start: number): void {
    if (this.out.mode !== "strict") return;
    if (!this.inSection) this.out.issue("SECTION_LAYOUT", "a call block outside the section of calls", [start, start]);
    else if (this.sectionBlocks === 0 && this.sepText !== "")
      this.out.issue("SECTION_LAYOUT", "text between the section's opening marker and its first call block", [
        this.sectionAt,
        start,
      ]);
    else if (this.sectionBlocks > 0 && this.sepText !== this.d.blockSeparator) {
      this.out.issue(
        "NONCANONICAL_SEPARATOR",
        `expected ${JSON.stringify(this.d.blockSeparator)} between call blocks`,
        [this.prevBlockEnd, start],
      );
    }
  }
}

/** Longest recipient read at a message's start (a tool name; longer is text). */
const MAX_RECIPIENT = 256;

/**
 * Most whitespace read between a recipient's closing marker and its value (`>>>NAME\n` … `{`): a message with more is
 * text. Without a bound a stream of whitespace after a recipient would be held back, and read again, to its end.
 */
export const MAX_VALUE_GAP = 64;

/** How much of a message read as text an issue quotes. */
const MESSAGE_QUOTE = 40;

/**
 * Whether `s` from `i` starts like a call message of a turn of messages: a recipient (no whitespace, `{`, nor the
 * first character of the recipient's closing marker), that closing marker, then (after whitespace) what the unit's
 * value starts with (`{` of named-json, the `<` of Muse Glimmer's `<atem:function_calls>`). `"wait"`: undecided until
 * more text comes.
 */
function readsAsCallMessage(d: FormatDescription, s: string, i: number, final: boolean): boolean | "wait" {
  const h = callMessageHead(d, s, i, final);
  return h === "wait" ? h : h.call;
}

/**
 * readsAsCallMessage's decision and where it was taken (`end`, exclusive): `s[i…end]` is the text that decided, the
 * same at every chunking since the decision waits rather than guess at the end of a chunk.
 */
function callMessageHead(
  d: FormatDescription,
  s: string,
  i: number,
  final: boolean,
): { call: boolean; end: number } | "wait" {
  const close = recipientClose(d);
  if (close === undefined) return { call: true, end: i };
  const valueStart = d.unit.kind === "xml-parameters" ? d.unit.nameOpen.trim().slice(0, 1) || "<" : "{";
  for (let j = i; j <= i + MAX_RECIPIENT; j++) {
    if (j >= s.length) return final ? { call: false, end: s.length } : "wait";
    if (s.startsWith(close, j)) {
      if (j === i) return { call: false, end: j + close.length };
      let k = j + close.length;
      // whitespace before the value is bounded, so the decision never waits on more than a bounded text
      const limit = k + MAX_VALUE_GAP;
      while (k < s.length && k < limit && /\s/.test(s[k])) k++;
      if (k >= limit) return { call: false, end: k };
      if (k >= s.length) return final ? { call: false, end: k } : "wait";
      return { call: s[k] === valueStart, end: k + 1 };
    }
    if (!final && s.length - j < close.length && close.startsWith(s.slice(j))) return "wait";
    if (/[\s{]/.test(s[j]) || s[j] === close[0]) return { call: false, end: j + 1 };
  }
  return { call: false, end: i + MAX_RECIPIENT + 1 };
}

/** The length of the longest end of `s` (after `i`) that is a proper prefix of `marker`. */
function heldPrefix(s: string, i: number, marker: string | null): number {
  if (marker === null) return 0;
  for (let k = Math.min(marker.length - 1, s.length - i); k > 0; k--) {
    if (marker.startsWith(s.slice(s.length - k))) return k;
  }
  return 0;
}

/**
 * Where an unfinished occurrence of `marker`, a marker holding a fence, starts in `s[from…]` when it reaches the end
 * of `s` over the fence at `f` (with the marker's leading whitespace when present); -1 when there is none.
 */
function markerAcrossFence(s: string, from: number, f: number, marker: string): number {
  const { lead, core } = splitMarker(marker);
  const k = f - core.indexOf(FENCE);
  if (k > f || k < from || !core.startsWith(s.slice(k))) return -1;
  return k - lead.length >= from && s.startsWith(lead, k - lead.length) ? k - lead.length : k;
}

/** The first fence starting in `s[from, to)`, or -1. */
function fenceBefore(s: string, from: number, to: number): number {
  for (let k = from; k < to; k++) if (s.charCodeAt(k) === 0x60 && s.startsWith(FENCE, k)) return k;
  return -1;
}
