import type { FormatDescription, JsonObjectUnit } from "../../formats/FormatDescription.js";
import { UNIT_CODECS } from "../units/callUnit.js";
import type { BlockEnd, ScannedBlock, UnitSpan } from "./ScannedBlock.js";
import { splitMarker } from "../../formats/splitMarker.js";
import { bracketlessList, listLayout } from "../../formats/listLayout.js";

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
/** Characters that end a tool name read from the start of a block (besides the first of the unit's `nameClose`). */
const NAME_STOPS = " \n\r\t<>{}[]()\"'=";

/** Where the scanner reports what it learns before the block ends (the stream turns these into events). */
export interface ScanEvents {
  /** A call begins; returns its slot (the `index` of its stream events). */
  callStart(): number;
  callName(slot: number, name: string): void;
  argumentsDelta(slot: number, delta: string): void;
}

/**
 * Scans one block, chunk by chunk: finds where it ends (its closing marker outside strings, its value's last
 * bracket when it has no closing marker, a new opening marker, or the end of input), where each unit of a list
 * begins and ends, and, as they are read, each call's name and the text of its arguments (early stream events).
 * It judges nothing: the assembler (src/parser/assemble) reads the finished block's units into calls and issues.
 *
 * Strings are lexed with the quotes the lenient JSON reader accepts, so markers and brackets inside them are text.
 */
/** A unit's name prefix being read (UnitCodec.namePrefix): the name so far, and whether its id has begun. */
interface NamePrefixState {
  marker: string;
  nameCharacter: RegExp;
  idMarker?: string;
  idFirst?: boolean;
  name: string;
  inId: boolean;
}

export class BlockScanner {
  private readonly d: FormatDescription;
  private readonly ju: JsonObjectUnit | null;
  private readonly quotes: Record<string, string>;
  private readonly start: number;
  private readonly slot: number;
  private readonly parts: string[];
  private len: number;
  private readonly bodyStart: number;
  /** A unit that begins with the call's name and a marker (`NAME[ARGS]`), until the marker is read. */
  private prefix: NamePrefixState | null = null;
  // lexing
  private quote: string | null = null;
  private escaped = false;
  private depth = 0;
  /** A bracket of the body has been seen (blocks without a closing marker end when it closes). */
  private opened = false;
  // list units
  /** Depth at which call units sit: 1 inside a list body, 0 for a bare object where a list was expected. */
  private unitDepth = 1;
  private readonly units: UnitSpan[] = [];
  private unitStart = -1;
  private unitSlot = -1;
  private lastNonWs: number;
  private emptyElement = false;
  private trailingComma = false;
  private bare = false;
  /** A list whose calls stand without brackets (OLMo 3's one call a line): each unit ends where its `)` closes. */
  private readonly bracketless: boolean;
  /**
   * A list without brackets and without a closing marker (Phi-4-mini's vLLM example, `{…},{…}`) is between units:
   * the separator and the next unit's `{` continue it, anything else ends the block.
   */
  private afterUnit = false;
  // early events: the call object's keys (JSON units) or the function name (Python-call units)
  private expectKey = false;
  private keyBuf: string | null = null;
  private lastKey: string | null = null;
  private valueKey: string | null = null;
  private nameBuf: string | null = null;
  private nameSent = false;
  private argsActive = false;
  /**
   * Units that open with the call's name (named-json `NAME<|channel|>…`, xml-parameters `<function=NAME>`): the
   * name is read as the block's first characters come, and reported once a character ends it. It only watches; the
   * assembler judges the block. Null once reported or given up.
   */
  private nameWatch: { open: string; matched: number; name: string; stops: string } | null = null;
  /**
   * Tolerant reading of tagged parameters: the cores of the markers that open a parameter and end a value or the
   * call (null otherwise). A block's opening marker inside an open value starts a nested call the value holds (a
   * coding model writing a parser or a test): it and its closing marker, and everything between, are the value's text.
   */
  private readonly nesting: { keyOpen: string; ends: string[] } | null = null;
  /** A parameter has opened and its value has not ended (tolerant tagged parameters). */
  private valueOpen = false;
  /** Block opening markers inside the current value not closed yet. */
  private nested = 0;
  // cursor of one scan() call, kept on the instance (not in closures) so a one-character push allocates little
  private scanText = "";
  private seg = 0;
  private argsFrom = -1;

