import type { ErrorObject } from "ajv";
import { ToolgramError } from "../errors.js";
import { ISSUE_CODES, type IssueCode } from "./issueCodes.js";
import { describeFormat } from "../formats/describeFormat.js";
import type { FormatDescription, JsonObjectUnit } from "../formats/FormatDescription.js";
import { parseCallUnit, UNIT_CODECS, type UnitCall } from "./units/callUnit.js";
import { splitObjects } from "./units/jsonObjectUnit.js";
import { decideStart, START_LOOKAHEAD } from "./scan/startDecision.js";
import { joinCallUnits } from "./renderToolCalls.js";
import { validatorsFor, type ToolValidators } from "./toolValidators.js";
import { strictBlockCheck } from "./strictBlockCheck.js";
import type {
  ParseIssue,
  ParseMode,
  ParseOptions,
  ParseResult,
  ParsedToolCall,
  StreamEvent,
  ToolCallConstraint, ToolCallShape,
} from "./types.js";

const OPEN_QUOTE: Record<string, string> = { '"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019" };
/**
 * Glaive writes its arguments as raw JSON text between single quotes, apostrophes included; the double-quoted
 * strings inside balance on their own, so single quotes are not string delimiters there.
 */
const OPEN_QUOTE_RAW_SINGLE: Record<string, string> = { '"': '"', "\u201c": "\u201d", "\u2018": "\u2019" };
const WS = new Set([" ", "\n", "\r", "\t"]);
/** Caps on what is captured for early `call_name` events (the final call always has the full name). */
const MAX_KEY_CAPTURE = 64;
const MAX_NAME_CAPTURE = 256;
/** Strict mode compares the text between blocks with the separator; longer text is not kept. */
const MAX_SEPARATOR_CAPTURE = 64;

/** Why strict mode with tools drops a call that parsed canonically and validates. */
const GRAMMAR_REFUSED = "the call is not one the compiled grammar accepts (a number spelling it narrows, an id it does not allow, or a constraint the schema check alone misses)";

/** Tolerant re-readings of the text after an unclosed block (each is linear; the cap keeps the total linear). */
const MAX_RESCANS = 8;

type State = "start" | "text" | "block" | "tail";

interface Unit {
  /** [start, end) relative to the block start. */
  start: number;
  end: number;
  slot: number;
}

/** Scanning state of the block being read. */
interface Block {
  start: number;
  parts: string[];
  len: number;
  /** Offset (relative) where the body begins, after the opening marker / start prefix. */
  bodyStart: number;
  quote: string | null;
  escaped: boolean;
  depth: number;
  /** A bracket of the body has been seen (blocks without a closing marker end when it closes). */
  opened: boolean;
  /** Depth at which call units sit: 1 inside an array body, 0 for a bare object where an array was expected. */
  unitDepth: number;
  units: Unit[];
  unitStart: number;
  unitSlot: number;
  lastNonWs: number;
  emptyElement: boolean;
  trailingComma: boolean;
  bare: boolean;
  slot: number;
  // early events
  expectKey: boolean;
  keyBuf: string | null;
  lastKey: string | null;
  valueKey: string | null;
  nameBuf: string | null;
  nameSent: boolean;
  argsActive: boolean;
}

/**
 * Incremental tool-call parser. `push` returns events as soon as they are known; `flush` returns the last events;
 * `end` returns the result, which is exactly `parseToolCalls(allText)` — `parseToolCalls` is this class fed in one
 * chunk, so the two cannot disagree. Work is linear in the input: each character is examined a bounded number
 * of times, and only a marker-length tail (or the first characters of the reply, for formats without an opening
 * marker) is held back between chunks.
 */
export class ToolCallStream<T extends ToolCallConstraint = ToolCallShape> {
  private readonly d: FormatDescription;
  private readonly mode: ParseMode;
  private readonly validators: ToolValidators | undefined;
  private state: State;
  private pending = "";
  private pos = 0;
  private events: StreamEvent<T>[] = [];
  private readonly contentParts: string[] = [];
  private readonly calls: ParsedToolCall<T>[] = [];
  private readonly issues: ParseIssue[] = [];
  private dropped = 0;
  private slots = 0;
  private blocksSeen = 0;
  private sepText = "";
  private prevBlockEnd = 0;
  private blk: Block | null = null;
  private flushed = false;
  private rescans = 0;
  private result: ParseResult<T> | undefined;
  /**
   * Strict mode with tools, every format: the compiled grammar of one call has the last word on each call unit (a
   * block's body, or a list element) that passes the schema check (see strictBlockCheck).
   */
  private readonly grammarCheck: ((unit: string) => boolean) | undefined;
  /** Tolerant mode: the unit's own start, which opens a block whose opening marker the model left out (or null). */
  private readonly bareStart: string | null;

  constructor(options: ParseOptions = {}) {
    const d = describeFormat(options.format ?? "qwen3");
    const mode = options.mode ?? "tolerant";
    if (mode !== "strict" && mode !== "tolerant") {
      throw new ToolgramError("INVALID_OPTION", `mode must be "strict" or "tolerant", got ${JSON.stringify(mode)}`);
    }
    this.d = d;
    this.mode = mode;
    const undeclared = options.additionalProperties ?? "forbid";
    if (undeclared !== "forbid" && undeclared !== "spec") {
      throw new ToolgramError("INVALID_OPTION", `additionalProperties must be "forbid" or "spec", got ${JSON.stringify(undeclared)}`);
    }
    this.validators = options.tools ? validatorsFor(options.tools, undeclared) : undefined;
    this.grammarCheck = mode === "strict" && options.tools ? strictBlockCheck(options.tools, d, undeclared) : undefined;
    this.state = d.open === null ? "start" : "text";
    this.bareStart = mode === "tolerant" && d.open !== null ? (UNIT_CODECS[d.unit.kind].bareStart?.(d) ?? null) : null;
  }

  private validatesCleanly(call: { name: string; arguments: unknown }): boolean {
    const errs = this.validators?.validate(call.name, call.arguments as Parameters<ToolValidators["validate"]>[1]);
    return errs !== undefined && errs.length === 0;
  }

  /**
   * Strict mode with tools: a unit that parsed canonically and validates, but that the compiled grammar does not
   * accept. A call that fails validation is kept, with its precise issue (UNKNOWN_TOOL, INVALID_ARGUMENTS...); one
   * that passes it but not the grammar is spelled in a way the grammar narrows.
   */
  private refusedByGrammar(call: UnitCall, unit: string): boolean {
    return this.grammarCheck !== undefined && this.validatesCleanly(call) && !this.grammarCheck(unit);
  }

  /** Feeds a chunk of model output; returns the events it completes. */
  push(chunk: string): StreamEvent<T>[] {
    if (this.flushed) return [];
    this.pending += chunk;
    this.run(false);
    return this.take();
  }

  /** Ends the input: releases held-back text and closes an unfinished block. Returns the last events. */
  flush(): StreamEvent<T>[] {
    if (this.flushed) return [];
    this.flushed = true;
    this.run(true);
    // The canonical reply (and the compiled grammar) ends with its last call: only separators come between blocks.
    if (this.mode === "strict" && this.blocksSeen > 0 && this.sepText !== "") {
      this.issue("TEXT_AFTER_CALLS", ISSUE_CODES.TEXT_AFTER_CALLS, [this.prevBlockEnd, this.pos]);
    }
    return this.take();
  }

  /** Ends the input (flushing if needed) and returns the result, equal to `parseToolCalls` of all pushed text. */
  end(): ParseResult<T> {
    if (!this.flushed) this.flush();
    this.result ??= {
      content: this.contentParts.join(""),
      calls: this.calls,
      issues: this.issues,
      dropped: this.dropped,
    };
    return this.result;
  }

  private take(): StreamEvent<T>[] {
    const ev = this.events;
    this.events = [];
    return ev;
  }

  private text(s: string): void {
    if (s === "") return;
    this.contentParts.push(s);
    this.events.push({ type: "text", delta: s });
    if (this.blocksSeen > 0 && this.sepText.length <= MAX_SEPARATOR_CAPTURE) this.sepText += s.slice(0, MAX_SEPARATOR_CAPTURE + 1);
  }

  private run(final: boolean): void {
    for (;;) {
      const s = this.pending;
      let i = 0;
      let stop = false;
      while (i < s.length && !stop) {
        switch (this.state) {
          case "tail":
            this.text(s.slice(i));
            i = s.length;
            break;
          case "start": {
            const dec = decideStart(this.d, s.slice(i, i + START_LOOKAHEAD), final);
            if (dec.kind === "maybe") stop = true;
            else if (dec.kind === "no") this.state = "tail";
            else {
              this.text(s.slice(i, i + dec.at));
              this.beginBlock(this.pos + i + dec.at, s.slice(i + dec.at, i + dec.bodyAt));
              i += dec.bodyAt;
            }
            break;
          }
          case "text": {
            let open = this.d.open as string;
            let p = s.indexOf(open, i);
            const bare = this.bareStart;
            if (bare !== null) {
              // searched only up to the next opening marker, so the text is read once however many blocks follow
              const q = (p < 0 ? s.slice(i) : s.slice(i, p)).indexOf(bare);
              if (q >= 0) [p, open] = [i + q, ""];
            }
            if (p >= 0) {
              this.text(s.slice(i, p));
              this.beginBlock(this.pos + p, open);
              i = p + open.length;
            } else {
              let hold = 0;
              if (!final) {
                for (const m of bare === null ? [open] : [open, bare]) {
                  for (let k = Math.min(m.length - 1, s.length - i); k > hold; k--) {
                    if (m.startsWith(s.slice(s.length - k))) {
                      hold = k;
                      break;
                    }
                  }
                }
              }
              this.text(s.slice(i, s.length - hold));
              i = s.length - hold;
              stop = true;
            }
            break;
          }
          case "block": {
            const r = this.scanBlock(s, i, final);
            i = r.i;
            stop = r.needMore;
            break;
          }
        }
      }
      this.pending = s.slice(i);
      this.pos += i;
      if (!final) return;
      if (this.state === "start" && this.pending === "") {
        this.state = "tail";
        return;
      }
      if (this.state === "block") {
        // input ended inside a block
        const rest = this.endBlock("eof");
        if (rest !== null) {
          this.pending = rest.text;
          this.pos = rest.pos;
          continue;
        }
      }
      return;
    }
  }

  private beginBlock(start: number, opener: string): void {
    if (this.mode === "strict" && this.blocksSeen > 0 && this.sepText !== this.d.blockSeparator) {
      this.issue("NONCANONICAL_SEPARATOR", `expected ${JSON.stringify(this.d.blockSeparator)} between call blocks`, [this.prevBlockEnd, start]);
    }
    const b: Block = {
      start,
      parts: [opener],
      len: opener.length,
      bodyStart: opener.length,
      quote: null,
      escaped: false,
      depth: 0,
      opened: false,
      unitDepth: 1,
      units: [],
      unitStart: -1,
      unitSlot: -1,
      lastNonWs: opener.length,
      emptyElement: false,
      trailingComma: false,
      bare: false,
      slot: -1,
      expectKey: false,
      keyBuf: null,
      lastKey: null,
      valueKey: null,
      nameBuf: null,
      nameSent: false,
      argsActive: false,
    };
    this.blk = b;
    this.state = "block";
    if (this.d.grouping === "block") {
      b.slot = this.slots++;
      this.events.push({ type: "call_start", index: b.slot });
    }
  }

  // Scan cursor of scanBlock, kept on the instance (not in closures) so a one-character push allocates little.
  private scanText = "";
  private seg = 0;
  private argsFrom = -1;

  /** Appends the scanned text up to `upTo` to the block, emitting the arguments text it holds. */
  private save(upTo: number): void {
    const b = this.blk as Block;
    const s = this.scanText;
    if (this.argsFrom >= 0 && upTo > this.argsFrom) {
      this.events.push({ type: "arguments_delta", index: this.callSlot(b), delta: s.slice(this.argsFrom, upTo) });
    }
    this.argsFrom = b.argsActive ? upTo : -1;
    if (upTo > this.seg) {
      b.parts.push(s.slice(this.seg, upTo));
      b.len += upTo - this.seg;
    }
    this.seg = upTo;
  }

  private endArgs(at: number): void {
    const b = this.blk as Block;
    if (!b.argsActive) return;
    this.save(at);
    b.argsActive = false;
    this.argsFrom = -1;
  }

  /** Scans block characters from `i0`; returns where it stopped and whether it needs more input to decide. */
  private scanBlock(s: string, i0: number, final: boolean): { i: number; needMore: boolean } {
    const b = this.blk as Block;
    const d = this.d;
    const ju: JsonObjectUnit | null = d.unit.kind === "json-object" ? d.unit : null;
    const json = ju !== null;
    const xml = d.unit.kind === "xml-parameters";
    const quotes = ju?.argumentsEncoding === "single-quoted-json" ? OPEN_QUOTE_RAW_SINGLE : OPEN_QUOTE;
    let i = i0;
    this.scanText = s;
    this.seg = i0;
    this.argsFrom = b.argsActive ? i0 : -1;
    for (; i < s.length; i++) {
      const c = s[i];
      if (b.quote !== null) {
        if (b.escaped) b.escaped = false;
        else if (c === "\\") b.escaped = true;
        else if (c === b.quote) {
          b.quote = null;
          if (b.keyBuf !== null) {
            b.lastKey = b.keyBuf;
            b.keyBuf = null;
          } else if (b.nameBuf !== null) {
            if (!b.nameSent && b.nameBuf !== "") {
              b.nameSent = true;
              this.events.push({ type: "call_name", index: this.callSlot(b), name: b.nameBuf });
            }
            b.nameBuf = null;
          }
        } else if (b.keyBuf !== null) {
          if (b.keyBuf.length < MAX_KEY_CAPTURE) b.keyBuf += c;
        } else if (b.nameBuf !== null && b.nameBuf.length < MAX_NAME_CAPTURE) b.nameBuf += c;
        b.lastNonWs = b.len + i - this.seg + 1;
        continue;
      }
      // markers outside strings
      if (d.close !== null && c === d.close[0]) {
        const m = matchAt(s, i, d.close, final);
        if (m === "need") {
          this.save(i);
          return { i, needMore: true };
        }
        if (m === "yes") {
          this.endArgs(i);
          this.save(i + d.close.length);
          this.endBlock("closed");
          return { i: i + d.close.length, needMore: false };
        }
      }
      if (d.open !== null && c === d.open[0]) {
        const m = matchAt(s, i, d.open, final);
        if (m === "need") {
          this.save(i);
          return { i, needMore: true };
        }
        if (m === "yes") {
          // a new block starts: this one was never closed
          this.endArgs(i);
          this.save(i);
          this.endBlock("interrupted");
          return { i, needMore: false };
        }
      }
      // tagged parameters: raw values hold any character, so only the markers above count
      if (xml) continue;
      if (WS.has(c)) continue;

      // a block without a closing marker needs a bracketed value; anything else ends it (and is text)
      if (d.close === null && !b.opened && b.depth === 0 && !"{[(".includes(c)) {
        this.save(i);
        this.endBlock("novalue");
        return { i, needMore: false };
      }

      // units of array / python-list bodies
      if (d.grouping === "list") {
        if (!b.opened && b.depth === 0 && c === "{" && json) {
          b.bare = true;
          b.unitDepth = 0;
        }
        if (b.depth === b.unitDepth && c !== "," && !(b.depth > 0 && "}])".includes(c)) && b.unitStart < 0) {
          b.unitStart = b.len + i - this.seg;
          b.unitSlot = this.slots++;
          b.expectKey = false;
          b.keyBuf = b.lastKey = b.valueKey = b.nameBuf = null;
          b.nameSent = false;
          b.argsActive = false;
          this.events.push({ type: "call_start", index: b.unitSlot });
          if (!json) b.nameBuf = "";
        }
        if (b.depth === b.unitDepth && b.depth > 0 && c === ",") {
          if (b.unitStart >= 0) this.closeUnit(b);
          else b.emptyElement = true;
          continue;
        }
        if (!json && b.nameBuf !== null && b.depth === 1) {
          if (c === "(") {
            if (b.nameBuf !== "") this.events.push({ type: "call_name", index: b.unitSlot, name: b.nameBuf });
            b.nameBuf = null;
          } else if (b.nameBuf.length < MAX_NAME_CAPTURE) b.nameBuf += c;
        }
      }

      const prevNonWs = b.lastNonWs;
      b.lastNonWs = b.len + i - this.seg + 1;
      // keys of the call object sit at this depth
      const kd = d.grouping === "block" ? 1 : b.unitDepth + 1;

      // value start after "key":
      if (ju !== null && b.valueKey !== null && b.depth === kd) {
        const key = b.valueKey;
        b.valueKey = null;
        if (key === ju.nameKey && c in quotes) b.nameBuf = "";
        else if (key === ju.argumentsKey || ju.argumentsAliases.includes(key)) {
          b.argsActive = true;
          this.save(i);
          this.argsFrom = i;
        }
      }

      if (c in quotes) {
        b.quote = quotes[c];
        if (json && b.expectKey && b.depth === kd) {
          b.keyBuf = "";
          b.expectKey = false;
        }
      } else if (c === "{" || c === "[" || c === "(") {
        b.depth++;
        b.opened = true;
        if (json && c === "{" && b.depth === kd) b.expectKey = true;
      } else if (c === "}" || c === "]" || c === ")") {
        if (json && b.depth === kd) this.endArgs(i);
        b.depth--;
        if (d.grouping === "list" && b.depth === b.unitDepth - 1 && b.depth >= 0 && !b.bare) {
          // the body's closing bracket
          if (b.unitStart >= 0) this.closeUnit(b, prevNonWs);
          else if (b.units.length > 0 || b.emptyElement) b.trailingComma = true;
        }
        if (b.depth <= 0 && d.close === null) {
          if (b.bare && b.unitStart >= 0) this.closeUnit(b, b.len + i - this.seg + 1);
          this.save(i + 1);
          this.endBlock("closed");
          return { i: i + 1, needMore: false };
        }
        if (b.depth < 0) b.depth = 0;
      } else if (json && c === "," && b.depth === kd) {
        this.endArgs(i);
        b.expectKey = true;
      } else if (json && c === ":" && b.depth === kd && b.lastKey !== null) {
        b.valueKey = b.lastKey;
        b.lastKey = null;
      }
    }
    this.save(i);
    return { i, needMore: false };
  }

  private callSlot(b: Block): number {
    return this.d.grouping === "block" ? b.slot : b.unitSlot;
  }

  private closeUnit(b: Block, end = b.lastNonWs): void {
    b.units.push({ start: b.unitStart, end: Math.max(end, b.unitStart), slot: b.unitSlot });
    b.unitStart = -1;
    b.argsActive = false;
  }

  /**
   * Reads the finished block into calls. `eof`: input ended inside it; `interrupted`: a new opening marker came
   * first; `novalue`: the block had no bracketed value. Returns text to scan again when a tolerant reading cut the
   * block short.
   */
  private endBlock(kind: "closed" | "eof" | "interrupted" | "novalue"): { text: string; pos: number } | null {
    const b = this.blk as Block;
    const d = this.d;
    this.blk = null;
    let blockText = b.parts.join("");
    let rest: { text: string; pos: number } | null = null;
    let closed = kind === "closed";
    if (kind === "eof" && d.close !== null && this.mode === "tolerant" && this.rescans < MAX_RESCANS) {
      // the scanner may have been inside a string that was never closed; cut at the first closing marker
      const k = blockText.indexOf(d.close, b.bodyStart);
      if (k >= 0) {
        this.rescans++;
        const cut = k + d.close.length;
        rest = { text: blockText.slice(cut), pos: b.start + cut };
        blockText = blockText.slice(0, cut);
        // units past the cut are read again from the rest; close their events here
        for (const u of b.units) if (u.end > k && u.start >= k) this.events.push({ type: "call_end", index: u.slot, call: null, raw: "" });
        if (b.unitStart >= k) {
          this.events.push({ type: "call_end", index: b.unitSlot, call: null, raw: "" });
          b.unitStart = -1;
        }
        b.units = b.units.filter((u) => u.end <= k || u.start < k).map((u) => ({ ...u, end: Math.min(u.end, k) }));
        if (b.unitStart >= 0 && b.unitStart < k) {
          b.units.push({ start: b.unitStart, end: k, slot: b.unitSlot });
          b.unitStart = -1;
        }
        closed = true;
      }
    }
    const span: [number, number] = [b.start, b.start + blockText.length];
    const closeLen = closed && d.close !== null ? d.close.length : 0;
    if (d.grouping === "block") {
      const body = blockText.slice(b.bodyStart, blockText.length - closeLen);
      const v = this.validators;
      const r = parseCallUnit(body, d, this.mode, closed, v ? (tool, key) => v.valueKind(tool, key) : undefined);
      const parts = this.mode === "tolerant" && (!r.ok || r.repairs.some((x) => x.code === "TRAILING_TEXT_IN_BLOCK")) ? splitObjects(body) : null;
      if (parts) {
        // several call objects in one block: each is a call, its raw text the object
        parts.forEach(([ps, pe], k) => {
          const slot = k === 0 ? b.slot : this.slots++;
          if (k > 0) this.events.push({ type: "call_start", index: slot });
          const raw = body.slice(ps, pe);
          const at = b.start + b.bodyStart + ps;
          const u = parseCallUnit(raw, { ...d, afterOpen: "", beforeClose: "" }, "tolerant");
          if (u.ok) {
            const idx = this.addCall(u.call, raw, [at, at + raw.length], ["MULTIPLE_CALLS_IN_BLOCK", ...u.repairs.map((x) => x.code)], slot);
            if (!closed && k === parts.length - 1) this.issue("UNCLOSED_BLOCK", `the block has no ${JSON.stringify(d.close)}`, span, idx);
          } else this.drop(u.code, u.message, [at, at + raw.length], slot, raw);
        });
      } else if (r.ok && closed && this.mode === "strict" && d.open === null && b.bodyStart > 0) {
        // a start prefix (Llama 3's <|python_tag|>) is a drift real models make, not the canonical reply: no grammar
        // emits it
        this.drop("NONCANONICAL", `the ${JSON.stringify(blockText.slice(0, b.bodyStart).trim())} prefix is not part of the canonical ${d.name} rendering`, span, b.slot, blockText);
      } else if (r.ok && closed && this.refusedByGrammar(r.call, body)) {
        this.drop("NONCANONICAL", GRAMMAR_REFUSED, span, b.slot, blockText);
      } else if (r.ok && (closed || this.mode === "tolerant")) {
        const codes = r.repairs.map((x) => x.code);
        if (b.bodyStart === 0 && d.open !== null) codes.unshift("MISSING_OPEN_MARKER");
        const idx = this.addCall(r.call, blockText, span, codes, b.slot);
        if (!closed) this.issue("UNCLOSED_BLOCK", `the block has no ${d.close === null ? "closing bracket" : JSON.stringify(d.close)}`, span, idx);
      } else {
        if (kind === "novalue") this.drop("INVALID_JSON", `no JSON object after ${JSON.stringify(d.open)}`, span, b.slot, blockText);
        else if (r.ok) this.drop(kind === "eof" ? "TRUNCATED" : "NONCANONICAL", "the block is not closed", span, b.slot, blockText);
        else this.drop(r.code, r.message, span, b.slot, blockText);
      }
    } else if (kind === "novalue" && b.units.length === 0 && b.unitStart < 0) {
      this.drop("INVALID_JSON", `no call list after ${JSON.stringify(d.open)}`, span, -1, blockText);
    } else {
      if (b.unitStart >= 0) this.closeUnit(b);
      const results = b.units.map((u) => ({ u, r: parseCallUnit(blockText.slice(u.start, u.end), d, this.mode) }));
      let scaffoldOk = closed && !b.bare;
      if (this.mode === "strict" && scaffoldOk && results.every((x) => x.r.ok)) {
        // each unit passed its own canonical check (which allows the number spellings a grammar emits): the block
        // must be the canonical list around the units as written
        scaffoldOk = results.length <= d.maxCalls && joinCallUnits(results.map(({ u }) => blockText.slice(u.start, u.end)), d) === blockText;
      }
      if (this.mode === "strict" && !scaffoldOk) {
        for (const { u } of results) this.drop("NONCANONICAL", `the ${d.name} block is not the canonical rendering`, [b.start + u.start, b.start + u.end], u.slot, blockText.slice(u.start, u.end));
      } else {
        for (const { u, r } of results) {
          const uspan: [number, number] = [b.start + u.start, b.start + u.end];
          const raw = blockText.slice(u.start, u.end);
          if (r.ok && closed && this.refusedByGrammar(r.call, raw)) this.drop("NONCANONICAL", GRAMMAR_REFUSED, uspan, u.slot, raw);
          else if (r.ok) this.addCall(r.call, raw, uspan, r.repairs.map((x) => x.code), u.slot);
          else this.drop(!closed && r.code === "INVALID_JSON" && u === b.units[b.units.length - 1] ? "TRUNCATED" : r.code, r.message, uspan, u.slot, raw);
        }
        if (!closed) this.issue("UNCLOSED_BLOCK", `the call list has no ${d.close === null ? "closing bracket" : JSON.stringify(d.close)}`, span);
        if (b.bare) this.issue("MISSING_ARRAY_BRACKETS", ISSUE_CODES.MISSING_ARRAY_BRACKETS, span);
        if (b.trailingComma) this.issue("TRAILING_COMMA", ISSUE_CODES.TRAILING_COMMA, span);
        else if (b.emptyElement) this.issue("EMPTY_ELEMENT", ISSUE_CODES.EMPTY_ELEMENT, span);
      }
    }
    this.blocksSeen++;
    this.sepText = "";
    this.prevBlockEnd = span[1];
    this.state = d.open === null ? "tail" : "text";
    return rest;
  }

  private addCall(u: UnitCall, raw: string, span: [number, number], repairs: IssueCode[], slot: number): number {
    const index = this.calls.length;
    let valid = true;
    let errors: ErrorObject[] = [];
    if (this.validators) {
      const errs = this.validators.validate(u.name, u.arguments);
      if (errs === undefined) {
        valid = false;
      } else {
        errors = errs;
        valid = errs.length === 0;
      }
    }
    const call = { name: u.name, arguments: u.arguments, raw, span, valid, errors } as ToolCallShape & {
      raw: string;
      span: [number, number];
      valid: boolean;
      errors: ErrorObject[];
      id?: string;
    };
    if (u.id !== undefined) call.id = u.id;
    this.calls.push(call as ParsedToolCall<T>);
    for (const code of repairs) this.issue(code, ISSUE_CODES[code], span, index);
    if (this.validators && !this.validators.has(u.name)) {
      this.issue("UNKNOWN_TOOL", `no tool named ${JSON.stringify(u.name)} was declared`, span, index);
    }
    for (const e of errors) {
      const undeclared = "undeclared" in e && e.undeclared === true;
      this.issues.push({
        code: undeclared ? "UNDECLARED_ARGUMENT" : "INVALID_ARGUMENTS",
        message: undeclared
          ? `arguments${e.instancePath} has the undeclared key ${JSON.stringify((e.params as { additionalProperty?: string }).additionalProperty)}`
          : `arguments${e.instancePath} ${e.message ?? "is invalid"}`,
        span,
        callIndex: index,
        instancePath: e.instancePath,
      });
    }
    if (slot >= 0) this.events.push({ type: "call_end", index: slot, call: call as ParsedToolCall<T>, raw });
    return index;
  }

  private drop(code: IssueCode, message: string, span: [number, number], slot: number, raw: string): void {
    this.dropped++;
    this.issue(code, message, span);
    if (slot >= 0) this.events.push({ type: "call_end", index: slot, call: null, raw });
  }

  private issue(code: IssueCode, message: string, span?: [number, number], callIndex?: number): void {
    const i: ParseIssue = { code, message };
    if (span) i.span = span;
    if (callIndex !== undefined) i.callIndex = callIndex;
    this.issues.push(i);
  }
}

function matchAt(s: string, i: number, marker: string, final: boolean): "yes" | "no" | "need" {
  if (s.startsWith(marker, i)) return "yes";
  if (!final && s.length - i < marker.length && marker.startsWith(s.slice(i))) return "need";
  return "no";
}
