import type { ReasoningMode } from "../formats/FormatDescription.js";
import type { FormatName } from "../formats/FormatName.js";
import { formatFromChatTemplate } from "./formatFromChatTemplate.js";

/** The `compileTools` / parser options a model's chat template implies. */
export interface TemplateToolOptions {
  format: FormatName;
  reasoning: ReasoningMode;
  /** The template's own reasoning markers (absent when it has no reasoning). */
  reasoningMarkers?: { open: string; close: string };
}

/**
 * The format and reasoning block a chat template renders (formatFromChatTemplate), as options for `compileTools`
 * and the parser. Throws formatFromChatTemplate's ToolgramError (the template does not parse or render, or its call
 * layout is no format toolgram has).
 */
export function toolOptionsFromTemplate(template: string): TemplateToolOptions {
  const t = formatFromChatTemplate(template);
  if (t.reasoning === "none") return { format: t.format, reasoning: "none" };
  return {
    format: t.format,
    reasoning: t.reasoning,
    reasoningMarkers: { open: t.reasoningMarkers.start, close: t.reasoningMarkers.end },
  };
}