  constructor(
    d: FormatDescription,
    start: number,
    opener: string,
    private readonly events: ScanEvents,
    private readonly tolerant = false,
  ) {
    this.d = d;
    this.ju = d.unit.kind === "json-object" ? d.unit : null;
    this.quotes = this.ju?.argumentsEncoding === "single-quoted-json" ? OPEN_QUOTE_RAW_SINGLE : OPEN_QUOTE;
    this.start = start;
    this.parts = [opener];
    this.len = opener.length;
    this.bodyStart = opener.length;
    this.lastNonWs = opener.length;
    this.slot = d.grouping === "block" ? events.callStart() : -1;
    this.bracketless = bracketlessList(d);
    if (this.bracketless) this.unitDepth = 0;
    if (tolerant && d.unit.kind === "xml-parameters" && d.open !== null && d.close !== null) {
      const u = d.unit;
      const ends = [u.valueClose, u.callClose].map((x) => x.trim()).filter((x) => x !== "");
      if (u.keyOpen.trim() !== "") this.nesting = { keyOpen: u.keyOpen.trim(), ends };
    }
    const prefix = UNIT_CODECS[d.unit.kind].namePrefix?.(d);
    // with the id first (Solar Open), the block starts inside the id
    if (prefix && d.grouping === "block") this.prefix = { ...prefix, name: "", inId: prefix.idFirst === true };
    // a name prefix reports the name itself
    if (this.prefix !== null) {
      // nothing to watch
    } else if (d.grouping === "block" && (d.unit.kind === "named-json" || d.unit.kind === "xml-parameters")) {
      // Kimi K2's `functions.NAME:IDX`: the name sits between the prefix and the index
      const indexed = d.unit.kind === "named-json" ? d.unit.callIndex : undefined;
      // a message's recipient (Muse Glimmer) is the name, first
      const open =
        d.unit.kind === "xml-parameters"
          ? d.unit.recipient === undefined
            ? d.unit.nameOpen
            : ""
          : (indexed?.namePrefix ?? "");
      this.nameWatch = {
        open,
        matched: 0,
        name: "",
        stops: NAME_STOPS + d.unit.nameClose.slice(0, 1) + (indexed?.indexSeparator.slice(0, 1) ?? ""),
      };
    } else if (d.grouping === "block" && d.unit.kind === "xml-elements") {
      // MiniMax M3's `NAME">`: the block's opening marker ends at the name, which ends at its quote
      this.nameWatch = { open: "", matched: 0, name: "", stops: NAME_STOPS };
    } else if (d.grouping === "block" && d.unit.kind === "gemma4-call") {
      // Gemma 4's `call:NAME{`: the name ends at its arguments' brace
      this.nameWatch = { open: d.unit.namePrefix, matched: 0, name: "", stops: `${NAME_STOPS}{` };
    }
  }

  /** The block ends: a name read in full so far is the call's. */
  private endNameWatch(): void {
    const w = this.nameWatch as { open: string; matched: number; name: string };
    if (w.matched === w.open.length && w.name !== "") this.events.callName(this.slot, w.name);
    this.nameWatch = null;
  }

  /** One character of the block for the name watch (see `nameWatch`). */
  private watchName(c: string): void {
    const w = this.nameWatch as { open: string; matched: number; name: string; stops: string };
    if (w.matched < w.open.length) {
      // whitespace may pad the block before the name's opening marker
      if (c === w.open[w.matched]) w.matched++;
      else if (w.matched > 0 || !WS.has(c)) this.nameWatch = null;
      return;
    }
    if (w.name === "" && w.open === "" && WS.has(c)) return;
    if (!w.stops.includes(c)) {
      if (w.name.length >= MAX_NAME_CAPTURE) this.nameWatch = null;
      else w.name += c;
      return;
    }
    if (w.name !== "") this.events.callName(this.slot, w.name);
    this.nameWatch = null;
  }

