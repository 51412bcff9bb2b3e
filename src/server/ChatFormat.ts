import type { JsonObject, JsonValue } from "../json.js";
import { formatFromChatTemplate, ToolgramError, type FormatName } from "../index.js";
import { renderQwen3Prompt, type ChatMessage } from "../llama-cpp/index.js";

/** A message to render: one of the request's, or an earlier assistant turn to splice back byte for byte. */
export type PromptMessage = ChatMessage | { readonly role: "assistant"; readonly verbatim: string };

/**
 * How a model family's prompts are written and its tool calls read: the server renders every request through one
 * of these and parses the output in `format`. Qwen3/Hermes is the one there is today; a format read from a model's
 * own chat template plugs in here.
 */
export interface ChatFormat {
  readonly name: string;
  /** The wire format of the calls (compileTools / parseToolCalls `format`). */
  readonly format: FormatName;
  /** The whole prompt, ending with the opened assistant turn. */
  render(messages: readonly PromptMessage[], tools: readonly JsonObject[]): string;
  /** The text of one assistant turn as the template writes it back (to tell whether replay is exact). */
  renderTurn(message: ChatMessage): string;
}

function plain(m: PromptMessage): ChatMessage {
  // Qwen3's template writes an assistant's content verbatim (outside <think>), so the exact bytes go in as content.
  return "verbatim" in m ? { role: "assistant", content: m.verbatim } : m;
}

/** Qwen3 / Hermes: `<|im_start|>` turns, tools in the system turn, `<tool_call>` blocks. */
export const qwen3ChatFormat: ChatFormat = {
  name: "qwen3",
  format: "qwen3",
  render(messages, tools) {
    return renderQwen3Prompt(messages.map(plain), tools.length > 0 ? { tools: tools as JsonValue[] } : {});
  },
  renderTurn(message) {
    const text = renderQwen3Prompt([message], { addGenerationPrompt: false });
    return text.slice("<|im_start|>assistant\n".length, text.length - "<|im_end|>\n".length);
  },
};

/**
 * The ChatFormat for a model's own chat template (the GGUF's `tokenizer.chat_template`, llama-server's /props):
 * the format `formatFromChatTemplate` reads from it must be one the server renders (Qwen3/Hermes today); any other
 * is refused by name rather than served with the wrong prompt. A model without a template is taken as Qwen3/Hermes.
 */
export function chatFormatFor(template: string | undefined): ChatFormat {
  if (template === undefined || template === "") return qwen3ChatFormat;
  let found: string;
  try {
    const read = formatFromChatTemplate(template);
    found = read.implemented ? read.format : `${read.format} (not implemented)`;
  } catch (e) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `the model's chat template does not render tool calls in a format toolgram serve knows: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (found === qwen3ChatFormat.format) return qwen3ChatFormat;
  // exact replay splices an earlier turn's bytes in as the assistant's content: Qwen3's template writes content
  // verbatim, other templates wrap it in their own channels (generateToolCalls renders them, without replay)
  throw new ToolgramError(
    "INVALID_OPTION",
    `the model's chat template uses the ${found} tool-call format; toolgram serve renders Qwen3 / Hermes prompts only so far (its exact replay relies on Qwen3's template writing a turn's bytes verbatim)`,
  );
}
