import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  buildTinyModel,
  TINY_MODEL_FAMILIES,
  type TinyModel,
  type TinyModelFamilyName,
} from "../gguf/buildTinyModel.js";
import { ToolgramError } from "../errors.js";
import { llamaCppSource } from "./llamaCppSource.js";

export interface TinyFamilyModelOptions {
  readonly family: TinyModelFamilyName;
  /** @defaultValue 0 */
  readonly seed?: number;
  /**
   * A chat template file of llama.cpp's `models/templates/` to embed instead of the family's own (e.g.
   * `Qwen3-Coder.jinja` over the Qwen3 vocabulary); @defaultValue the family's tokenizer_config.json template, or
   * its llama.cpp template when it has none there (gpt-oss).
   */
  readonly llamaCppTemplate?: string;
}

/**
 * Builds (into the toolgram cache) a tiny model of a family, with the family's real chat template: its own, or one
 * read from the llama.cpp source that node-llama-cpp ships. Returns undefined when that source cannot be cloned (no
 * node-llama-cpp or git), so tests can skip with a reason.
 */
export async function buildTinyFamilyModel(options: TinyFamilyModelOptions): Promise<TinyModel | undefined> {
  const templateFile = options.llamaCppTemplate ?? TINY_MODEL_FAMILIES[options.family].llamaCppTemplate;
  let chatTemplate: string | undefined;
  if (templateFile !== undefined) {
    const source = await llamaCppSource();
    if (source === undefined) return undefined;
    try {
      chatTemplate = await readFile(join(source.dir, "models", "templates", templateFile), "utf8");
    } catch (cause) {
      throw new ToolgramError(
        "INVALID_OPTION",
        `llama.cpp ${source.tag} has no models/templates/${templateFile}.`,
        "",
        { cause },
      );
    }
  }
  return buildTinyModel({ family: options.family, seed: options.seed ?? 0, chatTemplate });
}
