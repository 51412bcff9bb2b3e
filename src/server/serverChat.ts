import { ToolgramError } from "../errors.js";
import { modelChatFor, type ModelChat } from "../prompt/ModelChat.js";
import { formatFromChatTemplate } from "../templates/formatFromChatTemplate.js";

/** The model's BOS/EOS token texts, which some templates write (`bos_token`, `eos_token`). */
export interface ModelTokenTexts {
  readonly bosToken?: string;
  readonly eosToken?: string;
}

/**
 * The server's prompt for a model's own chat template (the GGUF's `tokenizer.chat_template`, llama-server's /props):
 * the template's own format, read and rendered by modelChatFor, the prompt abstraction generateToolCalls uses, for
 * every format toolgram generates (the described ones and the ones derived from a template's renders). A Qwen3 /
 * Hermes template is written by toolgram's Qwen3 renderer, which renders the same prompt and also takes a turn that
 * only calls tools (`content: null`, which Qwen3's own template cannot render); a model without a template is taken
 * as Qwen3 / Hermes. A template that writes no usable tool-call format is refused, naming what it writes.
 */
export function serverChatFor(template: string | undefined, tokens: ModelTokenTexts = {}): ModelChat {
  if (template === undefined || template === "") return modelChatFor(undefined);
  try {
    const read = formatFromChatTemplate(template);
    if (read.format === "qwen3" && read.implemented && read.reasoning !== "required") return modelChatFor(undefined);
    return modelChatFor(template, {
      ...(tokens.bosToken === undefined ? {} : { bosToken: tokens.bosToken }),
      ...(tokens.eosToken === undefined ? {} : { eosToken: tokens.eosToken }),
    });
  } catch (e) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `the model's chat template does not render tool calls in a format toolgram serve knows: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
