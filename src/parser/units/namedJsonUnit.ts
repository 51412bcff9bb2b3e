import { canonicalJson, isJsonObject } from "../../json.js";
import type { FormatDescription, NamedJsonUnit } from "../../formats/FormatDescription.js";
import { checkName } from "../../formats/namedJsonName.js";
import { indexedCallId, isCanonicalIndex, readIndexedCallId } from "../../formats/indexedCallId.js";
import { parseLenientJson, type Repair } from "../lenientJson.js";
import { closeOpenBrackets } from "./closeOpenBrackets.js";
import { isCompactJson } from "./isCompactJson.js";
import type { UnitCall, UnitCodec, UnitResult } from "./UnitCodec.js";

/** `NAME + nameClose + {…} + argumentsClose` (NamedJsonUnit). */
export const namedJsonUnit: UnitCodec = {
  render(call: UnitCall, d: FormatDescription): string {
    const u = namedUnit(d);
    checkName(call.name, d);
    // a call index (Kimi K2): renderToolCalls gives each call the id of its position unless it has one of the shape
    const head = u.callIndex === undefined ? call.name : indexedCallId(u, call.name, call.id, 0);
    return head + u.nameClose + canonicalJson(call.arguments) + u.argumentsClose;
  },

  read(text: string, d: FormatDescription, whole: boolean): UnitResult {
    const u = namedUnit(d);
    const repairs: Repair[] = [];
    const body = d.grouping === "block" ? stripPadding(text, d, repairs) : text;
    let name: string;
    let argsAt: number;
    const k = u.nameClose === "" ? -1 : body.indexOf(u.nameClose);
    const brace = body.indexOf("{");
    if (k >= 0 && (brace < 0 || k < brace)) {
      name = body.slice(0, k);
      argsAt = k + u.nameClose.length;
    } else {
      // the model wrote something else between the name and the arguments (harmony: `<|constrain|>json`, another
      // channel): the name is the leading run of name characters, the arguments start at the first `{`
      const m = /^\s*([^\s<{[(|]+)/.exec(body);
      if (m === null) return { ok: false, code: "MISSING_NAME", message: "the call does not start with a tool name" };
      if (brace < 0) return { ok: false, code: "NOT_A_CALL", message: "the call has no arguments object" };
      name = m[1];
      argsAt = brace;
      if (u.nameClose !== "" || body.slice(m[0].length, brace) !== "")
        repairs.push({ code: "NAME_SEPARATOR", at: m[0].length });
    }
    let trimmedName = name.trim();
    if (trimmedName === "") return { ok: false, code: "MISSING_NAME", message: "the call has no tool name" };
    if (trimmedName !== name) repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: 0 });
    let id: string | undefined;
    if (u.callIndex !== undefined) {
      // `functions.NAME:IDX`: the whole head is the call's id; a head without that shape is read as the name
      const indexed = readIndexedCallId(u, trimmedName);
      if (indexed !== null) {
        id = trimmedName;
        trimmedName = indexed.name;
      } else {
        // half the shape (`NAME:IDX`, `functions.NAME`): the tool is the name without the part that is there
        repairs.push({ code: "NAME_SEPARATOR", at: 0 });
        trimmedName = partialIndexedName(u, trimmedName);
      }
    }
    let r = parseLenientJson(body, argsAt);
    if (!r.ok && r.code === "TRUNCATED" && whole) {
      const closers = closeOpenBrackets(body.slice(argsAt));
      if (closers !== null) {
        const trimmed = body.trimEnd();
        const fixed = parseLenientJson(trimmed + closers, argsAt);
        if (fixed.ok)
          r = {
            ...fixed,
            end: trimmed.length,
            repairs: [{ code: "MISSING_CLOSING_BRACKETS", at: trimmed.length }, ...fixed.repairs],
          };
      }
    }
    if (!r.ok) return { ok: false, code: r.code, message: r.message, at: r.at };
    repairs.push(...r.repairs);
    if (!isJsonObject(r.value))
      return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are not a JSON object" };
    const rest = body.slice(Math.min(r.end, body.length));
    if (rest !== u.argumentsClose && !repairs.some((x) => x.code === "MISSING_CLOSING_BRACKETS")) {
      if (rest.trim() === u.argumentsClose.trim()) repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: r.end });
      else
        repairs.push({
          code: /^[\s}\]]*$/.test(rest) ? "EXTRA_CLOSING_BRACKETS" : "TRAILING_TEXT_IN_BLOCK",
          at: r.end,
        });
    }
    const call: UnitCall = { name: trimmedName, arguments: r.value };
    if (id !== undefined) call.id = id;
    return { ok: true, call, repairs: dedupe(repairs) };
  },

  /**
   * A block without a closing marker (Functionary v3.2's `NAME\n{…}`) ends where its arguments' object closes; the
   * scanner reads the name up to `nameClose` first, so the name is not taken for text. Any character a name may hold
   * (checkName) passes: strict reading must read every name the grammar writes.
   */
  namePrefix(d: FormatDescription) {
    const u = namedUnit(d);
    if (d.close !== null || u.nameClose === "") return undefined;
    return { marker: u.nameClose, nameCharacter: /[^\s{]/ };
  },

  /** The canonical text, except for the arguments' number spellings (as for JSON call objects). */
  isCanonical(text: string, call: UnitCall, d: FormatDescription): boolean {
    const u = namedUnit(d);
    const pad = d.grouping === "block" ? [d.afterOpen, d.beforeClose] : ["", ""];
    let head = call.name;
    if (u.callIndex !== undefined) {
      const indexed = call.id === undefined ? null : readIndexedCallId(u, call.id);
      if (indexed === null || indexed.name !== call.name || !isCanonicalIndex(indexed.index)) return false;
      head = call.id as string;
    }
    const prefix = pad[0] + head + u.nameClose;
    const suffix = u.argumentsClose + pad[1];
    if (text.length < prefix.length + suffix.length || !text.startsWith(prefix) || !text.endsWith(suffix)) return false;
    const args = text.slice(prefix.length, text.length - suffix.length);
    return args.startsWith("{") && isCompactJson(args);
  },
};

/** A head with only the prefix or only the index of `namePrefix + NAME + indexSeparator + INDEX`: its NAME. */
function partialIndexedName(u: NamedJsonUnit, head: string): string {
  const c = u.callIndex as NonNullable<NamedJsonUnit["callIndex"]>;
  let name = head.startsWith(c.namePrefix) ? head.slice(c.namePrefix.length) : head;
  const k = name.lastIndexOf(c.indexSeparator);
  if (k > 0 && /^[0-9]+$/.test(name.slice(k + c.indexSeparator.length))) name = name.slice(0, k);
  return name === "" ? head : name;
}

function namedUnit(d: FormatDescription): NamedJsonUnit {
  if (d.unit.kind !== "named-json") throw new Error(`internal: ${d.name} has no named-JSON units`);
  return d.unit;
}

function stripPadding(text: string, d: FormatDescription, repairs: Repair[]): string {
  let t = text;
  if (t.startsWith(d.afterOpen)) t = t.slice(d.afterOpen.length);
  else repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: 0 });
  if (d.beforeClose !== "") {
    if (t.endsWith(d.beforeClose)) t = t.slice(0, t.length - d.beforeClose.length);
    else repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: text.length });
  }
  return t;
}

function dedupe(repairs: Repair[]): Repair[] {
  const seen = new Set<string>();
  return repairs.filter((r) => (seen.has(r.code) ? false : (seen.add(r.code), true)));
}
