import { ToolgramError } from "../errors.js";
import { FORMAT_DESCRIPTIONS } from "../formats/descriptions.js";
import type { FormatName } from "../formats/FormatName.js";
import { recognizeFormat } from "./knownFormats.js";
import { probeTemplate, type TemplateProbe } from "./probeTemplate.js";
import { readCallLayout, type CallLayout } from "./readCallLayout.js";
import { readReasoning, type ReasoningLayout } from "./readReasoning.js";
import type { RenderOptions } from "./renderTemplate.js";

/** What {@link formatFromChatTemplate} read from a chat template: the tool-call format, reasoning and markers. */
export interface TemplateFormat {
  /** toolgram's format for the template's calls. */
  format: FormatName;
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
 * Throws a ToolgramError: INVALID_TEMPLATE (does not parse), TEMPLATE_RENDER (fails on a plain exchange),
 * UNRECOGNIZED_TEMPLATE (renders no tool call, or a layout no known format has — the message shows it).
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
  const known = recognizeFormat(markers);
  if (known === undefined) {
    throw new ToolgramError(
      "UNRECOGNIZED_TEMPLATE",
      `the chat template's tool-call layout is not a known format: a call renders as ${JSON.stringify(markers.skeleton)} ` +
        `(section start ${JSON.stringify(markers.sectionStart)}, end ${JSON.stringify(markers.sectionEnd)})`,
    );
  }
  return {
    format: known.format,
    implemented: known.exact,
    aliases: FORMAT_DESCRIPTIONS[known.format].aliases,
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
