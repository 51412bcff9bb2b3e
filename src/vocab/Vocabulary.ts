import { ToolgramError } from "../errors.js";
import type { GgufTokenizer } from "../gguf/ggufTokenizer.js";
import { looksLikeControlToken } from "../gguf/tinyModelFamilies.js";
import { byteLevelDecodeTable, decodeByteLevelPiece, decodeSentencePiece } from "./byteLevel.js";
import { buildTokenTrie, type TokenTrie } from "./TokenTrie.js";

/** One vocabulary entry for {@link Vocabulary.fromPieces}: a text piece, raw bytes, or either with a `special` flag. */
export type PieceInput = string | Uint8Array | { bytes?: Uint8Array; text?: string; special?: boolean } | null;

/** Options of the {@link Vocabulary} constructors: the vocabulary size and the end-of-generation token ids. */
export interface VocabularyOptions {
  /** Ids of end-of-generation tokens: allowed exactly when the output is a complete match. */
  eosTokenIds: readonly number[];
  /** Number of logits (≥ the number of entries); ids past the last entry are padding, never allowed. */
  size?: number;
}

/** Kinds of token ids. */
export const TOKEN_NONE = 0; // padding, unused, unknown: never allowed
export const TOKEN_TEXT = 1; // ordinary token: its bytes
export const TOKEN_ATOM = 2; // special or added token: allowed only where the grammar has a `token` node with its text

const utf8 = new TextEncoder();

/**
 * A model's vocabulary seen as bytes: each ordinary token is a byte string; special and added tokens are atoms
 * (their text is not their bytes); EOS ids end the output. Built once and shared by every matcher.
 */
export class Vocabulary {
  /** Number of logits (mask bits). */
  readonly size: number;
  /** End-of-generation token ids: allowed exactly where the output is a complete match (never as text or atoms). */
  readonly eosTokenIds: readonly number[];
  /** TOKEN_NONE / TOKEN_TEXT / TOKEN_ATOM per id. */
  readonly kind: Uint8Array;
  /** Bytes of ordinary token i are bytes[offsets[i] .. offsets[i+1]). */
  readonly bytes: Uint8Array;
  /** Where each id's bytes start in `bytes`, `size + 1` entries (the last ends the buffer); see `bytes`. */
  readonly offsets: Int32Array;
  /** Atom id → its text (e.g. 151657 → "<tool_call>"). */
  readonly atoms: ReadonlyMap<number, string>;
  /**
   * The model's own chat template (Jinja source), when the source carries one: `fromGgufTokenizer` (and so
   * `vocabularyFromGguf` in `toolgram/node`) sets it from the GGUF's `tokenizer.chat_template`; `fromTokenizerJson` and `fromPieces` leave it undefined
   * (a Hugging Face model keeps its template in `tokenizer_config.json`, not in `tokenizer.json`).
   */
  readonly chatTemplate: string | undefined;
  private trieCache: TokenTrie | undefined;

  private constructor(
    size: number,
    eos: readonly number[],
    kind: Uint8Array,
    bytes: Uint8Array,
    offsets: Int32Array,
    atoms: Map<number, string>,
    chatTemplate?: string,
  ) {
    this.chatTemplate = chatTemplate;
    this.size = size;
    this.eosTokenIds = eos;
    this.kind = kind;
    this.bytes = bytes;
    this.offsets = offsets;
    this.atoms = atoms;
    for (const e of eos) {
      if (!Number.isInteger(e) || e < 0 || e >= size)
        throw new ToolgramError("INVALID_VOCABULARY", `EOS token id ${e} is outside the vocabulary (size ${size})`);
      // an EOS id is never an ordinary token or an atom of the grammar: it only ends the output
      kind[e] = TOKEN_NONE;
    }
  }

  /**
   * The byte trie of the ordinary tokens (built on first use). Internal: the matchers' walk reads it; its layout is
   * not part of the API.
   * @internal
   */
  get trie(): TokenTrie {
    if (!this.trieCache) {
      const ids: number[] = [];
      for (let i = 0; i < this.size; i++) if (this.kind[i] === TOKEN_TEXT) ids.push(i);
      this.trieCache = buildTokenTrie(this.bytes, this.offsets, ids);
    }
    return this.trieCache;
  }

  /** The bytes of an ordinary token (empty for atoms and padding). */
  tokenBytes(id: number): Uint8Array {
    return this.bytes.subarray(this.offsets[id], this.offsets[id + 1]);
  }

