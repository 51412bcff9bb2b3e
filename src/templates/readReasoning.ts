import { PROBE, type TemplateProbe } from "./probeTemplate.js";
import { reasoningEnd, type CallLayout } from "./readCallLayout.js";

/**
 * How a template frames reasoning before the reply, read from its renders.
 * - `none`: no reasoning shows and the generation prompt opens no block.
 * - `optional`: the turn may open a block itself (`<think>…</think>`), e.g. Qwen3.
 * - `required`: the generation prompt leaves a block open (`<think>\n`), so every reply starts inside it and must close it.
 * Exported from `toolgram`: {@link TemplateFormat.reasoningMarkers} is one.
 */
export interface ReasoningLayout {
  /** How the template frames reasoning: `"none"`, `"optional"` or `"required"`, as above. */
  mode: "none" | "optional" | "required";
  /** Text that opens the block inside the turn ("" when the generation prompt opened it). */
  start: string;
  /** Text from the end of the reasoning to the first call (or to the content when no call render shows reasoning). */
  end: string;
  /** Text from the end of the reasoning to the content, when it differs from `end`. */
  endBeforeContent?: string;
  /** The message field that carries reasoning (`reasoning_content`, or `thinking` for gpt-oss). */
  field?: string;
  /**
   * The markers were inferred from the generation prompts alone (the template never shows past reasoning): the
   * prompt with thinking opens a block that the prompt without thinking closes.
   */
  inferred?: boolean;
}

export function readReasoning(probe: TemplateProbe, layout: CallLayout | undefined): ReasoningLayout {
  const withCalls = probe.oneCallWithReasoning?.body;
  const withContent = probe.contentWithReasoning?.body;
  const field = probe.reasoningField;
  if (withCalls !== undefined && layout !== undefined) {
    const at = withCalls.indexOf(PROBE.reasoning);
    const end = reasoningEnd(probe);
    if (end !== undefined) {
      const start = withCalls.slice(0, at);
      const r: ReasoningLayout = { mode: at === 0 ? "required" : "optional", start, end, ...(field ? { field } : {}) };
      const endBeforeContent = contentEnd(withContent);
      if (endBeforeContent !== undefined && endBeforeContent !== end) r.endBeforeContent = endBeforeContent;
      return r;
    }
  }
  if (withContent !== undefined) {
    const at = withContent.indexOf(PROBE.reasoning);
    return {
      mode: at === 0 ? "required" : "optional",
      start: withContent.slice(0, at),
      end: contentEnd(withContent) ?? "",
      ...(field ? { field } : {}),
    };
  }
  // never shown: a generation prompt that opens a block which the no-thinking prompt closes (QwQ, DeepSeek R1)
  const on = probe.generationPrompt;
  const off = probe.generationPromptNoThinking;
  if (off.startsWith(on) && off.length > on.length && /^\s*<\/[^<>]+>\s*$/.test(off.slice(on.length))) {
    return { mode: "required", start: "", end: off.slice(on.length).trim(), inferred: true };
  }
  return { mode: "none", start: "", end: "" };
}

function contentEnd(withContent: string | undefined): string | undefined {
  if (withContent === undefined) return undefined;
  const at = withContent.indexOf(PROBE.reasoning);
  const c = withContent.indexOf(PROBE.content, at);
  return c < 0 ? undefined : withContent.slice(at + PROBE.reasoning.length, c);
}
