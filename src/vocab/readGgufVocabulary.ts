import { closeSync, openSync, readSync } from "node:fs";
import { ToolgramError } from "../errors.js";
import { byteLevelDecodeTable, decodeByteLevelPiece, decodeSentencePiece } from "./byteLevel.js";
import { TOKEN_ATOM, TOKEN_NONE, TOKEN_TEXT, Vocabulary, type VocabularyOptions } from "./Vocabulary.js";

/** Buffered sequential reader over a file: GGUF metadata sits at the start of files that may be gigabytes long. */
class Reader {
  private buf = Buffer.alloc(1 << 20);
  private len = 0;
  private pos = 0;
  private filePos = 0;
  constructor(private readonly fd: number) {}
  private need(n: number): void {
    if (this.len - this.pos >= n) return;
    const rest = this.buf.subarray(this.pos, this.len);
    const nb = Buffer.alloc(Math.max(this.buf.length, n * 2));
    rest.copy(nb);
    this.buf = nb;
    this.len = rest.length;
    this.pos = 0;
    while (this.len < n) {
      const r = readSync(this.fd, this.buf, this.len, this.buf.length - this.len, this.filePos);
      if (r === 0) throw new ToolgramError("INVALID_VOCABULARY", "GGUF file ends inside its metadata");
      this.len += r;
      this.filePos += r;
    }
  }
  u8(): number { this.need(1); return this.buf[this.pos++]; }
  u32(): number { this.need(4); const v = this.buf.readUInt32LE(this.pos); this.pos += 4; return v; }
  i32(): number { this.need(4); const v = this.buf.readInt32LE(this.pos); this.pos += 4; return v; }
  u64(): number { this.need(8); const v = this.buf.readBigUInt64LE(this.pos); this.pos += 8; return Number(v); }
  bytes(n: number): Buffer { this.need(n); const v = Buffer.from(this.buf.subarray(this.pos, this.pos + n)); this.pos += n; return v; }
  str(): string { return this.bytes(this.u64()).toString("utf8"); }
  skip(n: number): void { this.need(n); this.pos += n; }
}

const SCALAR_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

function readValue(r: Reader, type: number): unknown {
  switch (type) {
    case 4: return r.u32();
    case 5: return r.i32();
    case 10: case 11: return r.u64();
    case 8: return r.str();
    case 9: {
      const t = r.u32();
      const n = r.u64();
      const out: unknown[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = readValue(r, t);
      return out;
    }
    default: {
      const s = SCALAR_SIZE[type];
      if (s === undefined) throw new ToolgramError("INVALID_VOCABULARY", `GGUF metadata has an unknown value type ${type}`);
      if (type === 0 || type === 7) return r.u8();
      r.skip(s);
      return undefined;
    }
  }
}

/** Reads `tokenizer.ggml.{model,tokens,token_type,eos_token_id}` from GGUF (v2/v3) metadata. */
export function readGgufVocabulary(path: string, opts?: Partial<VocabularyOptions>): Vocabulary {
  const fd = openSync(path, "r");
  try {
    const r = new Reader(fd);
    if (r.bytes(4).toString("latin1") !== "GGUF") throw new ToolgramError("INVALID_VOCABULARY", `${path} is not a GGUF file`);
    const version = r.u32();
    if (version < 2) throw new ToolgramError("INVALID_VOCABULARY", `GGUF version ${version} is not supported (need 2 or 3)`);
    r.u64(); // tensor count
    const kvCount = r.u64();
    const kv = new Map<string, unknown>();
    for (let i = 0; i < kvCount; i++) {
      const key = r.str();
      const type = r.u32();
      const wanted = key.startsWith("tokenizer.ggml.") && key !== "tokenizer.ggml.merges" && key !== "tokenizer.ggml.scores";
      if (wanted) kv.set(key, readValue(r, type));
      else readValue(r, type);
    }
    const tokens = kv.get("tokenizer.ggml.tokens");
    if (!Array.isArray(tokens)) throw new ToolgramError("INVALID_VOCABULARY", `${path} has no tokenizer.ggml.tokens`);
    const types = (kv.get("tokenizer.ggml.token_type") as number[] | undefined) ?? [];
    const byteLevel = kv.get("tokenizer.ggml.model") === "gpt2";
    const size = Math.max(opts?.size ?? 0, tokens.length);
    const eos = opts?.eosTokenIds ?? (typeof kv.get("tokenizer.ggml.eos_token_id") === "number" ? [kv.get("tokenizer.ggml.eos_token_id") as number] : []);
    const kind = new Uint8Array(size);
    const parts: (Uint8Array | undefined)[] = new Array(size);
    const atoms = new Map<number, string>();
    const table = byteLevelDecodeTable();
    const enc = new TextEncoder();
    tokens.forEach((piece: string, id: number) => {
      const t = types[id] ?? 1;
      if (t === 3 || t === 4) {
        kind[id] = TOKEN_ATOM;
        atoms.set(id, piece);
      } else if (t === 1 || t === 6) {
        const b = byteLevel ? decodeByteLevelPiece(piece, table) ?? enc.encode(piece) : decodeSentencePiece(piece);
        if (b.length > 0) {
          kind[id] = TOKEN_TEXT;
          parts[id] = b;
        }
      } else kind[id] = TOKEN_NONE; // unknown (2), unused (5)
    });
    return Vocabulary.fromParts(size, eos, kind, parts, atoms);
  } finally {
    closeSync(fd);
  }
}
