import { ToolgramError } from "../errors.js";
import { modelChatFor, type ModelChat } from "../prompt/ModelChat.js";
import { formatFromChatTemplate } from "../templates/formatFromChatTemplate.js";

/**
 * The server's prompt for a model's own chat template (the GGUF's `tokenizer.chat_template`, llama-server's /props):
 * Qwen3 / Hermes, written by toolgram's Qwen3 renderer, whose replay splices an earlier turn's bytes in as the
 * assistant's content (Qwen3 writes content verbatim). A template that writes another format, or Qwen3's calls with
 * text of its own around them, is refused by name rather than served with the wrong prompt; a model without a
 * template is taken as Qwen3 / Hermes.
 */
export function serverChatFor(template: string | undefined): ModelChat {
  if (template === undefined || template === "") return modelChatFor(undefined);
  let found: string;
  try {
    const read = formatFromChatTemplate(template);
    if (read.format === "qwen3" && read.implemented) return modelChatFor(undefined);
    found = read.implemented ? read.format : `${read.format} (with text of its own around the calls)`;
  } catch (e) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `the model's chat template does not render tool calls in a format toolgram serve knows: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  throw new ToolgramError(
    "INVALID_OPTION",
    `the model's chat template uses the ${found} tool-call format; toolgram serve renders Qwen3 / Hermes prompts only so far (its exact replay relies on Qwen3's template writing a turn's bytes verbatim)`,
  );
}