  /**
   * Build from pieces indexed by id. Strings are taken as UTF-8 text; `special: true` makes an atom; null is unused.
   */
  static fromPieces(pieces: readonly PieceInput[], opts: VocabularyOptions): Vocabulary {
    const size = opts.size ?? pieces.length;
    if (size < pieces.length)
      throw new ToolgramError("INVALID_VOCABULARY", `size ${size} is smaller than the ${pieces.length} pieces given`);
    const kind = new Uint8Array(size);
    const atoms = new Map<number, string>();
    const parts: (Uint8Array | undefined)[] = new Array(size);
    let total = 0;
    pieces.forEach((p, id) => {
      if (p == null) return;
      let b: Uint8Array | undefined;
      if (typeof p === "string") b = utf8.encode(p);
      else if (p instanceof Uint8Array) b = p;
      else if (p.special) {
        atoms.set(id, p.text ?? new TextDecoder().decode(p.bytes ?? new Uint8Array()));
        kind[id] = TOKEN_ATOM;
        return;
      } else b = p.bytes ?? (p.text !== undefined ? utf8.encode(p.text) : undefined);
      if (!b || b.length === 0) return; // an empty token would be allowed everywhere and advance nothing
      parts[id] = b;
      kind[id] = TOKEN_TEXT;
      total += b.length;
    });
    return Vocabulary.pack(size, opts.eosTokenIds, kind, parts, total, atoms);
  }

  private static pack(
    size: number,
    eos: readonly number[],
    kind: Uint8Array,
    parts: (Uint8Array | undefined)[],
    total: number,
    atoms: Map<number, string>,
    chatTemplate?: string,
  ): Vocabulary {
    const bytes = new Uint8Array(total);
    const offsets = new Int32Array(size + 1);
    let o = 0;
    for (let i = 0; i < size; i++) {
      offsets[i] = o;
      const b = parts[i];
      if (b && kind[i] === TOKEN_TEXT) {
        bytes.set(b, o);
        o += b.length;
      }
    }
    offsets[size] = o;
    return new Vocabulary(size, eos, kind, bytes, offsets, atoms, chatTemplate);
  }

  /**
   * Build from a parsed Hugging Face `tokenizer.json` (to read one from a file, `vocabularyFromTokenizerFile` in
   * `toolgram/node`). Byte-level BPE (GPT-2 alphabet) and
   * SentencePiece-style vocabularies (`▁`, `<0xAB>` byte fallback) are detected from the model, decoder and
   * pre-tokenizer. An entry of `added_tokens` is an atom, unless it is a non-special, non-control-shaped piece of
   * the model's own vocabulary at the same id (SentencePiece user-defined pieces: Gemma 3's whitespace runs), which
   * is text.
   */
  static fromTokenizerJson(json: unknown, opts: VocabularyOptions): Vocabulary {
    if (typeof json === "string")
      throw new ToolgramError(
        "INVALID_VOCABULARY",
        "fromTokenizerJson takes the parsed tokenizer.json; to read it from a file, use vocabularyFromTokenizerFile(path, options) from toolgram/node",
      );
    const tj = json as TokenizerJson;
    const model = tj?.model;
    if (!model || typeof model !== "object")
      throw new ToolgramError(
        "INVALID_VOCABULARY",
        "tokenizer.json has no `model`; pass the parsed tokenizer.json of a Hugging Face tokenizer",
      );
    // pieces by id, read straight from the map (no [piece, id] pairs: 150k small arrays are slow to allocate)
    const byId: string[] = [];
    if (Array.isArray(model.vocab)) {
      // Unigram: [[piece, score], ...] indexed by id
      (model.vocab as [string, number][]).forEach(([piece], id) => (byId[id] = piece));
    } else if (model.vocab && typeof model.vocab === "object") {
      const v = model.vocab as Record<string, number>;
      for (const piece in v) byId[v[piece]] = piece;
    } else {
      throw new ToolgramError("INVALID_VOCABULARY", "tokenizer.json `model.vocab` is neither a map nor a list");
    }
    const added = Array.isArray(tj.added_tokens) ? tj.added_tokens : [];
    let last = byId.length - 1;
    for (const a of added) if (a.id > last) last = a.id;
    const size = opts.size ?? last + 1;
    if (size <= last)
      throw new ToolgramError("INVALID_VOCABULARY", `size ${size} is smaller than the largest token id ${last} + 1`);
    const byteLevel = isByteLevel(tj);
    const kind = new Uint8Array(size);
    const pieceOf: (string | undefined)[] = byId;
    pieceOf.length = size;
    const atoms = new Map<number, string>();
    const userText = new Uint8Array(size);
    for (const a of added) {
      // A SentencePiece "user-defined" piece (Gemma 3's runs of `\n`, `\t` and `▁`, its HTML tags) is listed among the
      // added tokens so that the tokenizer keeps it whole, yet it is the model's own piece at that id, not special, and
      // the tokenizer makes it from plain text and decodes it as text: it stays ordinary text, or a grammar writing a
      // newline would refuse the very token the model writes for it. Markers added beside the model's pieces (Qwen3's
      // `<tool_call>`, outside `model.vocab`) and control-shaped ones (`<unused0>`, `<mask>`) stay atoms.
      if (!a.special && byId[a.id] === a.content && !looksLikeControlToken(a.content, false)) {
        userText[a.id] = 1;
        continue;
      }
      pieceOf[a.id] = undefined;
      kind[a.id] = TOKEN_ATOM;
      atoms.set(a.id, a.content);
    }
    if (!byteLevel) {
      // SentencePiece control pieces such as <s>, </s>, <unk> that are not listed as added tokens (a user-defined
      // piece the tokenizer lists, such as Gemma 3's `<table>`, is its text)
      for (let id = 0; id < size; id++) {
        const piece = pieceOf[id];
        if (piece !== undefined && userText[id] === 0 && /^<\/?[a-z|_]+>$/.test(piece)) {
          pieceOf[id] = undefined;
          kind[id] = TOKEN_ATOM;
          atoms.set(id, piece);
        }
      }
    }
    // Write every piece's bytes straight into one buffer (no per-token allocation: 150k small arrays cost more than
    // the decoding itself).
    let cap = 0;
    for (let id = 0; id < size; id++) if (pieceOf[id] !== undefined) cap += pieceOf[id]!.length * 3;
    const bytes = new Uint8Array(cap);
    const offsets = new Int32Array(size + 1);
    const table = byteLevelDecodeTable();
    let o = 0;
    for (let id = 0; id < size; id++) {
      offsets[id] = o;
      const piece = pieceOf[id];
      if (piece === undefined) continue;
      const start = o;
      if (byteLevel) {
        let ok = true;
        for (let i = 0; i < piece.length; i++) {
          const c = piece.charCodeAt(i);
          const b = c < 0x200 ? table[c] : -1;
          if (b < 0) {
            ok = false;
            break;
          }
          bytes[o++] = b;
        }
        if (!ok) o = start + utf8.encodeInto(piece, bytes.subarray(start)).written;
      } else {
        const b = decodeSentencePiece(piece);
        bytes.set(b, o);
        o += b.length;
      }
      if (o > start) kind[id] = TOKEN_TEXT;
    }
    offsets[size] = o;
    return new Vocabulary(size, opts.eosTokenIds, kind, bytes.slice(0, o), offsets, atoms);
  }