  /**
   * Scans `s` from `i0`. Returns where it stopped, whether it needs more input to decide (a marker's prefix at the
   * end of `s`), and how the block ended (null: not yet).
   */
  scan(s: string, i0: number, final: boolean): { i: number; needMore: boolean; end: BlockEnd | null } {
    const d = this.d;
    const json = this.ju !== null;
    // Gemma 4's strings are raw too (between `<|"|>`, whose `"` opens no JSON string)
    const xml = d.unit.kind === "xml-parameters" || d.unit.kind === "gemma4-call" || d.unit.kind === "xml-elements";
    const quotes = this.quotes;
    let i = i0;
    this.scanText = s;
    this.seg = i0;
    this.argsFrom = this.argsActive ? i0 : -1;
    for (; i < s.length; i++) {
      const c = s[i];
      if (this.quote !== null) {
        this.quotedChar(c);
        this.lastNonWs = this.len + i - this.seg + 1;
        continue;
      }
      if (this.nesting !== null) {
        const r = this.nest(s, i, final);
        if (r === "need") return this.pause(i);
        if (r !== null) {
          i = r - 1;
          continue;
        }
      }
      // markers outside strings
      if (d.close !== null && c === d.close[0]) {
        const m = matchAt(s, i, d.close, final);
        if (m === "need") return this.pause(i);
        if (m === "yes") {
          // a name that runs to the block's end (GLM-4.7's call without arguments: `<tool_call>NAME</tool_call>`)
          if (this.nameWatch !== null) this.endNameWatch();
          this.endArgs(i);
          this.save(i + d.close.length);
          return { i: i + d.close.length, needMore: false, end: "closed" };
        }
      }
      if (d.open !== null && c === d.open[0]) {
        const m = matchAt(s, i, d.open, final);
        if (m === "need") return this.pause(i);
        if (m === "yes") {
          // a new block starts: this one was never closed
          this.endArgs(i);
          this.save(i);
          return { i, needMore: false, end: "interrupted" };
        }
      }
      // the section's closing marker (its core, in any spacing) ends a block left unclosed (the stream reads the marker)
      const sectionClose = d.section === undefined ? undefined : splitMarker(d.section.close).core;
      if (sectionClose !== undefined && c === sectionClose[0]) {
        const m = matchAt(s, i, sectionClose, final);
        if (m === "need") return this.pause(i);
        if (m === "yes") {
          this.endArgs(i);
          this.save(i);
          return { i, needMore: false, end: "interrupted" };
        }
      }
      if (this.afterUnit) {
        const next = `${listLayout(d).separator}{`;
        const m = matchAt(s, i, next, final);
        if (m === "need") return this.pause(i);
        if (m === "no") {
          this.save(i);
          return { i, needMore: false, end: "closed" };
        }
        this.afterUnit = false;
        i += next.length - 2;
        continue;
      }
      if (this.nameWatch !== null) this.watchName(c);
      // tagged parameters: raw values hold any character, so only the markers above count
      if (xml) continue;
      if (this.prefix !== null) {
        const r = this.readPrefix(s, i, final);
        if (r === "need") return this.pause(i);
        if (r === "novalue") {
          this.save(i);
          return { i, needMore: false, end: "novalue" };
        }
        i = r;
        continue;
      }
      if (WS.has(c)) continue;

      // a block without a closing marker needs a bracketed value; anything else ends it (and is text)
      if (d.close === null && !this.opened && this.depth === 0 && !"{[(".includes(c)) {
        this.save(i);
        return { i, needMore: false, end: "novalue" };
      }

      if (d.grouping === "list" && this.listUnits(c, i, json)) continue;

      const prevNonWs = this.lastNonWs;
      this.lastNonWs = this.len + i - this.seg + 1;
      // keys of the call object sit at this depth
      const kd = d.grouping === "block" ? 1 : this.unitDepth + 1;
      if (this.ju !== null && this.valueKey !== null && this.depth === kd) this.valueStart(c, i);

      if (c in quotes) {
        this.quote = quotes[c];
        if (json && this.expectKey && this.depth === kd) {
          this.keyBuf = "";
          this.expectKey = false;
        }
      } else if (c === "{" || c === "[" || c === "(") {
        this.depth++;
        this.opened = true;
        if (json && c === "{" && this.depth === kd) this.expectKey = true;
      } else if (c === "}" || c === "]" || c === ")") {
        if (json && this.depth === kd) this.endArgs(i);
        this.depth--;
        if (d.grouping === "list" && this.depth === this.unitDepth - 1 && this.depth >= 0 && !this.bare) {
          // the list's closing bracket
          if (this.unitStart >= 0) this.closeUnit(prevNonWs);
          else if (this.units.length > 0 || this.emptyElement) this.trailingComma = true;
        }
        // a call of a list without brackets ends with its own parenthesis
        if (this.bracketless && this.depth === 0 && this.unitStart >= 0) this.closeUnit(this.len + i - this.seg + 1);
        if (this.bracketless && d.close === null && this.depth === 0) this.afterUnit = true;
        else if (this.depth <= 0 && d.close === null) {
          if (this.bare && this.unitStart >= 0) this.closeUnit(this.len + i - this.seg + 1);
          this.save(i + 1);
          return { i: i + 1, needMore: false, end: "closed" };
        }
        if (this.depth < 0) this.depth = 0;
      } else if (json && c === "," && this.depth === kd) {
        this.endArgs(i);
        this.expectKey = true;
      } else if (json && c === ":" && this.depth === kd && this.lastKey !== null) {
        this.valueKey = this.lastKey;
        this.lastKey = null;
      }
    }
    this.save(i);
    return { i, needMore: false, end: null };
  }

