import type { FormatDescription } from "../../formats/FormatDescription.js";
import { ISSUE_CODES } from "../issueCodes.js";
import { joinCallUnits } from "../renderToolCalls.js";
import type { ScannedBlock } from "../scan/ScannedBlock.js";
import { parseCallUnit } from "../units/callUnit.js";
import { splitObjects } from "../units/jsonObjectUnit.js";
import type { ToolCallConstraint } from "../types.js";
import { GRAMMAR_REFUSED, type CallCollector } from "./CallCollector.js";

/**
 * Reads a scanned block's calls into `out`: each unit through its kind's codec (src/parser/units), in the parse
 * mode, then the layout around the units (strict mode), then the block's own issues (unclosed, bare list, trailing
 * comma). The same for every format: what differs is data (the description) and the unit codec.
 */
export function assembleBlock<T extends ToolCallConstraint>(
  b: ScannedBlock,
  d: FormatDescription,
  out: CallCollector<T>,
): void {
  if (d.grouping === "block") assembleSingle(b, d, out);
  else assembleList(b, d, out);
}

/** `grouping: "block"`: the body between the markers is one call unit (or, tolerantly, several call objects). */
function assembleSingle<T extends ToolCallConstraint>(
  b: ScannedBlock,
  d: FormatDescription,
  out: CallCollector<T>,
): void {
  const { closed, text, start } = b;
  const mode = out.mode;
  const span: [number, number] = [start, start + text.length];
  const closeLen = closed && d.close !== null ? d.close.length : 0;
  const body = text.slice(b.bodyStart, text.length - closeLen);
  const r = parseCallUnit(body, d, mode, closed, out.valueKinds, out.toolParameters);
  const parts =
    d.unit.kind === "json-object" &&
    mode === "tolerant" &&
    (!r.ok || r.repairs.some((x) => x.code === "TRAILING_TEXT_IN_BLOCK"))
      ? splitObjects(body)
      : null;
  const unclosed = `the block has no ${d.close === null ? "closing bracket" : JSON.stringify(d.close)}`;
  if (parts) {
    // several call objects in one block: each is a call, its raw text the object
    const loose = { ...d, afterOpen: "", beforeClose: "" };
    parts.forEach(([ps, pe], k) => {
      const slot = k === 0 ? b.slot : out.callStart();
      const raw = body.slice(ps, pe);
      const at = start + b.bodyStart + ps;
      const u = parseCallUnit(raw, loose, "tolerant");
      if (u.ok) {
        const idx = out.addCall(
          u.call,
          raw,
          [at, at + raw.length],
          ["MULTIPLE_CALLS_IN_BLOCK", ...u.repairs.map((x) => x.code)],
          slot,
        );
        if (!closed && k === parts.length - 1)
          out.issue("UNCLOSED_BLOCK", `the block has no ${JSON.stringify(d.close)}`, span, idx);
      } else out.drop(u.code, u.message, [at, at + raw.length], slot, raw);
    });
  } else if (r.ok && closed && mode === "strict" && d.open === null && b.bodyStart > 0) {
    // a start prefix (Llama 3's <|python_tag|>) is a drift real models make, not the canonical reply: no grammar
    // emits it
    out.drop(
      "NONCANONICAL",
      `the ${JSON.stringify(text.slice(0, b.bodyStart).trim())} prefix is not part of the canonical ${d.name} rendering`,
      span,
      b.slot,
      text,
    );
  } else if (r.ok && closed && out.refusedByGrammar(r.call, body)) {
    out.drop("NONCANONICAL", GRAMMAR_REFUSED, span, b.slot, text);
  } else if (r.ok && (closed || mode === "tolerant")) {
    const codes = r.repairs.map((x) => x.code);
    // a block opened by the unit's own start (tolerant mode, see UnitCodec.bareStart)
    // (a turn of messages opens its first block in the generation prompt)
    if (b.bodyStart === 0 && d.open !== null && !(d.messages !== undefined && start === 0))
      codes.unshift("MISSING_OPEN_MARKER");
    const idx = out.addCall(r.call, text, span, codes, b.slot);
    if (!closed) out.issue("UNCLOSED_BLOCK", unclosed, span, idx);
  } else if (b.end === "novalue")
    out.drop("INVALID_JSON", `no JSON object after ${JSON.stringify(d.open)}`, span, b.slot, text);
  else if (r.ok)
    out.drop(b.end === "eof" ? "TRUNCATED" : "NONCANONICAL", "the block is not closed", span, b.slot, text);
  else out.drop(r.code, r.message, span, b.slot, text);
}

