import { ToolgramError } from "../errors.js";
import { describeFormat } from "../formats/describeFormat.js";
import type { ReasoningMode } from "../formats/FormatDescription.js";
import { formatFromChatTemplate } from "./formatFromChatTemplate.js";

/** The `compileTools` / parser options a model's chat template implies. */
export interface TemplateToolOptions {
  format: string;
  reasoning: ReasoningMode;
  /** The template's own reasoning markers (absent when it has no reasoning). */
  reasoningMarkers?: { open: string; close: string };
}

/**
 * The format and reasoning block a chat template renders (formatFromChatTemplate), as options for `compileTools`
 * and the parser. Throws ToolgramError: the template's own errors, or UNSUPPORTED_FORMAT when it writes a format
 * toolgram does not describe yet (the message names it; pass `format` explicitly).
 */
export function toolOptionsFromTemplate(template: string): TemplateToolOptions {
  const t = formatFromChatTemplate(template);
  try {
    describeFormat(t.format);
  } catch {
    throw new ToolgramError(
      "UNSUPPORTED_FORMAT",
      `the model's chat template writes tool calls as ${t.format}, which toolgram does not describe yet (docs/template-acceptance.md); pass a format explicitly`,
    );
  }
  if (t.reasoning === "none") return { format: t.format, reasoning: "none" };
  return {
    format: t.format,
    reasoning: t.reasoning,
    reasoningMarkers: { open: t.reasoningMarkers.start, close: t.reasoningMarkers.end },
  };
}
