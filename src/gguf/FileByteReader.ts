import type { FileHandle } from "node:fs/promises";
import { ToolgramError } from "../errors.js";

/**
 * Sequential little-endian reads from a file handle through a sliding buffer, so that a multi-gigabyte model's
 * metadata can be read without loading its tensor data.
 *
 * Reads are synchronous and assume the bytes are buffered: call `need(n)` first when `available < n`. A GGUF
 * vocabulary holds ~450k small items, and an await per item would cost seconds.
 */
export class FileByteReader {
  private buffer: Buffer;
  private start = 0; // file offset of buffer[0]
  private end = 0; // valid bytes in buffer
  private cursor = 0; // read position inside buffer
  private eof = false;

  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    chunkSize = 1 << 20,
  ) {
    this.buffer = Buffer.alloc(chunkSize);
  }

  /** The file offset of the next byte to read. */
  get position(): number {
    return this.start + this.cursor;
  }

  /** Bytes buffered and not yet read. */
  get available(): number {
    return this.end - this.cursor;
  }

  /** Buffers at least `n` more bytes, or throws if the file ends first. */
  async need(n: number): Promise<void> {
    if (this.end - this.cursor >= n) return;
    // Slide the unread tail to the front, growing the buffer if a single item is larger than it.
    const tail = this.end - this.cursor;
    if (n > this.buffer.length) {
      const bigger = Buffer.alloc(Math.max(n, this.buffer.length * 2));
      this.buffer.copy(bigger, 0, this.cursor, this.end);
      this.buffer = bigger;
    } else {
      this.buffer.copy(this.buffer, 0, this.cursor, this.end);
    }
    this.start += this.cursor;
    this.cursor = 0;
    this.end = tail;
    while (this.end < n && !this.eof) {
      const { bytesRead } = await this.handle.read(
        this.buffer,
        this.end,
        this.buffer.length - this.end,
        this.start + this.end,
      );
      if (bytesRead === 0) this.eof = true;
      this.end += bytesRead;
    }
    if (this.end < n) {
      throw new ToolgramError(
        "INVALID_INPUT",
        `${this.path} ends early at byte ${this.start + this.end}: not a complete GGUF file.`,
      );
    }
  }

  u8(): number {
    return this.buffer.readUInt8(this.cursor++);
  }
  i8(): number {
    return this.buffer.readInt8(this.cursor++);
  }
  u16(): number {
    const v = this.buffer.readUInt16LE(this.cursor);
    this.cursor += 2;
    return v;
  }
  i16(): number {
    const v = this.buffer.readInt16LE(this.cursor);
    this.cursor += 2;
    return v;
  }
  u32(): number {
    const v = this.buffer.readUInt32LE(this.cursor);
    this.cursor += 4;
    return v;
  }
  i32(): number {
    const v = this.buffer.readInt32LE(this.cursor);
    this.cursor += 4;
    return v;
  }
  f32(): number {
    const v = this.buffer.readFloatLE(this.cursor);
    this.cursor += 4;
    return v;
  }
  f64(): number {
    const v = this.buffer.readDoubleLE(this.cursor);
    this.cursor += 8;
    return v;
  }
  u64(): bigint {
    const v = this.buffer.readBigUInt64LE(this.cursor);
    this.cursor += 8;
    return v;
  }
  i64(): bigint {
    const v = this.buffer.readBigInt64LE(this.cursor);
    this.cursor += 8;
    return v;
  }
  /** A uint64 that must fit in a JS number (counts, lengths). */
  count(what: string): number {
    // Two 32-bit halves rather than a BigInt: this runs once per vocabulary string.
    const low = this.buffer.readUInt32LE(this.cursor);
    const high = this.buffer.readUInt32LE(this.cursor + 4);
    this.cursor += 8;
    if (high > 0x1fffff) {
      throw new ToolgramError("INVALID_INPUT", `${this.path}: ${what} is too large; the file is probably corrupt.`);
    }
    return high * 0x1_0000_0000 + low;
  }
  /** `length` UTF-8 bytes as a string. */
  utf8(length: number): string {
    // Buffer#toString is several times faster than TextDecoder on the short strings of a vocabulary.
    const s = this.buffer.toString("utf8", this.cursor, this.cursor + length);
    this.cursor += length;
    return s;
  }

  /** Reads a GGUF string (uint64 length, then bytes), buffering as needed. */
  async string(what: string): Promise<string> {
    if (this.available < 8) await this.need(8);
    const length = this.count(what);
    if (this.available < length) await this.need(length);
    return this.utf8(length);
  }
}
