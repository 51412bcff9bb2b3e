import { createHash } from "node:crypto";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { cacheDir } from "../cacheDir.js";
import { ToolgramError } from "../errors.js";
import { float16Bits } from "./float16.js";
import { GgufTokenType } from "./ggufTokenizer.js";
import type { GgufTensor, GgufValue } from "./ggufTypes.js";
import { loadHfTokenizerPackage, type HfTokenizerJson } from "./hfTokenizerFiles.js";
import { seededRandom } from "../util/seededRandom.js";
import { looksLikeControlToken, TINY_MODEL_FAMILIES, type TinyModelFamilyName } from "./tinyModelFamilies.js";
import { writeGguf } from "./writeGguf.js";
import { readFile } from "node:fs/promises";

export { TINY_MODEL_FAMILIES, type TinyModelFamilyName } from "./tinyModelFamilies.js";

/** Shape of the tiny model: small enough to build in about a second, large enough for llama.cpp to accept. */
export const TINY_QWEN3 = {
  embedding: 64,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  headDim: 16,
  ffn: 128,
  contextLength: 8192,
  /** Qwen3's logit count: ids above the last real token are padding. */
  vocabularySize: 151_936,
  eosToken: "<|im_end|>",
  /** Qwen3 has no BOS; llama.cpp's converter records <|endoftext|> there, with add_bos_token false. */
  bosToken: "<|endoftext|>",
  padToken: "<|endoftext|>",
} as const;

/** Options of {@link buildTinyModel}: the seed and model family of the tiny random-weight model. */
export interface BuildTinyModelOptions {
  /** PRNG seed for the weights; the same seed always yields the same file. @defaultValue 0 */
  readonly seed?: number;
  /**
   * Where to write; @defaultValue `tinyModelPath(seed, family, chatTemplate)` (in the toolgram cache, see `cacheDir`).
   */
  readonly outPath?: string;
  /** Whose real vocabulary the model carries. @defaultValue "qwen3" */
  readonly family?: TinyModelFamilyName;
  /**
   * The chat template to embed (`tokenizer.chat_template`), e.g. llama.cpp's Qwen3-Coder template over the Qwen3
   * vocabulary; @defaultValue the family's own, from its tokenizer_config.json (gpt-oss has none there: pass it).
   */
  readonly chatTemplate?: string;
}

/**
 * A tiny model written by {@link buildTinyModel}: its path, hash, size, seed, family, tokenizer file and chat template.
 */
export interface TinyModel {
  /** Where the GGUF file was written. */
  readonly path: string;
  /** sha256 of the file, hex: the same seed, family and template always give the same hash. */
  readonly sha256: string;
  /** The file's size in bytes. */
  readonly sizeBytes: number;
  /** The PRNG seed the weights came from. */
  readonly seed: number;
  /** Whose vocabulary the model carries. */
  readonly family: TinyModelFamilyName;
  /** The Hugging Face tokenizer.json the vocabulary came from (for cross-checking tokenization). */
  readonly tokenizerJsonPath: string;
  /** The embedded chat template. */
  readonly chatTemplate: string;
}

/**
 * The default output path of the tiny model for a seed (and family; a template other than the family's own adds
 * its hash, so models with different templates never overwrite each other).
 */
export function tinyModelPath(seed = 0, family: TinyModelFamilyName = "qwen3", chatTemplate?: string): string {
  const template =
    chatTemplate === undefined ? "" : `-${createHash("sha256").update(chatTemplate).digest("hex").slice(0, 12)}`;
  return join(cacheDir(), `tiny-${family}${template}-${seed}.gguf`);
}