  /** The input may end here: after a unit of a list without brackets or closing marker, which is then complete. */
  get complete(): boolean {
    return this.afterUnit;
  }

  /** The scanned block, once `scan` reported its end (or the input ended): an unfinished unit ends at its text. */
  finish(end: BlockEnd): ScannedBlock {
    if (this.unitStart >= 0) this.closeUnit();
    return {
      start: this.start,
      text: this.parts.join(""),
      bodyStart: this.bodyStart,
      slot: this.slot,
      units: this.units,
      end,
      closed: end === "closed",
      bare: this.bare,
      trailingComma: this.trailingComma,
      emptyElement: this.emptyElement,
    };
  }

  /**
   * Tolerant tagged parameters at `s[i]`: tracks whether a value is open, and the block markers nested inside it.
   * Returns where reading goes on when `s[i]` is part of a value's text that the block's markers must not end (a
   * nested call), null when the usual reading applies, "need" when a marker's prefix ends the input seen so far.
   */
  private nest(s: string, i: number, final: boolean): number | null | "need" {
    const d = this.d;
    const n = this.nesting as { keyOpen: string; ends: string[] };
    const open = d.open as string;
    const close = d.close as string;
    if (this.nested > 0) {
      const mc = matchAt(s, i, close, final);
      const mo = matchAt(s, i, open, final);
      if (mc === "need" || mo === "need") return "need";
      if (mc === "yes") this.nested--;
      if (mo === "yes") this.nested++;
      return mc === "yes" ? i + close.length : mo === "yes" ? i + open.length : i + 1;
    }
    const mk = matchAt(s, i, n.keyOpen, final);
    const me = n.ends.map((e) => matchAt(s, i, e, final));
    const mo = this.valueOpen ? matchAt(s, i, open, final) : "no";
    if (mk === "need" || mo === "need" || me.includes("need")) return "need";
    if (mo === "yes") {
      this.nested = 1;
      return i + open.length;
    }
    if (mk === "yes") this.valueOpen = true;
    else if (me.includes("yes")) this.valueOpen = false;
    return null;
  }

  /**
   * One step of the unit's name prefix at `s[i]`: the index of the last character consumed, "need" when a partial
   * marker ends the input seen so far, or "novalue" when the prefix is broken (the block has no call).
   */
  private readPrefix(s: string, i: number, final: boolean): number | "need" | "novalue" {
    const p = this.prefix as NamePrefixState;
    const c = s[i];
    if (c === p.marker[0]) {
      const m = matchAt(s, i, p.marker, final);
      if (m === "need") return "need";
      if (m === "yes") {
        if (p.name !== "" && !p.inId) this.events.callName(this.slot, p.name);
        this.prefix = null;
        return i + p.marker.length - 1;
      }
    }
    if (p.idMarker !== undefined && p.idFirst === true && p.inId && c === p.idMarker[0]) {
      // the id comes first: the marker after it opens the name
      const m = matchAt(s, i, p.idMarker, final);
      if (m === "need") return "need";
      if (m === "yes") {
        p.inId = false;
        return i + p.idMarker.length - 1;
      }
    }
    if (p.idMarker !== undefined && p.idFirst !== true && !p.inId && c === p.idMarker[0]) {
      // the id comes between the name and the arguments' marker: the name is complete
      const m = matchAt(s, i, p.idMarker, final);
      if (m === "need") return "need";
      if (m === "yes") {
        if (p.name !== "") this.events.callName(this.slot, p.name);
        p.inId = true;
        return i + p.idMarker.length - 1;
      }
    }
    if (WS.has(c)) return i;
    if (this.tolerant && c === "{" && p.name !== "" && !p.inId) {
      // the arguments right after the name, without the marker (Mistral's `[TOOL_CALLS]NAME{…}`): read on as JSON
      this.events.callName(this.slot, p.name);
      this.prefix = null;
      return i - 1;
    }
    if (!p.nameCharacter.test(c) || p.name.length >= MAX_NAME_CAPTURE) return "novalue";
    if (!p.inId) p.name += c;
    return i;
  }

