import { describe, expect, it } from "vitest";
import { TOKEN_ATOM, TOKEN_NONE, TOKEN_TEXT, Vocabulary } from "../../src/vocab/Vocabulary.js";
import { byteLevelDecodeTable, decodeByteLevelPiece, decodeSentencePiece } from "../../src/vocab/byteLevel.js";

const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

describe("byte-level alphabet", () => {
  it("maps every byte to one code point and back", () => {
    const t = byteLevelDecodeTable();
    const seen = new Set<number>();
    for (let c = 0; c < t.length; c++) if (t[c] >= 0) seen.add(t[c]);
    expect(seen.size).toBe(256);
    expect([...decodeByteLevelPiece("Ġhello")!]).toEqual([0x20, ...new TextEncoder().encode("hello")]);
    expect([...decodeByteLevelPiece("Ċ")!]).toEqual([0x0a]);
    expect(decodeByteLevelPiece("日")).toBeUndefined();
  });
  it("decodes SentencePiece pieces", () => {
    expect(dec(decodeSentencePiece("▁the"))).toBe(" the");
    expect([...decodeSentencePiece("<0x0A>")]).toEqual([0x0a]);
  });
});

describe("Vocabulary.fromTokenizerJson", () => {
  it("reads a byte-level BPE tokenizer: atoms, EOS, padding", () => {
    const tj = {
      model: { type: "BPE", vocab: { a: 0, Ġb: 1, Ċ: 2, '{"': 3, Ã: 4 } },
      added_tokens: [
        { id: 5, content: "<|end|>", special: true },
        { id: 6, content: "<tool_call>", special: false },
      ],
      decoder: { type: "ByteLevel" },
      pre_tokenizer: { type: "Sequence", pretokenizers: [{ type: "ByteLevel" }] },
    };
    const v = Vocabulary.fromTokenizerJson(tj, { size: 10, eosTokenIds: [5] });
    expect(v.size).toBe(10);
    expect(dec(v.tokenBytes(1))).toBe(" b");
    expect([...v.tokenBytes(2)]).toEqual([10]);
    expect([...v.tokenBytes(4)]).toEqual([0xc3]); // a partial UTF-8 character on its own
    expect(v.kind[5]).toBe(TOKEN_NONE); // EOS only ends the output
    expect(v.kind[6]).toBe(TOKEN_ATOM);
    expect(v.atoms.get(6)).toBe("<tool_call>");
    expect(v.kind[7]).toBe(TOKEN_NONE); // padding
    expect(v.kind[0]).toBe(TOKEN_TEXT);
  });
  it("reads a SentencePiece tokenizer with byte fallback", () => {
    const tj = {
      model: {
        type: "BPE",
        byte_fallback: true,
        vocab: { "<unk>": 0, "<s>": 1, "</s>": 2, "<0x0A>": 3, "▁hi": 4, x: 5 },
      },
      added_tokens: [
        { id: 0, content: "<unk>", special: true },
        { id: 1, content: "<s>", special: true },
        { id: 2, content: "</s>", special: true },
      ],
      decoder: { type: "Sequence", decoders: [{ type: "Replace" }, { type: "ByteFallback" }] },
    };
    const v = Vocabulary.fromTokenizerJson(tj, { eosTokenIds: [2] });
    expect([...v.tokenBytes(3)]).toEqual([10]);
    expect(dec(v.tokenBytes(4))).toBe(" hi");
    expect(v.kind[1]).toBe(TOKEN_ATOM);
  });
  it("reads SentencePiece user-defined pieces listed as added tokens as text, other added tokens as atoms", () => {
    // the shape of Gemma 3's tokenizer.json (the real file is checked id by id in test/automaton/familyVocabularies)
    const tj = {
      model: {
        type: "BPE",
        byte_fallback: true,
        vocab: { "<pad>": 0, "<eos>": 1, "<start_of_turn>": 2, "\n": 3, "▁▁": 4, "<b>": 5, "<unused0>": 6, x: 7 },
      },
      added_tokens: [
        { id: 0, content: "<pad>", special: true },
        { id: 1, content: "<eos>", special: true },
        { id: 2, content: "<start_of_turn>", special: true },
        { id: 3, content: "\n", special: false },
        { id: 4, content: "▁▁", special: false },
        { id: 5, content: "<b>", special: false },
        { id: 6, content: "<unused0>", special: false },
        { id: 8, content: "<tool_call>", special: false }, // added beside the model's pieces, as Qwen3's
      ],
      decoder: { type: "Sequence", decoders: [{ type: "Replace" }, { type: "ByteFallback" }, { type: "Fuse" }] },
    };
    const v = Vocabulary.fromTokenizerJson(tj, { eosTokenIds: [1] });
    expect([3, 4, 5, 7].map((id) => [v.kind[id], dec(v.tokenBytes(id))])).toEqual([
      [TOKEN_TEXT, "\n"],
      [TOKEN_TEXT, "  "],
      [TOKEN_TEXT, "<b>"],
      [TOKEN_TEXT, "x"],
    ]);
    expect([0, 2, 6, 8].map((id) => [v.kind[id], v.atoms.get(id)])).toEqual([
      [TOKEN_ATOM, "<pad>"],
      [TOKEN_ATOM, "<start_of_turn>"],
      [TOKEN_ATOM, "<unused0>"],
      [TOKEN_ATOM, "<tool_call>"],
    ]);
  });
  it("rejects an EOS id outside the vocabulary", () => {
    expect(() => Vocabulary.fromPieces(["a"], { eosTokenIds: [3] })).toThrow(/outside/);
  });
});

describe("token trie", () => {
  it("holds every ordinary token once, in a valid preorder layout", () => {
    const pieces = ["ab", "a", "abc", "b", "abd", "ab", "ba", "\u00ff", "c\u0000"];
    const v = Vocabulary.fromPieces(pieces, { eosTokenIds: [] });
    const t = v.trie;
    const path: number[] = [];
    const found = new Map<number, string>();
    for (let i = 0; i < t.nodeCount; i++) {
      path.length = t.depth[i] - 1;
      path.push(t.byte[i]);
      expect(t.next[i]).toBeGreaterThan(i);
      for (let j = i + 1; j < t.next[i]; j++) expect(t.depth[j]).toBeGreaterThan(t.depth[i]);
      if (t.next[i] < t.nodeCount) expect(t.depth[t.next[i]]).toBeLessThanOrEqual(t.depth[i]);
      for (let k = t.tokBegin[i]; k < t.tokBegin[i + 1]; k++)
        found.set(t.tokIds[k], Buffer.from(path).toString("latin1"));
    }
    expect(found.size).toBe(pieces.length);
    pieces.forEach((p, id) => expect(found.get(id)).toBe(Buffer.from(new TextEncoder().encode(p)).toString("latin1")));
  });
});
