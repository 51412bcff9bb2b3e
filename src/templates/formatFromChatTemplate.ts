import { ToolgramError } from "../errors.js";
import { FORMAT_DESCRIPTIONS } from "../formats/descriptions.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import type { DerivedFormatName, FormatName } from "../formats/FormatName.js";
import { deriveFormat } from "./deriveFormat.js";
import { sameAsDescribed } from "./sameAsDescribed.js";
import { recognizeFormat } from "./knownFormats.js";
import { PROBE, probeTemplate, type TemplateProbe } from "./probeTemplate.js";
import { parseToolCalls } from "../parser/parseToolCalls.js";
import { readCallLayout, type CallLayout } from "./readCallLayout.js";
import { readReasoning, type ReasoningLayout } from "./readReasoning.js";
import type { RenderOptions } from "./renderTemplate.js";

/** What {@link formatFromChatTemplate} read from a chat template: the tool-call format, reasoning and markers. */
export interface TemplateFormat {
  /**
   * toolgram's format for the template's calls: a described format's name, or for a layout none has, the name of the
   * description derived from the template (`derived-…`, see `description`).
   */
  format: FormatName | DerivedFormatName;
  /**
   * The format's description: the described format's, or the one derived from the template's renders. Pass it as the
   * `format` option (compileTools, parseToolCalls, renderToolCalls, generateToolCalls) to use a derived format.
   */
  description: FormatDescription;
  /** The layout matched no described format and `description` was derived from the template's renders. */
  derived: boolean;
  /**
   * toolgram renders exactly the layout this template renders under `format`; false when the template writes
   * text of its own around the calls (Bielik's newline before them, for one), read as text before the calls.
   */
  implemented: boolean;
  /** Other names for the format (vLLM tool-parser names, llama.cpp's): its description's. */
  aliases: readonly string[];
  /** How the template frames reasoning: `reasoningMarkers.mode`, the value to pass as the `reasoning` option. */
  reasoning: ReasoningLayout["mode"];
  /** The reasoning block's markers, exact. */
  reasoningMarkers: ReasoningLayout;
  /** The call layout's markers, exact. */
  markers: CallLayout;
  /** What the generation prompt appends after a user turn (the grammar starts after it). */
  generationPrompt: string;
  /** The end-of-turn text after a content-only reply. */
  turnEnd: string;
  /** The template renders at most one call per assistant turn. */
  singleCall: boolean;
  /** How tool-call arguments must be passed to the template: objects, or JSON text. */
  argumentsAs: "object" | "string";
  /**
   * The raw probe renders, for the CLI's reports. Internal: its shape follows the probe conversations, which change
   * as formats are added.
   * @internal
   */
  probe: TemplateProbe;
}

/**
 * Reads a model's tool-call format from its chat template: renders probe conversations (one and two calls, with and
 * without reasoning, a tool result) with @huggingface/jinja and reads the markers from the output, as llama.cpp's
 * autoparser does, rather than matching the template's text.
 * A layout no described format has is derived into a description of its own (deriveFormat).
 * Throws a ToolgramError: INVALID_TEMPLATE (does not parse), TEMPLATE_RENDER (fails on a plain exchange),
 * UNRECOGNIZED_TEMPLATE (renders no tool call, or a layout that does not say one format — the message names the part).
 */
export function formatFromChatTemplate(template: string, options: RenderOptions = {}): TemplateFormat {
  return formatFromProbe(probeTemplate(template, options));
}

/** formatFromChatTemplate's reading of an already rendered probe. */
export function formatFromProbe(probe: TemplateProbe): TemplateFormat {
  const markers = readCallLayout(probe);
  if (markers === undefined) {
    const why = probe.toolCallsError ?? "the assistant turn does not show the tool call";
    throw new ToolgramError("UNRECOGNIZED_TEMPLATE", `the chat template renders no tool call: ${why}`);
  }
  const reasoningMarkers = readReasoning(probe, markers);
  const matched = recognizeFormat(markers);
  // a layout a matcher names only roughly is that format when the format reads the template's call back (Bielik's
  // newline before `<tool_call>` is text before the call); else it is a layout of its own, derived (SGLang's
  // `functools[…]` without FireFunction's leading space opens no call of firefunction-v2)
  const known = matched !== undefined && (matched.exact || readsBack(matched.format, probe)) ? matched : undefined;
  const derived = known === undefined ? deriveFormat(markers, reasoningMarkers, probe.typedCall?.body) : undefined;
  // a derived description with a described format's wire parts is that format
  const described = derived === undefined ? undefined : sameAsDescribed(derived);
  const description =
    known !== undefined ? FORMAT_DESCRIPTIONS[known.format] : (described ?? (derived as FormatDescription));
  return {
    format: description.name,
    description,
    derived: known === undefined && described === undefined,
    // a derived description writes the layout it was read from
    implemented: known?.exact ?? true,
    aliases: description.aliases,
    reasoning: reasoningMarkers.mode,
    reasoningMarkers,
    markers,
    generationPrompt: probe.generationPrompt,
    turnEnd: probe.turnEnd,
    singleCall: markers.separator === undefined,
    argumentsAs: probe.argumentsAs,
    probe,
  };
}

/** The described format reads the template's one-call turn back into the probe's call (strictly, any text before it). */
function readsBack(format: FormatName, probe: TemplateProbe): boolean {
  const text = probe.oneCall?.body ?? "";
  try {
    const r = parseToolCalls(text, { format, mode: "strict", reasoning: "none" });
    return r.calls.length === 1 && r.calls[0]?.name === PROBE.functions[0];
  } catch {
    return false;
  }
}
