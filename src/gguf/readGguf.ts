import { open } from "node:fs/promises";
import { ToolgramError } from "../errors.js";
import { FileByteReader } from "./FileByteReader.js";
import {
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GgufValueType,
  type GgufScalar,
  type GgufScalarTypeName,
  type GgufValue,
} from "./ggufTypes.js";

/** One tensor's entry in the GGUF header (its data is not read). */
export interface GgufTensorInfo {
  /** The tensor's name (e.g. `token_embd.weight`). */
  readonly name: string;
  /** Its dimensions, `dims[0]` (ggml's ne0) the fastest-varying. */
  readonly dims: readonly number[];
  /** ggml_type code (0 = F32, 1 = F16, ...). */
  readonly type: number;
  /** Offset relative to `dataOffset`. */
  readonly offset: number;
}

/** Everything before the tensor data of a GGUF file. */
export interface GgufHeader {
  /** The container version: 2 or 3 (others are refused with INVALID_INPUT). */
  readonly version: number;
  /** The key/value metadata in file order (`general.architecture`, `tokenizer.ggml.tokens`…). */
  readonly metadata: ReadonlyMap<string, GgufValue>;
  /** The tensors' entries, in file order. */
  readonly tensors: readonly GgufTensorInfo[];
  /** Alignment of the tensor data in bytes: `general.alignment` when it is a uint32, else 32. */
  readonly alignment: number;
  /** File offset where tensor data begins. */
  readonly dataOffset: number;
}

const TYPE_NAMES = new Map<number, keyof typeof GgufValueType>(
  Object.entries(GgufValueType).map(([name, code]) => [code, name as keyof typeof GgufValueType]),
);

const FIXED_SIZE: Partial<Record<GgufScalarTypeName, number>> = {
  uint8: 1,
  int8: 1,
  bool: 1,
  uint16: 2,
  int16: 2,
  uint32: 4,
  int32: 4,
  float32: 4,
  uint64: 8,
  int64: 8,
  float64: 8,
};

/** Reads one fixed-size scalar, assuming its bytes are buffered. */
function fixedScalar(r: FileByteReader, type: Exclude<GgufScalarTypeName, "string">): GgufScalar {
  switch (type) {
    case "uint8":
      return r.u8();
    case "int8":
      return r.i8();
    case "uint16":
      return r.u16();
    case "int16":
      return r.i16();
    case "uint32":
      return r.u32();
    case "int32":
      return r.i32();
    case "float32":
      return r.f32();
    case "float64":
      return r.f64();
    case "bool":
      return r.u8() !== 0;
    case "uint64":
    case "int64": {
      const v = type === "uint64" ? r.u64() : r.i64();
      // Small 64-bit values come back as numbers, which is what callers compare against.
      return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
  }
}

async function readScalar(r: FileByteReader, type: GgufScalarTypeName, key: string): Promise<GgufScalar> {
  if (type === "string") return r.string(`string length in "${key}"`);
  const size = FIXED_SIZE[type] as number;
  if (r.available < size) await r.need(size);
  return fixedScalar(r, type);
}

function typeName(code: number, path: string, key: string): keyof typeof GgufValueType {
  const name = TYPE_NAMES.get(code);
  if (name === undefined)
    throw new ToolgramError("INVALID_INPUT", `${path}: metadata "${key}" has unknown value type ${code}.`);
  return name;
}

async function readValue(r: FileByteReader, path: string, key: string): Promise<GgufValue> {
  await r.need(4);
  const type = typeName(r.u32(), path, key);
  if (type !== "array") {
    const value = await readScalar(r, type, key);
    return { type, value } as GgufValue;
  }
  await r.need(12);
  const itemType = typeName(r.u32(), path, key);
  if (itemType === "array") {
    throw new ToolgramError(
      "INVALID_INPUT",
      `${path}: metadata "${key}" is an array of arrays, which is not supported.`,
    );
  }
  const length = r.count(`length of "${key}"`);
  const value: GgufScalar[] = new Array(length);
  if (itemType === "string") {
    for (let i = 0; i < length; i++) {
      // Await only when the buffer runs dry: most strings are already buffered.
      if (r.available < 8) await r.need(8);
      const size = r.count(`string length in "${key}"`);
      if (r.available < size) await r.need(size);
      value[i] = r.utf8(size);
    }
  } else {
    const size = FIXED_SIZE[itemType] as number;
    for (let i = 0; i < length; i++) {
      if (r.available < size) await r.need(size);
      value[i] = fixedScalar(r, itemType);
    }
  }
  return { type: "array", itemType, value };
}

/**
 * Reads a GGUF file's header, metadata and tensor infos through a file handle, never the tensor data, so it is cheap
 * even for a multi-gigabyte model.
 */
export async function readGguf(path: string): Promise<GgufHeader> {
  const handle = await open(path, "r");
  try {
    const r = new FileByteReader(handle, path);
    await r.need(24).catch(() => {
      throw new ToolgramError("INVALID_INPUT", `${path} is not a GGUF file (too short).`);
    });
    if (r.u32() !== GGUF_MAGIC) throw new ToolgramError("INVALID_INPUT", `${path} is not a GGUF file (bad magic).`);
    const version = r.u32();
    if (version !== 2 && version !== 3) {
      throw new ToolgramError("INVALID_INPUT", `${path} is GGUF version ${version}; only versions 2 and 3 are read.`);
    }
    const tensorCount = r.count("tensor count");
    const kvCount = r.count("metadata count");
    const metadata = new Map<string, GgufValue>();
    for (let i = 0; i < kvCount; i++) {
      const key = await r.string("key length");
      metadata.set(key, await readValue(r, path, key));
    }
    const tensors: GgufTensorInfo[] = [];
    for (let i = 0; i < tensorCount; i++) {
      const name = await r.string("tensor name length");
      await r.need(4);
      const nDims = r.u32();
      await r.need(8 * nDims + 12);
      const dims: number[] = [];
      for (let d = 0; d < nDims; d++) dims.push(r.count(`dimension of "${name}"`));
      const type = r.u32();
      const offset = r.count(`offset of "${name}"`);
      tensors.push({ name, dims, type, offset });
    }
    const alignmentValue = metadata.get("general.alignment");
    const alignment = alignmentValue?.type === "uint32" ? Number(alignmentValue.value) : GGUF_DEFAULT_ALIGNMENT;
    const dataOffset = Math.ceil(r.position / alignment) * alignment;
    return { version, metadata, tensors, alignment, dataOffset };
  } finally {
    await handle.close();
  }
}
