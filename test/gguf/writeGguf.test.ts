import { mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolgramError } from "../../src/errors.js";
import { float16Bits, float16Value } from "../../src/gguf/float16.js";
import type { GgufFile, GgufValue } from "../../src/gguf/ggufTypes.js";
import { readGguf } from "../../src/gguf/readGguf.js";
import { encodeGgufHead, writeGguf } from "../../src/gguf/writeGguf.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolgram-gguf-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const metadata: Array<readonly [string, GgufValue]> = [
  ["general.architecture", { type: "string", value: "test" }],
  ["u8", { type: "uint8", value: 255 }],
  ["i8", { type: "int8", value: -128 }],
  ["u16", { type: "uint16", value: 65535 }],
  ["i16", { type: "int16", value: -32768 }],
  ["u32", { type: "uint32", value: 4294967295 }],
  ["i32", { type: "int32", value: -2147483648 }],
  ["f32", { type: "float32", value: 0.5 }],
  ["f64", { type: "float64", value: Math.PI }],
  ["u64.small", { type: "uint64", value: 42 }],
  ["u64.big", { type: "uint64", value: 2n ** 63n + 5n }],
  ["i64", { type: "int64", value: -(2n ** 62n) }],
  ["flag", { type: "bool", value: true }],
  ["unicode", { type: "string", value: "ĠĊ 日本 🙂" }],
  ["strings", { type: "array", itemType: "string", value: ["a", "", "Ġb c", "<tool_call>"] }],
  ["ints", { type: "array", itemType: "int32", value: [1, -2, 3] }],
  ["empty", { type: "array", itemType: "uint32", value: [] }],
];

function f32Bytes(values: number[]): Uint8Array {
  return new Uint8Array(new Float32Array(values).buffer);
}

const file: GgufFile = {
  metadata,
  tensors: [
    // 3 floats = 12 bytes: the next tensor must start at the next multiple of 32.
    { name: "a", dims: [3], type: "F32", data: f32Bytes([1, 2, 3]) },
    { name: "b", dims: [2, 2], type: "F16", data: new Uint8Array(new Uint16Array([0x3c00, 0x4000, 0xc000, 0]).buffer) },
  ],
};

describe("writeGguf / readGguf", () => {
  it("round-trips every metadata type and tensor infos", async () => {
    const path = join(dir, "all.gguf");
    await writeGguf(path, file);
    const header = await readGguf(path);
    expect(header.version).toBe(3);
    expect([...header.metadata.keys()]).toEqual(metadata.map(([k]) => k));
    for (const [key, value] of metadata) {
      const got = header.metadata.get(key);
      if (value.type === "float32") expect(got).toEqual({ type: "float32", value: Math.fround(value.value as number) });
      else expect(got, key).toEqual(value);
    }
    expect(header.tensors).toEqual([
      { name: "a", dims: [3], type: 0, offset: 0 },
      { name: "b", dims: [2, 2], type: 1, offset: 32 },
    ]);
    expect(header.alignment).toBe(32);
    expect(header.dataOffset % 32).toBe(0);
    expect(header.dataOffset).toBe(encodeGgufHead(file).length);
    const bytes = await readFile(path);
    expect(bytes.length).toBe(header.dataOffset + 64);
    expect(
      new Float32Array(
        bytes.buffer.slice(bytes.byteOffset + header.dataOffset, bytes.byteOffset + header.dataOffset + 12),
      ),
    ).toEqual(new Float32Array([1, 2, 3]));
    const b = bytes.subarray(header.dataOffset + 32, header.dataOffset + 40);
    expect([...new Uint16Array(b.buffer.slice(b.byteOffset, b.byteOffset + 8))]).toEqual([0x3c00, 0x4000, 0xc000, 0]);
  });

  it("starts with the GGUF magic and version 3", () => {
    const head = encodeGgufHead(file);
    expect(Buffer.from(head.subarray(0, 4)).toString("latin1")).toBe("GGUF");
    expect(new DataView(head.buffer, head.byteOffset).getUint32(4, true)).toBe(3);
  });

  it("honours general.alignment", async () => {
    const path = join(dir, "aligned.gguf");
    await writeGguf(path, { ...file, metadata: [...metadata, ["general.alignment", { type: "uint32", value: 64 }]] });
    const header = await readGguf(path);
    expect(header.alignment).toBe(64);
    expect(header.dataOffset % 64).toBe(0);
    expect(header.tensors[1].offset).toBe(64);
  });

  it("reads metadata larger than its read buffer (streamed, not whole-file)", async () => {
    const many = Array.from({ length: 200_000 }, (_, i) => `token-${i}-${"x".repeat(i % 13)}`);
    const path = join(dir, "big.gguf");
    await writeGguf(path, { metadata: [["tokens", { type: "array", itemType: "string", value: many }]], tensors: [] });
    const header = await readGguf(path);
    const got = header.metadata.get("tokens");
    expect(got?.type === "array" && got.itemType === "string").toBe(true);
    const values = (got?.value ?? []) as string[];
    expect(values.length).toBe(many.length);
    expect(values.findIndex((v, i) => v !== many[i])).toBe(-1);
  });

  it("refuses bad input with ToolgramError", async () => {
    expect(() => encodeGgufHead({ metadata: [["x", { type: "uint8", value: 256 }]], tensors: [] })).toThrow(
      ToolgramError,
    );
    expect(() => encodeGgufHead({ metadata: [["x", { type: "int32", value: 1.5 }]], tensors: [] })).toThrow(
      ToolgramError,
    );
    expect(() =>
      encodeGgufHead({
        metadata: [
          ["x", { type: "bool", value: true }],
          ["x", { type: "bool", value: false }],
        ],
        tensors: [],
      }),
    ).toThrow(/twice/);
    expect(() =>
      encodeGgufHead({ metadata: [], tensors: [{ name: "t", dims: [4], type: "F32", data: new Uint8Array(8) }] }),
    ).toThrow(/need 16/);
    const notGguf = join(dir, "not.gguf");
    await writeFile(notGguf, "hello world, not a model");
    await expect(readGguf(notGguf)).rejects.toThrow(/bad magic/);
    const cut = join(dir, "cut.gguf");
    await writeGguf(cut, file);
    await truncate(cut, 100);
    await expect(readGguf(cut)).rejects.toThrow(/ends early/);
  });
});

describe("float16", () => {
  it("encodes known values exactly and rounds to nearest even", () => {
    const cases: Array<[number, number]> = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3c00],
      [-2, 0xc000],
      [65504, 0x7bff],
      [65520, 0x7c00], // rounds up to infinity
      [Infinity, 0x7c00],
      [2 ** -24, 0x0001], // smallest subnormal
      [2 ** -25, 0x0000], // halfway to zero: ties to even
      [1 + 2 ** -11, 0x3c00], // halfway between 1 and the next half: ties to even
      [1 + 3 * 2 ** -11, 0x3c02],
      [0.1, 0x2e66],
    ];
    for (const [value, bits] of cases) expect(float16Bits(value), String(value)).toBe(bits);
    expect(Number.isNaN(float16Value(float16Bits(NaN)))).toBe(true);
  });

  it("round-trips every finite half value", () => {
    const mismatches: number[] = [];
    for (let bits = 0; bits < 0x10000; bits++) {
      const exp = (bits >>> 10) & 0x1f;
      if (exp !== 0x1f && float16Bits(float16Value(bits)) !== bits) mismatches.push(bits);
    }
    expect(mismatches).toEqual([]);
  });
});