  private pause(i: number): { i: number; needMore: boolean; end: null } {
    this.save(i);
    return { i, needMore: true, end: null };
  }

  /** A character inside a string: escapes, the closing quote, and the key or name being captured. */
  private quotedChar(c: string): void {
    if (this.escaped) this.escaped = false;
    else if (c === "\\") this.escaped = true;
    else if (c === this.quote) {
      this.quote = null;
      if (this.keyBuf !== null) {
        this.lastKey = this.keyBuf;
        this.keyBuf = null;
      } else if (this.nameBuf !== null) {
        if (!this.nameSent && this.nameBuf !== "") {
          this.nameSent = true;
          this.events.callName(this.callSlot(), this.nameBuf);
        }
        this.nameBuf = null;
      }
    } else if (this.keyBuf !== null) {
      if (this.keyBuf.length < MAX_KEY_CAPTURE) this.keyBuf += c;
    } else if (this.nameBuf !== null && this.nameBuf.length < MAX_NAME_CAPTURE) this.nameBuf += c;
  }

  /**
   * The units of a list body: where each begins, the commas between them, and a Python call's name. Returns true
   * when `c` was a separator (nothing more to do with it).
   */
  private listUnits(c: string, i: number, json: boolean): boolean {
    if (!this.opened && this.depth === 0 && c === "{" && json && !this.bracketless) {
      this.bare = true;
      this.unitDepth = 0;
    }
    if (this.depth === this.unitDepth && c !== "," && !(this.depth > 0 && "}])".includes(c)) && this.unitStart < 0) {
      this.unitStart = this.len + i - this.seg;
      this.unitSlot = this.events.callStart();
      this.expectKey = false;
      this.keyBuf = this.lastKey = this.valueKey = this.nameBuf = null;
      this.nameSent = false;
      this.argsActive = false;
      if (!json) this.nameBuf = "";
    }
    if (this.depth === this.unitDepth && this.depth > 0 && c === ",") {
      if (this.unitStart >= 0) this.closeUnit();
      else this.emptyElement = true;
      return true;
    }
    if (!json && this.nameBuf !== null && this.depth === this.unitDepth) {
      if (c === "(") {
        if (this.nameBuf !== "") this.events.callName(this.unitSlot, this.nameBuf);
        this.nameBuf = null;
      } else if (this.nameBuf.length < MAX_NAME_CAPTURE) this.nameBuf += c;
    }
    return false;
  }

  /** The first character of a JSON call object's value after `"key":`: the name, or the start of the arguments. */
  private valueStart(c: string, i: number): void {
    const u = this.ju as JsonObjectUnit;
    const key = this.valueKey as string;
    this.valueKey = null;
    if (u.nameKey === null) {
      // `{"NAME": {…}}` (Apertus): the key is the tool's name, its value the arguments
      if (key !== "") this.events.callName(this.callSlot(), key);
      this.argsActive = true;
      this.save(i);
      this.argsFrom = i;
    } else if (key === u.nameKey && c in this.quotes) this.nameBuf = "";
    else if (key === u.argumentsKey || u.argumentsAliases.includes(key)) {
      this.argsActive = true;
      this.save(i);
      this.argsFrom = i;
    }
  }

  /** Appends the scanned text up to `upTo` to the block, emitting the arguments text it holds. */
  private save(upTo: number): void {
    const s = this.scanText;
    if (this.argsFrom >= 0 && upTo > this.argsFrom)
      this.events.argumentsDelta(this.callSlot(), s.slice(this.argsFrom, upTo));
    this.argsFrom = this.argsActive ? upTo : -1;
    if (upTo > this.seg) {
      this.parts.push(s.slice(this.seg, upTo));
      this.len += upTo - this.seg;
    }
    this.seg = upTo;
  }

  private endArgs(at: number): void {
    if (!this.argsActive) return;
    this.save(at);
    this.argsActive = false;
    this.argsFrom = -1;
  }

  private callSlot(): number {
    return this.d.grouping === "block" ? this.slot : this.unitSlot;
  }

  private closeUnit(end = this.lastNonWs): void {
    this.units.push({ start: this.unitStart, end: Math.max(end, this.unitStart), slot: this.unitSlot });
    this.unitStart = -1;
    this.argsActive = false;
  }
}

function matchAt(s: string, i: number, marker: string, final: boolean): "yes" | "no" | "need" {
  if (s.startsWith(marker, i)) return "yes";
  if (!final && s.length - i < marker.length && marker.startsWith(s.slice(i))) return "need";
  return "no";
}
