import { open } from "node:fs/promises";
import { ToolgramError } from "../errors.js";
import { ByteWriter } from "./ByteWriter.js";
import {
  GGML_TYPE_SIZE,
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_VERSION,
  GgmlType,
  GgufValueType,
  type GgufFile,
  type GgufScalar,
  type GgufScalarTypeName,
  type GgufValue,
} from "./ggufTypes.js";

function badScalar(type: GgufScalarTypeName, value: GgufScalar, key: string): never {
  throw new ToolgramError(
    "INVALID_INPUT",
    `GGUF metadata "${key}": ${String(value)} is not a valid ${type}; pass a value of that type.`,
  );
}

const INTEGER_RANGE: Partial<Record<GgufScalarTypeName, readonly [number, number]>> = {
  uint8: [0, 0xff],
  int8: [-0x80, 0x7f],
  uint16: [0, 0xffff],
  int16: [-0x8000, 0x7fff],
  uint32: [0, 0xffffffff],
  int32: [-0x80000000, 0x7fffffff],
};

function writeScalar(w: ByteWriter, type: GgufScalarTypeName, value: GgufScalar, key: string): void {
  if (type === "string") {
    if (typeof value !== "string") badScalar(type, value, key);
    w.string(value);
  } else if (type === "bool") {
    if (typeof value !== "boolean") badScalar(type, value, key);
    w.u8(value ? 1 : 0);
  } else if (type === "uint64" || type === "int64") {
    if (typeof value === "bigint" ? false : typeof value !== "number" || !Number.isSafeInteger(value))
      badScalar(type, value, key);
    if (type === "uint64") w.u64(value as number | bigint);
    else w.i64(value as number | bigint);
  } else if (typeof value !== "number") {
    badScalar(type, value, key);
  } else if (type === "float32") {
    w.f32(value);
  } else if (type === "float64") {
    w.f64(value);
  } else {
    const [min, max] = INTEGER_RANGE[type] as readonly [number, number];
    if (!Number.isInteger(value) || value < min || value > max) badScalar(type, value, key);
    if (type === "uint8") w.u8(value);
    else if (type === "int8") w.i8(value);
    else if (type === "uint16") w.u16(value);
    else if (type === "int16") w.i16(value);
    else if (type === "uint32") w.u32(value);
    else w.i32(value);
  }
}

function writeValue(w: ByteWriter, key: string, value: GgufValue): void {
  w.u32(GgufValueType[value.type]);
  if (value.type === "array") {
    w.u32(GgufValueType[value.itemType]);
    w.u64(value.value.length);
    for (const item of value.value) writeScalar(w, value.itemType, item, key);
  } else {
    writeScalar(w, value.type, value.value, key);
  }
}

function alignmentOf(file: GgufFile): number {
  const entry = file.metadata.find(([k]) => k === "general.alignment");
  if (entry === undefined) return GGUF_DEFAULT_ALIGNMENT;
  const v = entry[1];
  if (v.type !== "uint32" || typeof v.value !== "number" || v.value <= 0 || v.value % 8 !== 0) {
    throw new ToolgramError("INVALID_INPUT", 'GGUF metadata "general.alignment" must be a uint32 multiple of 8.');
  }
  return v.value;
}

/**
 * Encodes everything before the tensor data: header, metadata, tensor infos and the padding up to the data section.
 * Tensor offsets are relative to the data section and each is aligned.
 */
export function encodeGgufHead(file: GgufFile): Uint8Array {
  const alignment = alignmentOf(file);
  const seen = new Set<string>();
  const w = new ByteWriter();
  w.u32(GGUF_MAGIC);
  w.u32(GGUF_VERSION);
  w.u64(file.tensors.length);
  w.u64(file.metadata.length);
  for (const [key, value] of file.metadata) {
    if (seen.has(key)) throw new ToolgramError("INVALID_INPUT", `GGUF metadata key "${key}" appears twice; keep one.`);
    seen.add(key);
    w.string(key);
    writeValue(w, key, value);
  }
  const names = new Set<string>();
  let offset = 0;
  for (const t of file.tensors) {
    if (names.has(t.name)) throw new ToolgramError("INVALID_INPUT", `GGUF tensor "${t.name}" appears twice.`);
    names.add(t.name);
    const elements = t.dims.reduce((a, b) => a * b, 1);
    if (t.data.length !== elements * GGML_TYPE_SIZE[t.type]) {
      throw new ToolgramError(
        "INVALID_INPUT",
        `GGUF tensor "${t.name}" has ${t.data.length} bytes; dims [${t.dims.join(", ")}] of ${t.type} need ${elements * GGML_TYPE_SIZE[t.type]}.`,
      );
    }
    w.string(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(GgmlType[t.type]);
    w.u64(offset);
    offset += Math.ceil(t.data.length / alignment) * alignment;
  }
  w.padTo(alignment);
  return w.result();
}

/** Writes a GGUF v3 file, streaming tensor data so that only the head is built in memory. */
export async function writeGguf(path: string, file: GgufFile): Promise<void> {
  const alignment = alignmentOf(file);
  const head = encodeGgufHead(file);
  const handle = await open(path, "w");
  try {
    await handle.write(head);
    const zeros = new Uint8Array(alignment);
    for (const t of file.tensors) {
      await handle.write(t.data);
      const rem = t.data.length % alignment;
      if (rem !== 0) await handle.write(zeros.subarray(0, alignment - rem));
    }
  } finally {
    await handle.close();
  }
}
