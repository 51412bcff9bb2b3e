import { ToolgramError } from "../errors.js";
import { listLayout } from "../formats/listLayout.js";
import type { JsonObject } from "../json.js";
import { describeFormat, type FormatOption } from "../formats/describeFormat.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import { renderCallUnit, type UnitCall } from "./units/callUnit.js";
import { wholeReply } from "../formats/wholeReply.js";
import { indexedCallId } from "../formats/indexedCallId.js";
import { CALL_INDEX_TEXT } from "../formats/xmlValueType.js";
import { firstMessageOpen, firstMessageOpenAfter } from "../formats/messageHead.js";

/** A call to render: a name, its arguments and, for formats that carry one, an id. */
export interface CallToRender {
  /** The tool's name, written as given. */
  name: string;
  /** The arguments object, spelled as the format spells JSON. */
  arguments: JsonObject;
  /**
   * The call id, written by formats that carry one and ignored by the others; when absent, formats whose id is the
   * call's index (Kimi) write the position, the others leave the id out.
   */
  id?: string;
}

/** What else a rendered turn holds besides its calls. */
export interface RenderTurnOptions {
  /**
   * The reasoning block's text, written first as `open + reasoning + close` (the format's markers, or
   * `reasoningMarkers`); must not contain `close`.
   */
  reasoning?: string;
  /** The reasoning block's markers in place of the format's own (pass the parser's `reasoningMarkers`). */
  reasoningMarkers?: { open: string; close: string };
  /** Free text before the calls (in formats whose call is the whole reply, only without calls). */
  content?: string;
}

/**
 * The canonical text of `calls` in `format` (what a model trained on it emits, and what strict parsing accepts),
 * after the reasoning block and text of `turn`, if given. Throws ToolgramError INVALID_INPUT when the format cannot
 * carry the calls (several calls in llama3-json, non-identifier argument names in pythonic) or the reasoning.
 */
export function renderToolCalls(
  calls: readonly CallToRender[],
  format: FormatOption = "qwen3",
  turn: RenderTurnOptions = {},
): string {
  const d = describeFormat(format);
  if (d.messages !== undefined) return renderMessages(calls, d, turn);
  return renderReasoning(d, turn) + (turn.content ?? "") + renderCalls(calls, d, turn.content);
}

/**
 * A turn of messages (Functionary v3.2, Muse Glimmer): the reasoning block or else `messages.first` (when the turn
 * holds a message), then the text's message (`all\n` + content) if there is text, then the calls' messages, the
 * first `open` left to the generation prompt (or the reasoning's closing marker) when the turn starts with a call.
 */
function renderMessages(calls: readonly CallToRender[], d: FormatDescription, turn: RenderTurnOptions): string {
  const open = d.open as string;
  const content = turn.content ?? "";
  // the text ends where the next message opens: it must not hold `open`, nor end with a part of it
  if (content.includes(open) || (calls.length > 0 && (content + open).indexOf(open) < content.length)) {
    throw new ToolgramError(
      "INVALID_INPUT",
      `format ${d.name}: the text contains (or ends with part of) ${JSON.stringify(open)}, which opens a message`,
    );
  }
  const blocks = renderCalls(calls, d, undefined);
  const reasoning = renderReasoning(d, turn);
  // the text before the first recipient, unless the reasoning's closing marker ends with it
  const first =
    turn.reasoning === undefined
      ? firstMessageOpen(d)
      : firstMessageOpenAfter(d, (turn.reasoningMarkers ?? d.reasoning ?? { close: "" }).close);
  const lead = reasoning + (content === "" && calls.length === 0 ? "" : first);
  if (content === "") return lead + blocks.slice(open.length);
  return lead + (d.messages as { text: string }).text + content + blocks;
}

function renderReasoning(d: FormatDescription, turn: RenderTurnOptions): string {
  // a family that always closes the block writes its closing marker alone before a turn without reasoning (MiniMax M3)
  if (turn.reasoning === undefined)
    return d.reasoning?.closeAlone === true ? (turn.reasoningMarkers ?? d.reasoning).close : "";
  const m = turn.reasoningMarkers ?? d.reasoning;
  if (m === null)
    throw new ToolgramError(
      "INVALID_INPUT",
      `format ${d.name} has no reasoning block; pass reasoningMarkers: {open, close}`,
    );
  if (turn.reasoning.includes(m.close)) {
    throw new ToolgramError(
      "INVALID_INPUT",
      `the reasoning contains its closing marker ${JSON.stringify(m.close)}, so it would end there`,
    );
  }
  return m.open + turn.reasoning + m.close;
}

function renderCalls(calls: readonly CallToRender[], d: FormatDescription, content: string | undefined): string {
  // no calls is no list, as in compiled grammars (an empty list is kept only for a bare call list, the old output)
  if (calls.length === 0 && (content !== undefined || d.grouping === "block")) return "";
  if (wholeReply(d) && calls.length > 0 && content !== undefined && content !== "") {
    throw new ToolgramError(
      "INVALID_INPUT",
      `format ${d.name}: the call is the whole reply, so there is no text before it`,
    );
  }
  if (calls.length > d.maxCalls) {
    throw new ToolgramError(
      "INVALID_INPUT",
      `format ${d.name} carries at most ${d.maxCalls} call(s), got ${calls.length}; use another format`,
    );
  }
  const units = calls.map((c, i) => {
    const unit: UnitCall = { name: c.name, arguments: c.arguments };
    if (c.id !== undefined) unit.id = c.id;
    // Kimi K2's `functions.NAME:IDX` ids count the turn's calls
    if (d.unit.kind === "named-json" && d.unit.callIndex !== undefined)
      unit.id = indexedCallId(d.unit, c.name, c.id, i);
    // Kimi K3's `index="N"` counts them too: a call's own id is written when it is an index
    if (
      d.unit.kind === "xml-parameters" &&
      d.unit.callIndex !== undefined &&
      (c.id === undefined || !CALL_INDEX_TEXT.test(c.id))
    )
      unit.id = String(i + d.unit.callIndex.base);
    try {
      return renderCallUnit(unit, d);
    } catch (e) {
      throw new ToolgramError(
        "INVALID_INPUT",
        `call ${i} cannot be written in format ${d.name}: ${(e as Error).message}`,
        `/${i}`,
      );
    }
  });
  return joinCallUnits(units, d);
}

/**
 * The reply around call units (renderCallUnit's texts): each in its own block for object bodies, else one list.
 * Strict parsing compares a list block with this layout around the units as written.
 */
export function joinCallUnits(units: readonly string[], d: FormatDescription): string {
  if (d.grouping === "block") {
    // no calls is no block, no section
    if (units.length === 0) return "";
    const blocks = units.map((u) => (d.open ?? "") + u + (d.close ?? "")).join(d.blockSeparator) + (d.afterCalls ?? "");
    return d.section === undefined ? blocks : d.section.open + blocks + d.section.close;
  }
  // a list without an opening marker is the whole reply: no calls, no list
  if (units.length === 0 && d.open === null) return "";
  const l = listLayout(d);
  return (d.open ?? "") + d.afterOpen + l.open + units.join(l.separator) + l.close + d.beforeClose + (d.close ?? "");
}