  /**
   * Build from a GGUF's embedded tokenizer (`ggufTokenizer(await readGguf(path))`). Control and user-defined tokens
   * (types 3, 4) are atoms, except user-defined runs of whitespace (Gemma 3's `\n\n`, `\t\t`, `  `), which are text; normal and byte tokens (1, 6) are their bytes (GPT-2 byte alphabet for model "gpt2",
   * SentencePiece `▁`/`<0xAB>` otherwise); unknown and unused tokens (2, 5) are never allowed.
   */
  static fromGgufTokenizer(tokenizer: GgufTokenizer, opts?: Partial<VocabularyOptions>): Vocabulary {
    const { tokens, tokenTypes } = tokenizer;
    const byteLevel = tokenizer.model === "gpt2";
    const size = Math.max(opts?.size ?? 0, tokens.length);
    const eos = opts?.eosTokenIds ?? (tokenizer.eosTokenId !== undefined ? [tokenizer.eosTokenId] : []);
    const kind = new Uint8Array(size);
    const parts: (Uint8Array | undefined)[] = new Array(size);
    const atoms = new Map<number, string>();
    const table = byteLevelDecodeTable();
    let total = 0;
    tokens.forEach((piece, id) => {
      const t = tokenTypes[id] ?? 1;
      if (t === 4 && WHITESPACE_RUN.test(piece)) {
        // llama.cpp's converter makes Gemma 3's runs of newlines, tabs and spaces user-defined (with ▁ written as a
        // space): they are text the tokenizer makes from plain text, and no format's marker is whitespace alone
        const b = utf8.encode(piece.replace(/\u2581/g, " "));
        kind[id] = TOKEN_TEXT;
        parts[id] = b;
        total += b.length;
      } else if (t === 3 || t === 4) {
        kind[id] = TOKEN_ATOM;
        atoms.set(id, piece);
      } else if (t === 1 || t === 6) {
        const b = byteLevel ? (decodeByteLevelPiece(piece, table) ?? utf8.encode(piece)) : decodeSentencePiece(piece);
        if (b.length > 0) {
          kind[id] = TOKEN_TEXT;
          parts[id] = b;
          total += b.length;
        }
      } // unknown (2), unused (5) and undefined (0) stay TOKEN_NONE
    });
    return Vocabulary.pack(size, eos, kind, parts, total, atoms, tokenizer.chatTemplate);
  }
}

/** A token of whitespace alone (`▁` standing for a space, as in SentencePiece pieces). */
const WHITESPACE_RUN = /^[\s\u2581]+$/u;

interface TokenizerJson {
  model?: { type?: string; vocab?: unknown; byte_fallback?: boolean };
  added_tokens?: { id: number; content: string; special?: boolean }[];
  decoder?: unknown;
  pre_tokenizer?: unknown;
}

function mentionsType(node: unknown, type: string): boolean {
  if (!node || typeof node !== "object") return false;
  if ((node as { type?: unknown }).type === type) return true;
  return Object.values(node as Record<string, unknown>).some((v) =>
    Array.isArray(v) ? v.some((x) => mentionsType(x, type)) : mentionsType(v, type),
  );
}

function isByteLevel(tj: TokenizerJson): boolean {
  if (mentionsType(tj.decoder, "ByteLevel") || mentionsType(tj.pre_tokenizer, "ByteLevel")) return true;
  if (
    tj.model?.byte_fallback ||
    mentionsType(tj.decoder, "ByteFallback") ||
    mentionsType(tj.pre_tokenizer, "Metaspace")
  )
    return false;
  return false;
}
