import { ToolgramError } from "../errors.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import { listLayout } from "../formats/listLayout.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, lit, opt, rep, seq } from "../grammar/build.js";
import type { Envelope, EnvelopeGrammarInput } from "./Envelope.js";
import type { ResolvedReasoning } from "../formats/resolveReasoning.js";
import { constrainedText } from "./constrainedText.js";
import { listOpening, textNotOpeningCall, TRIMMED_WHITESPACE } from "./textNotOpeningCall.js";
import { textWithout } from "./textWithout.js";
import { UNIT_GRAMMARS } from "./units/unitGrammars.js";
import { markerText } from "./markerText.js";
import { wholeReply } from "../formats/wholeReply.js";
import { splitMarker } from "../formats/splitMarker.js";
import { firstMessageOpen, firstMessageOpenAfter, messageHead } from "../formats/messageHead.js";

export { markerText };

/**
 * The envelope of a format from its description (src/formats/descriptions.ts): the grammar emits exactly the
 * canonical text the description defines (see FormatDescription) around the per-tool call units (UNIT_GRAMMARS, by
 * the unit's kind), so strict parsing reads every text the grammar accepts. Decisions the description leaves open:
 * - Free text comes before the calls. With an opening marker it never contains the marker (as for Qwen3). Without
 *   one (llama3-json, pythonic: the call is the whole reply) text and calls are alternatives: the text must not
 *   start like a call (see textNotOpeningCall), and a required call cannot have text before it (INVALID_OPTION
 *   for `freeText: true` there).
 * - The policy's call bound is capped by the format's (`maxCalls: 1` for llama3-json), so `parallel: true` still
 *   compiles, to at most one call.
 * - `grouping: "block"`: the rule `tool-call` is one whole block (markers included), repeated with the separator.
 *   `grouping: "list"` (tools-array, mistral, pythonic): one block of 1..maxCalls units, `tool-call` being one unit;
 *   no calls is no block.
 * - A `section` wraps all blocks (`section.open + blocks + section.close`); free text never contains its opening marker
 *   nor a block's (the parser opens a section or a block there), and no calls is no section.
 * - Markers listed in the description's `specialTokens` are token nodes; the rest is plain text.
 * Nothing follows the last call (or the section's closing marker).
 */
export function describedEnvelope(d: FormatDescription): Envelope {
  const unitGrammar = UNIT_GRAMMARS[d.unit.kind];
  // a marker made of special tokens and text (DeepSeek's `<｜tool▁call▁begin｜>function<｜tool▁sep｜>`) has its tokens as
  // token nodes
  const marker = (m: string | null): GExpr => (m === null ? lit("") : markerText(m, d.specialTokens));
  const argumentSpelling = unitGrammar.argumentSpelling(d);
  return {
    format: d.name,
    description: d,
    ruleNames: [
      "root",
      "tool-call",
      "free-text",
      "reasoning",
      "turn",
      ...(d.messages === undefined ? [] : ["text-message", ...(firstMessageOpen(d) === "" ? [] : ["messages"])]),
      ...unitGrammar.ruleNames,
    ],
    ...(argumentSpelling ? { argumentSpelling } : {}),
    grammar(input: EnvelopeGrammarInput): GExpr {
      if (d.messages === undefined) return withReasoning(d, input, turn(input) as GExpr);
      // a turn of messages: the text before the first recipient (Muse Glimmer's ` to=`) opens the turn, after the
      // reasoning block too unless its closing marker ends with it
      const m = turn(input) as MessageTurn;
      const first = firstMessageOpen(d);
      const empty = m.empty ? [lit("")] : [];
      if (first === "" || m.messages === null)
        return withReasoning(d, input, alt(...empty, ...(m.messages === null ? [] : [m.messages])));
      const messages = input.addRule("messages", m.messages);
      const opened = (lead: string): GExpr => alt(...empty, seq(marker(lead), messages));
      const r = input.reasoning ?? null;
      return withReasoning(d, input, opened(r === null ? first : firstMessageOpenAfter(d, r.close)), opened(first));
    },
  };

  /** The turn after the reasoning block (if any): free text and calls (a turn of messages: see MessageTurn). */
  function turn(input: EnvelopeGrammarInput): GExpr | MessageTurn {
    const { policy } = input;
    const limit = Math.min(policy.maxCalls ?? Infinity, d.maxCalls);
    const maxCalls = Number.isFinite(limit) ? limit : null;
    const callsPossible = maxCalls !== 0 && input.tools.length > 0;
    if (wholeReply(d) && policy.freeText && policy.minCalls > 0 && callsPossible) {
      throw new ToolgramError(
        "INVALID_OPTION",
        `format ${d.name}: the call is the whole reply, so there is no free text before a required call; drop freeText: true or use toolChoice "auto"`,
      );
    }
    if (d.messages !== undefined && !callsPossible)
      return { empty: true, messages: policy.freeText ? textMessage(d, input, false) : null };
    const text = policy.freeText
      ? input.addRule("free-text", freeText(d, unitGrammar.firstCharacter, input.reasoning ?? null))
      : lit("");
    if (!callsPossible) return text;

    const units = alt(...input.tools.map((t) => unitGrammar.call(d, t, input)));
    const more = (sep: GExpr, item: GExpr): GExpr => rep(seq(sep, item), 0, maxCalls === null ? null : maxCalls - 1);
    if (d.messages !== undefined) return messageTurn(d, input, units, more);
    let calls: GExpr;
    if (d.grouping === "block") {
      const block = input.addRule(
        "tool-call",
        seq(marker(d.open), lit(d.afterOpen), units, lit(d.beforeClose), marker(d.close)),
      );
      calls = seq(block, more(lit(d.blockSeparator), block), lit(d.afterCalls ?? ""));
      if (d.section !== undefined)
        calls = seq(markerText(d.section.open, d.specialTokens), calls, markerText(d.section.close, d.specialTokens));
    } else {
      const unit = input.addRule("tool-call", units);
      // a JSON list is spelled in the arguments' JSON style; other lists canonically
      const json = d.unit.kind === "json-object";
      const l = listLayout(d);
      const [open, sep, close] =
        json && d.list === undefined
          ? [input.style.arrayOpen, input.style.itemSeparator, input.style.arrayClose]
          : [lit(l.open), lit(l.separator), lit(l.close)];
      calls = seq(
        marker(d.open),
        lit(d.afterOpen),
        open,
        unit,
        more(sep, unit),
        close,
        lit(d.beforeClose),
        marker(d.close),
      );
    }
    if (wholeReply(d)) return policy.minCalls === 0 ? alt(text, calls) : calls;
    return seq(text, policy.minCalls === 0 ? opt(calls) : calls);
  }
}

