import { canonicalJson } from "../json.js";
import { PROBE, PROBE_CALLS, type TemplateProbe } from "./probeTemplate.js";
import { diffSplit, markerPrefix, markerSuffix } from "./textDiff.js";

/**
 * The layout of a template's tool calls, read from its renders of one and two calls (every string exact, as the
 * template writes it). Text of a reply with calls c1..cn:
 * `beforeCalls + sectionStart + unit(c1) + separator + unit(c2) … + sectionEnd`, where a unit is
 * `callOpen + NAME + … + callClose` as `skeleton` shows. Exported from `toolgram`: {@link TemplateFormat.markers} is one.
 */
export interface CallLayout {
  /** Text the turn holds before the calls when there is no reasoning (e.g. an empty `<think>\n\n</think>\n\n`). */
  beforeCalls: string;
  /** Text that opens the calls' section, between `beforeCalls` and the first call ("" when the calls stand alone). */
  sectionStart: string;
  /** The text of the first call, from its first own character up to the function name (a counter reads 0 or 1). */
  callOpen: string;
  /** From the end of the last argument value to the call's last own character. */
  callClose: string;
  /** Between two calls; undefined when the template renders only one call per turn. */
  separator?: string;
  /** Text that closes the calls' section, after the last call ("" when the calls stand alone). */
  sectionEnd: string;
  /**
   * One call with placeholders: ⟨NAME⟩, ⟨ARGS⟩ (the arguments as compact JSON, `", "` and `": "`), ⟨K1⟩/⟨V1⟩ and
   * ⟨K2⟩/⟨V2⟩ (argument names and string values written out one by one), ⟨ID⟩ (the call id), ⟨INDEX0⟩/⟨INDEX1⟩ (the
   * call's position counted from 0 or 1).
   */
  skeleton: string;
  /** How the arguments are written: one JSON object, one tagged element per argument, or Python keyword arguments. */
  arguments: "json" | "tagged" | "python" | "other";
  /** For tagged arguments: the text before a name, between name and value, and after a value. */
  argumentMarkers?: { open: string; middle: string; close: string };
  /** The call id the caller chose (`call00001`) appears in the call. */
  writesCallId: boolean;
}

const [F1, F2] = PROBE.functions;
const [A1, A2] = PROBE.args;
const [V1, V2] = PROBE.values;
const ARGS_JSON = canonicalJson(PROBE_CALLS.one[0].arguments);

