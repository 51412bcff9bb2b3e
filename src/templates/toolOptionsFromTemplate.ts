import type { FormatDescription, ReasoningMode } from "../formats/FormatDescription.js";
import type { FormatName } from "../formats/FormatName.js";
import { formatFromChatTemplate } from "./formatFromChatTemplate.js";

/** The `compileTools` / parser options a model's chat template implies. */
export interface TemplateToolOptions {
  /** The format's name, or the description derived from the template (a layout no described format has). */
  format: FormatName | FormatDescription;
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
  const format = t.derived ? t.description : (t.format as FormatName);
  if (t.reasoning === "none") return { format, reasoning: "none" };
  return {
    format,
    reasoning: t.reasoning,
    reasoningMarkers: { open: t.reasoningMarkers.start, close: t.reasoningMarkers.end },
  };
}