/**
 * A turn of messages after its first recipient's opening (the prompt's, `messages.first` or the reasoning block's
 * closing marker): whether it may be empty, and its messages (null: none possible).
 */
interface MessageTurn {
  readonly empty: boolean;
  readonly messages: GExpr | null;
}

/**
 * A turn of messages (FormatDescription.messages), from its first recipient: optional text (`messages.text + TEXT`,
 * TEXT non-empty), then the call blocks, each `open + unit + close`, the first one's `open` left off when no text
 * precedes it. No text and no calls is the empty reply, as in every format.
 */
function messageTurn(
  d: FormatDescription,
  input: EnvelopeGrammarInput,
  units: GExpr,
  more: (sep: GExpr, item: GExpr) => GExpr,
): MessageTurn {
  const { policy } = input;
  if (d.open === null || d.grouping !== "block" || d.section !== undefined || messageHead(d, "") === undefined) {
    throw new Error(
      `internal: format ${d.name}: a turn of messages has an opening marker, no section and units that start with their recipient`,
    );
  }
  const text = (d.messages as { text: string }).text;
  const r = input.reasoning ?? null;
  const first = firstMessageOpen(d);
  for (const t of input.tools) {
    const head = messageHead(d, t.name) as string;
    if (head === text) {
      throw new ToolgramError(
        "INVALID_TOOL",
        `format ${d.name} writes text as the message ${JSON.stringify(d.open + text)}, so no tool can be named ${JSON.stringify(t.name)}; rename the tool`,
      );
    }
    // an optional reasoning block: a turn starting with the call would read as reasoning
    if (
      r !== null &&
      r.mode === "optional" &&
      r.open !== "" &&
      ((first + head).startsWith(r.open) || r.open.startsWith(first + head))
    ) {
      throw new ToolgramError(
        "INVALID_TOOL",
        `format ${d.name}: the call to ${JSON.stringify(t.name)} would start like the reasoning block's ${JSON.stringify(r.open)}; rename the tool`,
      );
    }
    // after a block, a call message starting like `again` would read as one more block
    if (r?.again !== undefined && (head.startsWith(r.again) || r.again.startsWith(head))) {
      throw new ToolgramError(
        "INVALID_TOOL",
        `format ${d.name}: the call to ${JSON.stringify(t.name)} would start like another reasoning message ${JSON.stringify(r.again)}; rename the tool`,
      );
    }
  }
  const open = markerText(d.open, d.specialTokens);
  const message = seq(
    lit(d.afterOpen),
    units,
    lit(d.beforeClose),
    d.close === null ? lit("") : markerText(d.close, d.specialTokens),
  );
  const block = input.addRule("tool-call", seq(open, message));
  const afterFirst = more(lit(d.blockSeparator), block);
  const alternatives: GExpr[] = [];
  if (policy.freeText) {
    if (policy.minCalls === 0) alternatives.push(textMessage(d, input, false));
    alternatives.push(seq(textMessage(d, input, true), block, afterFirst));
  }
  alternatives.push(seq(message, afterFirst));
  return { empty: policy.minCalls === 0, messages: alt(...alternatives) };
}

