/**
 * The GGUF v3 container format (ggml's `docs/gguf.md`): a header, typed key/value metadata, tensor infos, then
 * tensor data aligned to `general.alignment` (32 by default). All integers are little-endian.
 */

/** "GGUF" read as a little-endian uint32. */
export const GGUF_MAGIC = 0x46554747;
export const GGUF_VERSION = 3;
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** Metadata value types, with their numeric codes from `gguf.md`. */
export const GgufValueType = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
} as const satisfies Record<GgufScalarTypeName | "array", number>;

/**
 * The type names of GGUF scalars (every value type but `array`). Exported from `toolgram/llama-cpp`, with
 * {@link GgufValue}; spelled out rather than derived from `GgufValueType` (whose `satisfies` keeps the two equal),
 * so the public type names no internal table.
 */
export type GgufScalarTypeName =
  | "uint8"
  | "int8"
  | "uint16"
  | "int16"
  | "uint32"
  | "int32"
  | "float32"
  | "bool"
  | "string"
  | "uint64"
  | "int64"
  | "float64";
/** GGUF number type names (`uint8` … `float64`). Exported from `toolgram/llama-cpp`, with {@link GgufValue}. */
export type GgufNumericTypeName = Exclude<GgufScalarTypeName, "bool" | "string">;

/**
 * A scalar as stored in JS: 64-bit integers may be bigint to keep their full range. Exported from
 * `toolgram/llama-cpp`, with {@link GgufValue}.
 */
export type GgufScalar = number | bigint | boolean | string;

/** One typed metadata value. Arrays are homogeneous (arrays of arrays are not needed here and not supported). */
export type GgufValue =
  | { readonly type: GgufNumericTypeName; readonly value: number | bigint }
  | { readonly type: "bool"; readonly value: boolean }
  | { readonly type: "string"; readonly value: string }
  | { readonly type: "array"; readonly itemType: GgufScalarTypeName; readonly value: readonly GgufScalar[] };

/** Tensor element types toolgram writes (ggml's `ggml_type` codes). */
export const GgmlType = { F32: 0, F16: 1 } as const;
export type GgmlTypeName = keyof typeof GgmlType;

/** Bytes per element of each supported ggml type. */
export const GGML_TYPE_SIZE: Record<GgmlTypeName, number> = { F32: 4, F16: 2 };

/** A tensor to write: `dims[0]` (ggml's ne0) is the row length, i.e. the fastest-varying dimension. */
export interface GgufTensor {
  readonly name: string;
  readonly dims: readonly number[];
  readonly type: GgmlTypeName;
  /** Raw little-endian element bytes: product(dims) × element size. */
  readonly data: Uint8Array;
}

export interface GgufFile {
  /** Written in this order; keys must be unique. */
  readonly metadata: ReadonlyArray<readonly [string, GgufValue]>;
  readonly tensors: readonly GgufTensor[];
}
