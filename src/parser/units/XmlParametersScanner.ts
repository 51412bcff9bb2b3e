import type { FormatDescription, XmlParametersUnit } from "../../formats/FormatDescription.js";
import { isJsonObject } from "../../json.js";
import type { Repair } from "../lenientJson.js";
import type { ToolParameters } from "./UnitCodec.js";
import { type Found, findMarker, type Marker, type MarkerName, markersOf } from "./xmlParameterMarkers.js";
import { placedCloses, valueEnd } from "./xmlParameterValueEnd.js";

/** A unit's structure as written (XmlParametersScanner.scan). */
export interface Scanned {
  ok: true;
  name: string;
  /** The message's recipient as written (XmlParametersUnit.recipient). */
  recipient?: string;
  /** The call's index as written (XmlParametersUnit.callIndex). */
  index?: string;
  /** `type`: the value's type as written (XmlParametersUnit.valueType). */
  params: ScannedParameter[];
  repairs: Repair[];
}

type ScannedParameter = { key: string; value: string; at: number; type?: string };

/** Why a text is not a unit. */
export type ScanFailure = { ok: false; code: "NOT_A_CALL" | "MISSING_NAME"; message: string };

/** A single word (no markup) on its own line: the only text tolerated before a call's opening tag. */
const LONE_WORD = /^[^\s<>]+\s*$/;

function isFailure(r: object | null): r is ScanFailure {
  return r !== null && "ok" in r;
}

/**
 * The structure of a unit, tolerantly: each drift from the exact markers and padding is a repair
 * (WHITESPACE_AROUND_TAGS). Values are the exact text between a key's closing marker and the value's closing one.
 * One scanner reads one text, left to right from `i`; each method reads one part of the unit.
 */
