/**
 * The wire formats toolgram reads, writes and compiles grammars for; each has one description in
 * `FORMAT_DESCRIPTIONS` (src/formats/descriptions.ts). A new format adds its name here and its description there.
 */
// one name a line: formats are added in parallel, and a line each merges cleanly
export type FormatName =
  | "qwen3"
  | "tools-array"
  | "llama3-json"
  | "mistral"
  | "glaive"
  | "pythonic"
  | "openai"
  | "mistral-v11"
  | "qwen3-coder"
  | "deepseek-v3"
  | "deepseek-v3.1"
  | "kimi-k2"
  | "minimax-m1"
  | "mistral-v11-call-id"
  | "mistral-nemo"
  | "granite"
  | "granite-20b-fc"
  | "phi4-mini"
  | "xlam"
  | "hunyuan-a13b"
  | "internlm2"
  | "gigachat3"
  | "gigachat3-1"
  | "lfm2"
  | "minicpm5"
  | "glm-4.5"
  | "glm-4.7"
  | "nemotron-3-nano"
  | "step-3.5"
  | "reka-edge"
  | "seed-oss"
  | "nemotron-v2"
  | "deepseek-v3.2"
  | "deepseek-v4"
  | "gemma4"
  | "hy3"
  | "functionary-v3.1"
  | "functionary-v3.2"
  | "muse-glimmer"
  | "apertus"
  | "command-r7b"
  | "command-r-plus"
  | "kimi-k3"
  | "solar-open"
  | "minimax-m2"
  | "minimax-m3"
  | "step-3"
  | "firefunction-v2"
  | "olmo-3"
  | "lfm2-json"
  | "llama3-builtin";

/**
 * The name of a format derived from a chat template's renders (src/templates/deriveFormat.ts) rather than described
 * here: `derived-` and a hash of the description, so the same layout always gets the same name. Exported from
 * `toolgram`: `CompiledGrammar.format`, `TemplateFormat.format` and `FormatDescription.name` may hold one.
 */
export type DerivedFormatName = `derived-${string}`;
