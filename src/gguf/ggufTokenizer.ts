import { ToolgramError } from "../errors.js";
import type { GgufHeader } from "./readGguf.js";
import type { GgufValue } from "./ggufTypes.js";

/** llama.cpp's token types (`llama_token_type`), as stored in `tokenizer.ggml.token_type`. */
export const GgufTokenType = {
  undefined: 0,
  normal: 1,
  unknown: 2,
  control: 3,
  userDefined: 4,
  unused: 5,
  byte: 6,
} as const;

/**
 * The tokenizer a GGUF file embeds, in the fields toolgram needs to build token-level artifacts. Exported from
 * `toolgram`: {@link Vocabulary.fromGgufTokenizer} takes one, so code that reads GGUF metadata itself (in a browser,
 * from fetched bytes) can build it; `vocabularyFromGguf` in `toolgram/node` does both steps from a path.
 */
export interface GgufTokenizer {
  /** `tokenizer.ggml.model`, e.g. "gpt2" (byte-level BPE) or "llama" (SentencePiece). */
  readonly model: string;
  /** `tokenizer.ggml.pre`, the pre-tokenizer name, e.g. "qwen2". */
  readonly pre: string | undefined;
  /** Token pieces by id, in the tokenizer's own alphabet (GPT-2 byte-to-unicode for "gpt2"). */
  readonly tokens: readonly string[];
  /** `GgufTokenType` by id; empty if the file has none. */
  readonly tokenTypes: readonly number[];
  /** BPE merges as "a b" strings; empty if the file has none. */
  readonly merges: readonly string[];
  /**
   * `tokenizer.ggml.eos_token_id`: the end-of-generation id `fromGgufTokenizer` uses unless told others; undefined if
   * absent.
   */
  readonly eosTokenId: number | undefined;
  /** `tokenizer.ggml.bos_token_id`; undefined if absent. */
  readonly bosTokenId: number | undefined;
  /** `tokenizer.ggml.padding_token_id`; undefined if absent. */
  readonly paddingTokenId: number | undefined;
  /** `tokenizer.ggml.add_bos_token`: whether prompts start with the BOS token; undefined if absent. */
  readonly addBosToken: boolean | undefined;
  /** `tokenizer.chat_template`, the model's Jinja chat template; undefined if absent. */
  readonly chatTemplate: string | undefined;
}

function fail(key: string, expected: string): never {
  throw new ToolgramError("INVALID_VOCABULARY", `GGUF metadata "${key}" is missing or not ${expected}.`);
}

function stringOf(v: GgufValue | undefined): string | undefined {
  return v?.type === "string" ? v.value : undefined;
}

function intOf(v: GgufValue | undefined): number | undefined {
  if (v === undefined || v.type === "array" || v.type === "string" || v.type === "bool") return undefined;
  return typeof v.value === "bigint" ? Number(v.value) : v.value;
}

function stringArray(header: GgufHeader, key: string, required: boolean): string[] {
  const v = header.metadata.get(key);
  if (v === undefined && !required) return [];
  if (v?.type !== "array" || v.itemType !== "string") fail(key, "an array of strings");
  return v.value as string[];
}

/** Extracts the embedded tokenizer from a GGUF header; throws INVALID_VOCABULARY when the file has none. */
export function ggufTokenizer(header: GgufHeader): GgufTokenizer {
  const m = header.metadata;
  const model = stringOf(m.get("tokenizer.ggml.model")) ?? fail("tokenizer.ggml.model", "a string");
  const tokens = stringArray(header, "tokenizer.ggml.tokens", true);
  const typesValue = m.get("tokenizer.ggml.token_type");
  let tokenTypes: number[] = [];
  if (typesValue !== undefined) {
    if (typesValue.type !== "array" || typesValue.itemType === "string" || typesValue.itemType === "bool") {
      fail("tokenizer.ggml.token_type", "an array of integers");
    }
    tokenTypes = typesValue.value.map(Number);
    if (tokenTypes.length !== tokens.length)
      fail("tokenizer.ggml.token_type", `as long as the ${tokens.length} tokens`);
  }
  const addBos = m.get("tokenizer.ggml.add_bos_token");
  return {
    model,
    pre: stringOf(m.get("tokenizer.ggml.pre")),
    tokens,
    tokenTypes,
    merges: stringArray(header, "tokenizer.ggml.merges", false),
    eosTokenId: intOf(m.get("tokenizer.ggml.eos_token_id")),
    bosTokenId: intOf(m.get("tokenizer.ggml.bos_token_id")),
    paddingTokenId: intOf(m.get("tokenizer.ggml.padding_token_id")),
    addBosToken: addBos?.type === "bool" ? addBos.value : undefined,
    chatTemplate: stringOf(m.get("tokenizer.chat_template")),
  };
}