/** Reads the call layout out of a probe; undefined when the template renders no tool call. */
export function readCallLayout(probe: TemplateProbe): CallLayout | undefined {
  if (probe.oneCall === undefined) return undefined;
  const one = probe.oneCall.body;
  const beforeCalls = textBeforeCalls(probe);
  const section1 = one.slice(beforeCalls.length);
  const two = probe.twoCalls?.body;
  // the call ids are replaced first, so that an id after the arguments (Mistral Nemo) does not split the diff
  const section2 = two?.startsWith(beforeCalls) ? ids(two.slice(beforeCalls.length)) : undefined;
  const argsEnd = (text: string, _from: number, before?: number): number =>
    text.includes(ARGS_JSON)
      ? text.lastIndexOf(ARGS_JSON, before) + ARGS_JSON.length
      : text.lastIndexOf(V2, before) + V2.length;

  let sectionStart: string;
  let callOpen: string;
  let callClose: string;
  let separator: string | undefined;
  let sectionEnd: string;
  let unit: string;
  if (section2?.includes(F2)) {
    const n1 = section2.indexOf(F1);
    const n2 = section2.indexOf(F2);
    callOpen = markerSuffix(section2.slice(0, n1), section2.slice(0, n2), true);
    const v1 = argsEnd(section2, n1, n2);
    const v2 = argsEnd(section2, n2);
    callClose = markerPrefix(section2.slice(v1, n2 - callOpen.length), section2.slice(v2));
    separator = section2.slice(v1 + callClose.length, n2 - callOpen.length);
    sectionStart = section2.slice(0, n1 - callOpen.length);
    sectionEnd = section2.slice(v2 + callClose.length);
    const unit1 = section2.slice(n1 - callOpen.length, v1 + callClose.length);
    const unit2 = section2.slice(n2 - callOpen.length, v2 + callClose.length);
    unit = withIndex(placeholders(unit1, F1), placeholders(unit2, F2));
  } else {
    // one call only: the section and the call cannot be told apart; the whole text before the name opens the call
    const n1 = section1.indexOf(F1);
    const v1 = argsEnd(section1, n1);
    sectionStart = "";
    callOpen = section1.slice(0, n1);
    callClose = section1.slice(v1);
    sectionEnd = "";
    unit = placeholders(ids(section1), F1);
  }
  const layout: CallLayout = {
    beforeCalls,
    sectionStart,
    callOpen,
    callClose,
    ...(separator !== undefined ? { separator } : {}),
    sectionEnd,
    skeleton: unit,
    arguments: "other",
    writesCallId: unit.includes("⟨ID⟩"),
  };
  if (unit.includes("⟨ARGS⟩")) layout.arguments = "json";
  else if (/⟨NAME⟩\(⟨K1⟩=.⟨V1⟩./.test(unit)) layout.arguments = "python";
  else if (unit.includes("⟨K1⟩") && unit.includes("⟨V1⟩")) {
    layout.arguments = "tagged";
    const k1 = unit.indexOf("⟨K1⟩");
    const k2 = unit.indexOf("⟨K2⟩");
    const w1 = unit.indexOf("⟨V1⟩");
    const w2 = unit.indexOf("⟨V2⟩");
    if (k1 < w1 && w1 < k2 && k2 < w2) {
      const open = markerSuffix(unit.slice(0, k1), unit.slice(0, k2));
      const middle = unit.slice(k1 + 4, w1);
      const close = markerPrefix(unit.slice(w1 + 4, k2 - open.length), unit.slice(w2 + 4));
      layout.argumentMarkers = { open, middle, close };
    }
  }
  return layout;
}

/** The call text with the probe's needles replaced by placeholders. */
function placeholders(unit: string, name: string): string {
  return unit
    .replaceAll(ARGS_JSON, "⟨ARGS⟩")
    .replaceAll(name, "⟨NAME⟩")
    .replaceAll(A1, "⟨K1⟩")
    .replaceAll(A2, "⟨K2⟩")
    .replaceAll(V1, "⟨V1⟩")
    .replaceAll(V2, "⟨V2⟩");
}

function ids(text: string): string {
  return PROBE.callIds.reduce((t, id) => t.replaceAll(id, "⟨ID⟩"), text);
}

/**
 * What the turn writes before its calls when it carries no reasoning (an empty `<think>\n\n</think>\n\n`, Command
 * R7B's `<|START_THINKING|><|END_THINKING|>`). With a render that carries reasoning, the reasoning block is cut out
 * (see readReasoning's reasoningEnd); without, it is what the call turn shares with a content-only turn.
 */
export function textBeforeCalls(probe: TemplateProbe): string {
  const one = probe.oneCall?.body ?? "";
  const end = reasoningEnd(probe);
  const withR = probe.oneCallWithReasoning?.body;
  if (end !== undefined && withR !== undefined) {
    const section = withR.slice(withR.indexOf(PROBE.reasoning) + PROBE.reasoning.length + end.length);
    if (one.endsWith(section)) return one.slice(0, one.length - section.length);
  }
  return markerPrefix(probe.content.body, one);
}

/**
 * The text from the end of the reasoning to the first call: what the call and content renders share after the
 * reasoning; else, when the reasoning render ends with the whole no-reasoning turn (gpt-oss, Gemma 4), what lies
 * between; else the first marker after it, with the whitespace around it (llama.cpp's rule).
 */
export function reasoningEnd(probe: TemplateProbe): string | undefined {
  const one = probe.oneCall?.body;
  const withR = probe.oneCallWithReasoning?.body;
  if (one === undefined || withR === undefined) return undefined;
  const after = withR.slice(withR.indexOf(PROBE.reasoning) + PROBE.reasoning.length);
  const content = probe.contentWithReasoning?.body;
  if (content !== undefined) {
    const shared = markerPrefix(after, content.slice(content.indexOf(PROBE.reasoning) + PROBE.reasoning.length));
    if (shared !== "") return shared;
  }
  if (after.endsWith(one)) return after.slice(0, after.length - one.length);
  return /^\s*(?:<[^<>]*>|\[[^[\]]*\])\s*/.exec(after)?.[0] ?? "";
}

/** Where the first and second call differ by a counter (Kimi's `functions.NAME:0`, Cohere's `"tool_call_id": "0"`). */
function withIndex(first: string, second: string): string {
  if (first === second) return first;
  const d = diffSplit(first, second);
  const a = first.slice(d.prefix.length, first.length - d.suffix.length);
  if (/^\d+$/.test(a) && /^\d+$/.test(d.middle) && Number(d.middle) === Number(a) + 1 && Number(a) <= 1) {
    return d.prefix + (a === "0" ? "⟨INDEX0⟩" : "⟨INDEX1⟩") + d.suffix;
  }
  return first;
}
