/** A growable little-endian byte buffer for encoding GGUF headers and metadata. */
export class ByteWriter {
  private buffer: Buffer = Buffer.alloc(1 << 16);
  private view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
  private length = 0;

  get size(): number {
    return this.length;
  }

  private reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const next = Buffer.alloc(capacity);
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }

  u8(v: number): void {
    this.reserve(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
  }
  i8(v: number): void {
    this.reserve(1);
    this.view.setInt8(this.length, v);
    this.length += 1;
  }
  u16(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
  }
  i16(v: number): void {
    this.reserve(2);
    this.view.setInt16(this.length, v, true);
    this.length += 2;
  }
  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  i32(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }
  f32(v: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }
  f64(v: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }
  u64(v: number | bigint): void {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt(v), true);
    this.length += 8;
  }
  i64(v: number | bigint): void {
    this.reserve(8);
    this.view.setBigInt64(this.length, BigInt(v), true);
    this.length += 8;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
  }
  /** A GGUF string: uint64 byte length, then UTF-8 bytes (no terminator). */
  string(s: string): void {
    // Encode in place (UTF-8 needs at most 3 bytes per UTF-16 unit): a vocabulary has ~300k strings to write.
    this.reserve(8 + 3 * s.length);
    const written = this.buffer.write(s, this.length + 8, "utf8");
    this.view.setBigUint64(this.length, BigInt(written), true);
    this.length += 8 + written;
  }
  /** Zero bytes up to the next multiple of `alignment`. */
  padTo(alignment: number): void {
    const rem = this.length % alignment;
    if (rem !== 0) {
      const pad = alignment - rem;
      this.reserve(pad);
      this.buffer.fill(0, this.length, this.length + pad);
      this.length += pad;
    }
  }
  /** The bytes written so far (a view, not a copy). */
  result(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}