/**
 * A message of free text: `messages.text + TEXT`, TEXT non-empty and without `open`; before a call, such that the
 * call's `open` is the first one in `TEXT + open` (a text ending `>` before `>>>` would open the call early).
 */
function textMessage(d: FormatDescription, input: EnvelopeGrammarInput, beforeCall: boolean): GExpr {
  const open = d.open as string;
  const body = constrainedText({ avoid: [open], nonEmpty: true, ...(beforeCall ? { before: open } : {}) });
  return seq(
    markerText((d.messages as { text: string }).text, d.specialTokens),
    input.addRule(beforeCall ? "free-text" : "text-message", body),
  );
}

/**
 * Free text before the calls. With an optional reasoning block, the text never starts with the block's opening (the
 * parser reads a turn starting so as reasoning), so those texts are built as one constrained-text automaton.
 */
function freeText(d: FormatDescription, firstCharacter: string | undefined, r: ResolvedReasoning | null): GExpr {
  if (d.section !== undefined)
    return constrainedText({
      avoid: callOpeners(d),
      notStartingWith: r === null || r.mode === "required" ? [] : [r.open],
    });
  if (r === null || r.mode === "required")
    return d.open === null ? textNotOpeningCall(d, firstCharacter) : textWithout(d.open);
  if (d.open !== null) return constrainedText({ avoid: [d.open], notStartingWith: [r.open] });
  const bracket = listOpening(d) ?? firstCharacter;
  if (bracket === undefined) throw new Error(`internal: ${d.name}'s call units cannot open a reply`);
  const firsts = [bracket, ...d.startPrefixes.map((p) => p[0])].map((c) => c.codePointAt(0) as number);
  return constrainedText({
    avoid: [],
    notStartingWith: [...d.startPrefixes, r.open],
    notStartingWithChars: [...TRIMMED_WHITESPACE, ...firsts.flatMap((c) => [c, c])],
  });
}

/**
 * The reasoning block before the turn: `open + R + close`, R never containing `close` (nor the call's opening marker:
 * a call inside the reasoning is not a call) and ending so that `close` first occurs where the block ends. Optional
 * blocks alternate with the bare turn, whose free text never starts with `open`.
 */
function withReasoning(d: FormatDescription, input: EnvelopeGrammarInput, body: GExpr, bare: GExpr = body): GExpr {
  const r = input.reasoning ?? null;
  const spelled = (text: string): GExpr => markerText(text, d.specialTokens);
  // a family that always closes the block (MiniMax M3) writes its closing marker alone before a turn without one
  const lone = d.reasoning?.closeAlone === true ? (r?.close ?? d.reasoning.close) : null;
  if (r === null) return lone === null ? bare : seq(spelled(lone), bare);
  const reasoningText = constrainedText({ avoid: callOpeners(d), before: r.close });
  // a turn of messages may hold more blocks, each opened by `again` after the previous one's close (Muse Glimmer)
  const more = r.again === undefined ? lit("") : rep(seq(spelled(r.again), reasoningText, spelled(r.close)), 0, null);
  const block = input.addRule("reasoning", seq(spelled(r.open), reasoningText, spelled(r.close), more));
  if (r.mode === "required") return seq(block, body);
  const t = input.addRule("turn", body);
  const b = bare === body ? t : bare;
  return alt(seq(block, t), lone === null ? b : seq(spelled(lone), b));
}

/**
 * The markers that open calls in text: the section's opening marker (if any: its core, which the parser finds in any
 * spacing) and the block's.
 */
function callOpeners(d: FormatDescription): string[] {
  const section = d.section === undefined ? undefined : splitMarker(d.section.open).core;
  return [section, d.open].filter((m): m is string => m !== null && m !== undefined && m !== "");
}
