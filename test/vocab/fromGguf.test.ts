import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOKEN_ATOM, TOKEN_NONE, TOKEN_TEXT, Vocabulary } from "../../src/vocab/Vocabulary.js";
import { vocabularyFromGguf } from "../../src/node.js";

/** A GGUF v3 file with only metadata (no tensors): enough for the tokenizer reader. */
function gguf(kv: [string, number, (b: Buf) => void][]): Buffer {
  const b = new Buf();
  b.raw(Buffer.from("GGUF", "latin1"));
  b.u32(3);
  b.u64(0);
  b.u64(kv.length);
  for (const [k, type, write] of kv) {
    b.str(k);
    b.u32(type);
    write(b);
  }
  return b.done();
}
class Buf {
  parts: Buffer[] = [];
  raw(x: Buffer): void {
    this.parts.push(x);
  }
  u32(v: number): void {
    const x = Buffer.alloc(4);
    x.writeUInt32LE(v);
    this.parts.push(x);
  }
  u64(v: number): void {
    const x = Buffer.alloc(8);
    x.writeBigUInt64LE(BigInt(v));
    this.parts.push(x);
  }
  f32(v: number): void {
    const x = Buffer.alloc(4);
    x.writeFloatLE(v);
    this.parts.push(x);
  }
  str(s: string): void {
    const x = Buffer.from(s, "utf8");
    this.u64(x.length);
    this.parts.push(x);
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

describe("vocabularyFromGguf", () => {
  it("reads tokens, token types, the EOS id and the chat template", async () => {
    const tokens = ["a", "Ġb", "Ċ", "<|im_end|>", "<tool_call>", "[PAD0]"];
    const types = [1, 1, 1, 3, 4, 5];
    const file = gguf([
      ["general.architecture", 8, (b) => b.str("qwen3")],
      ["qwen3.embedding_length", 4, (b) => b.u32(64)],
      ["tokenizer.ggml.model", 8, (b) => b.str("gpt2")],
      [
        "tokenizer.ggml.tokens",
        9,
        (b) => {
          b.u32(8);
          b.u64(tokens.length);
          tokens.forEach((t) => b.str(t));
        },
      ],
      [
        "tokenizer.ggml.scores",
        9,
        (b) => {
          b.u32(6);
          b.u64(tokens.length);
          tokens.forEach(() => b.f32(0));
        },
      ],
      [
        "tokenizer.ggml.token_type",
        9,
        (b) => {
          b.u32(5);
          b.u64(types.length);
          types.forEach((t) => b.u32(t));
        },
      ],
      [
        "tokenizer.ggml.merges",
        9,
        (b) => {
          b.u32(8);
          b.u64(1);
          b.str("Ġ b");
        },
      ],
      ["tokenizer.ggml.eos_token_id", 4, (b) => b.u32(3)],
      ["tokenizer.chat_template", 8, (b) => b.str("{{ messages }}")],
    ]);
    const dir = mkdtempSync(join(tmpdir(), "toolgram-gguf-"));
    try {
      const path = join(dir, "tiny.gguf");
      writeFileSync(path, file);
      const v = await vocabularyFromGguf(path);
      expect(v.size).toBe(6);
      expect(v.eosTokenIds).toEqual([3]);
      expect(new TextDecoder().decode(v.tokenBytes(1))).toBe(" b");
      expect([...v.tokenBytes(2)]).toEqual([10]);
      expect(v.kind[0]).toBe(TOKEN_TEXT);
      expect(v.kind[4]).toBe(TOKEN_ATOM);
      expect(v.atoms.get(4)).toBe("<tool_call>");
      expect(v.kind[5]).toBe(TOKEN_NONE);
      expect(v.chatTemplate).toBe("{{ messages }}");
      expect(Vocabulary.fromPieces(["a"], { eosTokenIds: [] }).chatTemplate).toBeUndefined();
      await expect(vocabularyFromGguf(join(dir, "missing.gguf"))).rejects.toThrow();
      writeFileSync(join(dir, "bad.gguf"), "nope");
      await expect(vocabularyFromGguf(join(dir, "bad.gguf"))).rejects.toThrow(/GGUF/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads user-defined runs of whitespace as text, other user-defined tokens as atoms (Gemma 3's GGUF)", () => {
    // as llama.cpp's converter writes Gemma 3's SentencePiece vocabulary: its added runs of \n, \t and ▁ user-defined,
    // ▁ written as a space; <table> user-defined too; <start_of_turn> control
    const tokens = ["<pad>", "\n", "\n\n", "\t\t", "  ", "<table>", "<start_of_turn>", "▁x", "<0x0A>"];
    const v = Vocabulary.fromGgufTokenizer(
      {
        model: "llama",
        pre: "default",
        tokens,
        tokenTypes: [3, 4, 4, 4, 4, 4, 3, 1, 6],
        merges: [],
        eosTokenId: undefined,
        bosTokenId: undefined,
        paddingTokenId: undefined,
        addBosToken: undefined,
        chatTemplate: undefined,
      },
      { eosTokenIds: [] },
    );
    expect([1, 2, 3, 4, 7, 8].map((id) => [v.kind[id], new TextDecoder().decode(v.tokenBytes(id))])).toEqual([
      [TOKEN_TEXT, "\n"],
      [TOKEN_TEXT, "\n\n"],
      [TOKEN_TEXT, "\t\t"],
      [TOKEN_TEXT, "  "],
      [TOKEN_TEXT, " x"],
      [TOKEN_TEXT, "\n"],
    ]);
    expect([0, 5, 6].map((id) => [v.kind[id], v.atoms.get(id)])).toEqual([
      [TOKEN_ATOM, "<pad>"],
      [TOKEN_ATOM, "<table>"],
      [TOKEN_ATOM, "<start_of_turn>"],
    ]);
  });
});