/** `grouping: "list"`: each unit is one element of the block's list. */
function assembleList<T extends ToolCallConstraint>(
  b: ScannedBlock,
  d: FormatDescription,
  out: CallCollector<T>,
): void {
  const { closed, text, start } = b;
  const mode = out.mode;
  const span: [number, number] = [start, start + text.length];
  if (b.end === "novalue" && b.units.length === 0) {
    out.drop("INVALID_JSON", `no call list after ${JSON.stringify(d.open)}`, span, -1, text);
    return;
  }
  const results = b.units.map((u) => ({ u, r: parseCallUnit(text.slice(u.start, u.end), d, mode, closed) }));
  // a start prefix (Llama 4's <|python_start|>) is a drift real models make, not the canonical reply
  let layoutOk = closed && !b.bare && !(d.open === null && b.bodyStart > 0);
  if (mode === "strict" && layoutOk && results.every((x) => x.r.ok)) {
    // each unit passed its own canonical check (which allows the number spellings a grammar emits): the block must
    // be the canonical list around the units as written
    layoutOk =
      results.length <= d.maxCalls &&
      joinCallUnits(
        results.map(({ u }) => text.slice(u.start, u.end)),
        d,
      ) === text;
  }
  if (mode === "strict" && !layoutOk) {
    // an opening marker with no call list after it (`[TOOL_CALLS]` then text, another marker or the end): no grammar
    // emits the format's marker in text, so the reply is not canonical even though no call is lost
    if (results.length === 0)
      out.drop("NONCANONICAL", `${JSON.stringify(d.open)} is not followed by its call list`, span, -1, text);
    for (const { u } of results)
      out.drop(
        "NONCANONICAL",
        `the ${d.name} block is not the canonical rendering`,
        [start + u.start, start + u.end],
        u.slot,
        text.slice(u.start, u.end),
      );
    return;
  }
  const last = b.units[b.units.length - 1];
  for (const { u, r } of results) {
    const uspan: [number, number] = [start + u.start, start + u.end];
    const raw = text.slice(u.start, u.end);
    if (r.ok && closed && out.refusedByGrammar(r.call, raw))
      out.drop("NONCANONICAL", GRAMMAR_REFUSED, uspan, u.slot, raw);
    else if (r.ok)
      out.addCall(
        r.call,
        raw,
        uspan,
        r.repairs.map((x) => x.code),
        u.slot,
      );
    else
      out.drop(
        !closed && r.code === "INVALID_JSON" && u === last ? "TRUNCATED" : r.code,
        r.message,
        uspan,
        u.slot,
        raw,
      );
  }
  if (!closed)
    out.issue(
      "UNCLOSED_BLOCK",
      `the call list has no ${d.close === null ? "closing bracket" : JSON.stringify(d.close)}`,
      span,
    );
  if (b.bare) out.issue("MISSING_ARRAY_BRACKETS", ISSUE_CODES.MISSING_ARRAY_BRACKETS, span);
  if (b.trailingComma) out.issue("TRAILING_COMMA", ISSUE_CODES.TRAILING_COMMA, span);
  else if (b.emptyElement) out.issue("EMPTY_ELEMENT", ISSUE_CODES.EMPTY_ELEMENT, span);
}