/** Token pieces and llama.cpp token types, padded to the model's logit count. */
function ggufVocabulary(tokenizer: HfTokenizerJson, size: number): { tokens: string[]; types: number[] } {
  const tokens: (string | undefined)[] = new Array(size).fill(undefined);
  const types: number[] = new Array(size).fill(GgufTokenType.unused);
  const place = (id: number, piece: string, type: number): void => {
    if (!Number.isInteger(id) || id < 0 || id >= size) {
      throw new ToolgramError(
        "INVALID_VOCABULARY",
        `Token ${JSON.stringify(piece)} has id ${id}, outside 0..${size - 1}.`,
      );
    }
    tokens[id] = piece;
    types[id] = type;
  };
  for (const [piece, id] of Object.entries(tokenizer.model.vocab)) place(id, piece, GgufTokenType.normal);
  for (const added of tokenizer.added_tokens) {
    // As llama.cpp's converter: <|...|> markers are control tokens (never produced by plain text); tool and think
    // tags stay user-defined (their text still tokenizes to them), with SentencePiece's ▁ pre-normalized to a space.
    if (looksLikeControlToken(added.content, added.special)) place(added.id, added.content, GgufTokenType.control);
    else place(added.id, added.content.replaceAll("\u2581", " "), GgufTokenType.userDefined);
  }
  const filled = tokens.map((piece, id) => piece ?? `[PAD${id}]`);
  return { tokens: filled, types };
}

function idOf(tokens: readonly string[], piece: string): number {
  const id = tokens.indexOf(piece);
  if (id < 0) throw new ToolgramError("INVALID_VOCABULARY", `The vocabulary has no ${piece} token.`);
  return id;
}

/** A random F16 matrix (or vector) with values uniform in [-scale, scale). */
function randomF16(name: string, dims: number[], random: () => number, scale: number): GgufTensor {
  const count = dims.reduce((a, b) => a * b, 1);
  const bits = new Uint16Array(count);
  for (let i = 0; i < count; i++) bits[i] = float16Bits((random() * 2 - 1) * scale);
  return { name, dims, type: "F16", data: new Uint8Array(bits.buffer) };
}

/** An F32 vector of ones: RMS-norm weights that leave activations unscaled. */
function onesF32(name: string, length: number): GgufTensor {
  return { name, dims: [length], type: "F32", data: new Uint8Array(new Float32Array(length).fill(1).buffer) };
}

function tinyTensors(seed: number, vocabularySize: number): GgufTensor[] {
  const random = seededRandom(seed);
  const { embedding: d, layers, heads, kvHeads, headDim, ffn } = TINY_QWEN3;
  // No output.weight: llama.cpp ties the output projection to token_embd, which halves the file.
  const tensors: GgufTensor[] = [
    randomF16("token_embd.weight", [d, vocabularySize], random, 0.5),
    onesF32("output_norm.weight", d),
  ];
  const matrixScale = 1 / Math.sqrt(d);
  for (let i = 0; i < layers; i++) {
    const p = `blk.${i}.`;
    tensors.push(
      onesF32(`${p}attn_norm.weight`, d),
      randomF16(`${p}attn_q.weight`, [d, heads * headDim], random, matrixScale),
      randomF16(`${p}attn_k.weight`, [d, kvHeads * headDim], random, matrixScale),
      randomF16(`${p}attn_v.weight`, [d, kvHeads * headDim], random, matrixScale),
      randomF16(`${p}attn_output.weight`, [heads * headDim, d], random, matrixScale),
      onesF32(`${p}attn_q_norm.weight`, headDim),
      onesF32(`${p}attn_k_norm.weight`, headDim),
      onesF32(`${p}ffn_norm.weight`, d),
      randomF16(`${p}ffn_gate.weight`, [d, ffn], random, matrixScale),
      randomF16(`${p}ffn_up.weight`, [d, ffn], random, matrixScale),
      randomF16(`${p}ffn_down.weight`, [ffn, d], random, 1 / Math.sqrt(ffn)),
    );
  }
  return tensors;
}

/**
 * Builds a tiny random-weight Qwen3-architecture GGUF with a real vocabulary (Qwen3's by default; gpt-oss, DeepSeek V3
 * or Llama 3.1 with `family`), its merges and a chat template, deterministically from `seed`. Its output is garbage,
 * but it tokenizes exactly like the family's model and runs in llama.cpp
 * at hundreds of tokens per second, which is what grammar and token-mask tests need. The file is written to a
 * temporary name and renamed, so concurrent builders never see a partial file.
 */