export class XmlParametersScanner {
  private readonly m: Record<MarkerName, Marker>;
  private readonly repairs: Repair[] = [];
  /** Where the reading is. */
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly d: FormatDescription,
    private readonly u: XmlParametersUnit,
  ) {
    this.m = markersOf(u);
  }

  /** The whole unit; `parameters` tells which keys a tool declares (for values whose closing marker was left out). */
  scan(parameters?: ToolParameters): Scanned | ScanFailure {
    const { text, d, m, u } = this;
    if (text.startsWith(d.afterOpen)) this.i = d.afterOpen.length;
    else this.ws();
    let recipient: string | undefined;
    if (u.recipient !== undefined) {
      const r = this.recipient(u.recipient.close);
      if (typeof r !== "string") return r;
      recipient = r;
    }
    const opened = this.nameOpen();
    if (opened !== undefined) return opened;
    const named = this.name();
    if (isFailure(named)) return named;
    const { name, nameText } = named;
    const placedFrom = placedCloses(text, m);
    const declared = parameters?.(name)?.properties;
    const seen = new Set<string>();
    // a parameter that opens where a value's closing marker was left out: one the tool declares and the call has not
    // written yet (any name when the tool's schema is unknown)
    const isNewKey = (key: string): boolean =>
      !seen.has(key) && (!isJsonObject(declared) || Object.hasOwn(declared, key));
    this.nameClose(name, nameText);
    let index: string | undefined;
    if (u.callIndex !== undefined) {
      const r = this.index(u.callIndex.close);
      if (typeof r !== "string") return r;
      index = r;
    }
    const params: Scanned["params"] = [];
    for (;;) {
      const p = this.parameter(placedFrom, isNewKey);
      if (p === null) break;
      if (isFailure(p)) return p;
      seen.add(p.key);
      params.push(p);
    }
    const ended = this.callEnd(params.length);
    if (ended !== undefined) return ended;
    const r: Scanned =
      index === undefined
        ? { ok: true, name, params, repairs: this.repairs }
        : { ok: true, name, index, params, repairs: this.repairs };
    if (recipient !== undefined) r.recipient = recipient;
    return r;
  }

  /** A drift from the exact markers or padding. */
  private ws(): void {
    this.repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: 0 });
  }

  private skipWs(expected: string): void {
    const text = this.text;
    const j = this.i;
    while (this.i < text.length && /\s/.test(text[this.i])) this.i++;
    if (text.slice(j, this.i) !== expected) this.ws();
  }

  private expectTrail(t: string): void {
    if (this.text.startsWith(t, this.i)) this.i += t.length;
    else this.ws();
  }

  /** A message to the tool (Muse Glimmer): its recipient, the name, up to the recipient's closing marker. */
  private recipient(close: string): string | ScanFailure {
    const { text, m } = this;
    const rc = findMarker(text, this.i, m.recipientClose);
    if (rc === null)
      return {
        ok: false,
        code: "MISSING_NAME",
        message: `the message's recipient is not closed by ${JSON.stringify(close)}`,
      };
    const written = text.slice(this.i, rc.start);
    const recipient = written.trim();
    if (recipient !== written || !rc.exact) this.ws();
    this.i = rc.end;
    this.expectTrail(m.recipientClose.trail);
    return recipient;
  }

  /** The call's opening marker, past a lone word before it. */
  private nameOpen(): ScanFailure | undefined {
    const { text, m, u } = this;
    this.skipWs(m.nameOpen.lead);
    const open =
      m.nameOpen.core === "" ? { start: this.i, end: this.i, exact: true } : findMarker(text, this.i, m.nameOpen);
    // a lone word before the call's own tag (vLLM's Step-3 outputs repeat the name there): skipped, as a repair
    if (open && m.nameOpen.core.startsWith("<") && LONE_WORD.test(text.slice(this.i, open.start))) {
      this.repairs.push({ code: "TEXT_BEFORE_CALL", at: this.i });
      this.i = open.start;
    }
    if (!open || text.slice(this.i, open.start).trim() !== "")
      return { ok: false, code: "NOT_A_CALL", message: `the call does not start with ${JSON.stringify(u.nameOpen)}` };
    if (!open.exact) this.ws();
    this.i = open.end;
    return undefined;
  }

  /** The function name, trimmed and as written (`nameText`), up to its closing marker (not read yet). */
  private name(): { name: string; nameText: string } | ScanFailure {
    const { text, m, u, i } = this;
    // the name ends at its closing marker, or where the first parameter or the call's end begins
    const ends = [m.nameClose, m.keyOpen, m.callClose].map((x) => findMarker(text, i, x)).filter((x) => x !== null);
    const nameEnd =
      m.nameClose.core === ""
        ? ends.reduce((a, b) => Math.min(a, b.start), text.length)
        : (findMarker(text, i, m.nameClose)?.start ?? -1);
    if (nameEnd < 0)
      return {
        ok: false,
        code: "MISSING_NAME",
        message: `the function name is not closed by ${JSON.stringify(u.nameClose)}`,
      };
    let nameText = text.slice(i, nameEnd);
    if (m.nameClose.core === "") {
      // the name closes with whitespace only (GLM): take the name's own line
      const nl = /\s/.exec(nameText.trimStart());
      const lead = nameText.length - nameText.trimStart().length;
      if (nl) nameText = nameText.slice(0, lead + nl.index);
    }
    const name = nameText.trim();
    if (name === "") return { ok: false, code: "MISSING_NAME", message: "the call has no function name" };
    // a name is one word: one that runs over a line or into a tag lost its closing marker (`bad_func\n</function`)
    if (/[\s<>]/.test(name))
      return {
        ok: false,
        code: "MISSING_NAME",
        message: `the function name ${JSON.stringify(name)} is broken (not closed by ${JSON.stringify(u.nameClose)})`,
      };
    return { name, nameText };
  }

  /** Past the name and its closing marker. */
  private nameClose(name: string, nameText: string): void {
    const { text, m } = this;
    if (name !== nameText) this.ws();
    this.i += nameText.length;
    if (m.nameClose.core !== "") {
      const c = findMarker(text, this.i, m.nameClose) as Found;
      if (!c.exact) this.ws();
      this.i = c.end;
    }
    this.expectTrail(m.nameClose.trail);
  }

  /** Kimi K3's `index="N"`: digits up to the index's closing marker. */
  private index(close: string): string | ScanFailure {
    const { text, m } = this;
    const c = findMarker(text, this.i, m.indexClose);
    const written = c === null ? "" : text.slice(this.i, c.start);
    if (c === null || !/^\s*[0-9]+\s*$/.test(written))
      return {
        ok: false,
        code: "NOT_A_CALL",
        message: `the call's index is not digits closed by ${JSON.stringify(close)}`,
      };
    const index = written.trim();
    if (index !== written || !c.exact) this.ws();
    this.i = c.end;
    this.expectTrail(m.indexClose.trail);
    return index;
  }

  /** The parameter opening here (spaces aside), or null when none does. */
  private parameter(
    placedFrom: (from: number) => Found | null,
    isNewKey: (key: string) => boolean,
  ): ScannedParameter | ScanFailure | null {
    const { text, m, u } = this;
    const j = this.i;
    while (this.i < text.length && /\s/.test(text[this.i])) this.i++;
    const k = findMarker(text, this.i, m.keyOpen);
    if (!k || k.start !== this.i) {
      this.i = j;
      return null;
    }
    if (text.slice(j, this.i) !== m.keyOpen.lead) this.ws();
    if (!k.exact) this.ws();
    const kc = findMarker(text, k.end, m.keyClose);
    if (!kc)
      return {
        ok: false,
        code: "NOT_A_CALL",
        message: `a parameter name is not closed by ${JSON.stringify(u.keyClose)}`,
      };
    const key = text.slice(k.end, kc.start);
    if (key.trim() !== key || !kc.exact) this.ws();
    this.i = kc.end;
    this.expectTrail(m.keyClose.trail);
    let type: string | undefined;
    if (u.valueType !== undefined) {
      const t = this.valueType(u.valueType.close);
      if (typeof t !== "string") return t;
      type = t;
    }
    const at = this.i;
    const value = this.value(at, placedFrom, isNewKey);
    return type === undefined ? { key: key.trim(), value, at } : { key: key.trim(), value, at, type };
  }

  /** Kimi K3's `type="T"` before the value. */
  private valueType(close: string): string | ScanFailure {
    const { text, m } = this;
    const tc = findMarker(text, this.i, m.typeClose);
    if (!tc)
      return {
        ok: false,
        code: "NOT_A_CALL",
        message: `a parameter's type is not closed by ${JSON.stringify(close)}`,
      };
    let type = text.slice(this.i, tc.start);
    if (type.trim() !== type || !tc.exact) this.ws();
    type = type.trim();
    this.i = tc.end;
    this.expectTrail(m.typeClose.trail);
    return type;
  }

  /** The value starting here (at `at`), read up to and past its closing marker. */
  private value(at: number, placedFrom: (from: number) => Found | null, isNewKey: (key: string) => boolean): string {
    const { text, m } = this;
    const end = valueEnd(text, this.i, m, placedFrom, isNewKey);
    const vc = end.kind === "closed" ? end.close : null;
    let value: string;
    if (end.kind === "before-key") {
      // the value's closing marker was left out before the next parameter
      value = text.slice(this.i, end.at).replace(/\s+$/, "");
      this.i = end.at;
      this.repairs.push({ code: "UNCLOSED_PARAMETER", at });
    } else if (!vc) {
      // the value runs to the call's closing marker, or to the end
      const cc = findMarker(text, this.i, m.callClose);
      value = text.slice(this.i, cc ? cc.start : text.length).replace(/\s+$/, "");
      this.i = cc ? cc.start : text.length;
      this.repairs.push({ code: "UNCLOSED_PARAMETER", at });
    } else {
      value = text.slice(this.i, vc.start);
      if (value.endsWith(m.valueClose.lead)) value = value.slice(0, value.length - m.valueClose.lead.length);
      else this.ws();
      if (!vc.exact) this.ws();
      this.i = vc.end;
      this.expectTrail(m.valueClose.trail);
    }
    return value;
  }

  /** The empty arguments' text, the call's closing marker, and nothing but the unit's end after it. */
  private callEnd(paramCount: number): ScanFailure | undefined {
    const { text, d, m, u } = this;
    if (
      paramCount === 0 &&
      u.emptyArguments !== undefined &&
      u.emptyArguments !== "" &&
      text.startsWith(u.emptyArguments, this.i)
    )
      this.i += u.emptyArguments.length;
    if (m.callClose.core !== "") {
      this.skipWs(m.callClose.lead);
      const c = findMarker(text, this.i, m.callClose);
      if (!c || c.start !== this.i) {
        if (text.slice(this.i).trim() !== "")
          return {
            ok: false,
            code: "NOT_A_CALL",
            message: `unexpected text ${JSON.stringify(text.slice(this.i, this.i + 40))} in the call`,
          };
        this.repairs.push({ code: "MISSING_CALL_CLOSE", at: this.i });
      } else {
        if (!c.exact) this.ws();
        this.i = c.end;
      }
    }
    if (text.slice(this.i) !== m.callClose.trail + d.beforeClose) {
      if (text.slice(this.i).trim() !== "")
        return {
          ok: false,
          code: "NOT_A_CALL",
          message: `unexpected text ${JSON.stringify(text.slice(this.i, this.i + 40))} after the call`,
        };
      this.ws();
    }
    return undefined;
  }
}