export async function buildTinyModel(options: BuildTinyModelOptions = {}): Promise<TinyModel> {
  const seed = options.seed ?? 0;
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new ToolgramError("INVALID_OPTION", `seed must be an integer in 0..4294967295, got ${seed}.`);
  }
  const familyName = options.family ?? "qwen3";
  const family = TINY_MODEL_FAMILIES[familyName];
  if (family === undefined) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `family must be one of ${Object.keys(TINY_MODEL_FAMILIES).join(", ")}, got ${JSON.stringify(familyName)}.`,
    );
  }
  const path = options.outPath ?? tinyModelPath(seed, familyName, options.chatTemplate);
  const files = await loadHfTokenizerPackage(family.tokenizerPackage);
  const { tokenizer, tokenizerJsonPath } = files;
  const chatTemplate = options.chatTemplate ?? files.chatTemplate;
  if (chatTemplate === undefined) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `${family.tokenizerPackage} has no chat template; pass chatTemplate (llama.cpp's models/templates/${family.llamaCppTemplate ?? "…"}).`,
    );
  }
  const { tokens, types } = ggufVocabulary(tokenizer, family.vocabularySize);
  const merges = tokenizer.model.merges.map((m) => (typeof m === "string" ? m : `${m[0]} ${m[1]}`));
  const u32 = (value: number): GgufValue => ({ type: "uint32", value });
  const f32 = (value: number): GgufValue => ({ type: "float32", value });
  const str = (value: string): GgufValue => ({ type: "string", value });
  const arch = "qwen3";
  const metadata: Array<readonly [string, GgufValue]> = [
    ["general.architecture", str(arch)],
    [
      "general.name",
      str(
        familyName === "qwen3"
          ? `toolgram tiny qwen3 (random weights, seed ${seed})`
          : `toolgram tiny ${familyName} vocabulary (qwen3 architecture, random weights, seed ${seed})`,
      ),
    ],
    ["general.file_type", u32(1)], // mostly F16
    [`${arch}.context_length`, u32(TINY_QWEN3.contextLength)],
    [`${arch}.embedding_length`, u32(TINY_QWEN3.embedding)],
    [`${arch}.block_count`, u32(TINY_QWEN3.layers)],
    [`${arch}.feed_forward_length`, u32(TINY_QWEN3.ffn)],
    [`${arch}.attention.head_count`, u32(TINY_QWEN3.heads)],
    [`${arch}.attention.head_count_kv`, u32(TINY_QWEN3.kvHeads)],
    [`${arch}.attention.key_length`, u32(TINY_QWEN3.headDim)],
    [`${arch}.attention.value_length`, u32(TINY_QWEN3.headDim)],
    [`${arch}.attention.layer_norm_rms_epsilon`, f32(1e-6)],
    [`${arch}.rope.freq_base`, f32(1_000_000)],
    ["tokenizer.ggml.model", str("gpt2")],
    ["tokenizer.ggml.pre", str(family.pre)],
    ["tokenizer.ggml.tokens", { type: "array", itemType: "string", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "array", itemType: "int32", value: types }],
    ["tokenizer.ggml.merges", { type: "array", itemType: "string", value: merges }],
    ["tokenizer.ggml.eos_token_id", u32(idOf(tokens, family.eosToken))],
    ...(family.padToken === undefined
      ? []
      : [["tokenizer.ggml.padding_token_id", u32(idOf(tokens, family.padToken))] as const]),
    ["tokenizer.ggml.bos_token_id", u32(idOf(tokens, family.bosToken))],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: family.addBos }],
    ["tokenizer.chat_template", str(chatTemplate)],
  ];
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.${Date.now()}.partial`;
  try {
    await writeGguf(partial, { metadata, tensors: tinyTensors(seed, family.vocabularySize) });
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  const bytes = await readFile(path);
  return {
    path,
    seed,
    family: familyName,
    sizeBytes: (await stat(path)).size,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    tokenizerJsonPath,
    chatTemplate,
  };
}
