import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTinyModel, TINY_QWEN3, type TinyModel } from "../../src/gguf/buildTinyModel.js";
import { GgufTokenType, ggufTokenizer, type GgufTokenizer } from "../../src/gguf/ggufTokenizer.js";
import { readGguf, type GgufHeader } from "../../src/gguf/readGguf.js";
import { modelTiny } from "../../src/cli/commands/modelTiny.js";
import { loadQwen3TokenizerFiles } from "../../src/gguf/qwen3Tokenizer.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { vocabularyFromGguf } from "../../src/node.js";

let dir: string;
let first: TinyModel;
let header: GgufHeader;
let tokenizer: GgufTokenizer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolgram-tiny-"));
  first = await buildTinyModel({ seed: 7, outPath: join(dir, "a.gguf") });
  header = await readGguf(first.path);
  tokenizer = ggufTokenizer(header);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("buildTinyModel", () => {
  it("is deterministic: same seed, same bytes; another seed, other weights", async () => {
    const again = await buildTinyModel({ seed: 7, outPath: join(dir, "b.gguf") });
    expect(again.sha256).toBe(first.sha256);
    expect(again.sizeBytes).toBe(first.sizeBytes);
    const other = await buildTinyModel({ seed: 8, outPath: join(dir, "c.gguf") });
    expect(other.sha256).not.toBe(first.sha256);
    expect(other.sizeBytes).toBe(first.sizeBytes);
  });

  it("writes the Qwen3 hyperparameters and tied embeddings", () => {
    const m = header.metadata;
    expect(m.get("general.architecture")).toEqual({ type: "string", value: "qwen3" });
    expect(m.get("qwen3.embedding_length")?.value).toBe(64);
    expect(m.get("qwen3.block_count")?.value).toBe(2);
    expect(m.get("qwen3.attention.head_count")?.value).toBe(4);
    expect(m.get("qwen3.attention.head_count_kv")?.value).toBe(2);
    expect(m.get("qwen3.feed_forward_length")?.value).toBe(128);
    const names = header.tensors.map((t) => t.name);
    expect(names).toContain("blk.1.attn_q_norm.weight");
    expect(names).toContain("blk.1.attn_k_norm.weight");
    expect(names).not.toContain("output.weight");
    const embd = header.tensors.find((t) => t.name === "token_embd.weight");
    expect(embd).toMatchObject({ dims: [64, TINY_QWEN3.vocabularySize], type: 1 });
    for (const t of header.tensors) expect(t.offset % header.alignment).toBe(0);
  });

  it("embeds the real Qwen3 vocabulary, padded, with llama.cpp token types", () => {
    expect(tokenizer.model).toBe("gpt2");
    expect(tokenizer.pre).toBe("qwen2");
    expect(tokenizer.tokens.length).toBe(151_936);
    expect(tokenizer.tokenTypes.length).toBe(151_936);
    expect(tokenizer.tokens[0]).toBe("!");
    expect(tokenizer.tokens[220]).toBe("Ġ");
    expect(tokenizer.tokenTypes[220]).toBe(GgufTokenType.normal);
    expect(tokenizer.tokens[151644]).toBe("<|im_start|>");
    expect(tokenizer.tokenTypes[151644]).toBe(GgufTokenType.control);
    expect(tokenizer.tokens[151657]).toBe("<tool_call>");
    expect(tokenizer.tokenTypes[151657]).toBe(GgufTokenType.userDefined);
    expect(tokenizer.tokens[151658]).toBe("</tool_call>");
    expect(tokenizer.tokenTypes[151664]).toBe(GgufTokenType.control); // <|file_sep|>
    expect(tokenizer.tokens[151669]).toBe("[PAD151669]");
    expect(tokenizer.tokenTypes[151935]).toBe(GgufTokenType.unused);
    expect(tokenizer.merges.length).toBe(151_387);
    expect(tokenizer.merges[0]).toBe("Ġ Ġ");
    expect(tokenizer.eosTokenId).toBe(151645);
    expect(tokenizer.paddingTokenId).toBe(151643);
    expect(tokenizer.bosTokenId).toBe(151643);
    expect(tokenizer.addBosToken).toBe(false);
    expect(tokenizer.chatTemplate).toContain("<tool_call>");
  });

  it("vocabularyFromGguf reads the same bytes and atoms as fromTokenizerJson of the source tokenizer, and its template", async () => {
    const files = await loadQwen3TokenizerFiles();
    const fromGguf = await vocabularyFromGguf(first.path);
    const fromJson = Vocabulary.fromTokenizerJson(files.tokenizer, {
      eosTokenIds: [151645],
      size: TINY_QWEN3.vocabularySize,
    });
    expect(fromGguf.size).toBe(fromJson.size);
    expect(fromGguf.eosTokenIds).toEqual([151645]);
    expect(Buffer.from(fromGguf.kind).equals(Buffer.from(fromJson.kind))).toBe(true);
    expect(Buffer.from(fromGguf.offsets.buffer).equals(Buffer.from(fromJson.offsets.buffer))).toBe(true);
    expect(Buffer.from(fromGguf.bytes).equals(Buffer.from(fromJson.bytes))).toBe(true);
    expect([...fromGguf.atoms]).toEqual([...fromJson.atoms]);
    expect(fromGguf.chatTemplate).toBe(files.chatTemplate);
    expect(fromJson.chatTemplate).toBeUndefined();
  });

  it("model-tiny command writes where --out says and rejects bad flags", async () => {
    const out = join(dir, "cli.gguf");
    const writes: string[] = [];
    const originalOut = process.stdout.write.bind(process.stdout);
    const originalErr = process.stderr.write.bind(process.stderr);
    process.stdout.write = ((chunk: string) => writes.push(String(chunk)) > 0) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string) => writes.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      expect(await modelTiny(["--seed", "7", "--out", out])).toBe(0);
      expect(await modelTiny(["--seed", "-1"])).toBe(2);
      expect(await modelTiny(["--bogus"])).toBe(2);
    } finally {
      process.stdout.write = originalOut;
      process.stderr.write = originalErr;
    }
    expect(writes.join("")).toContain(out);
    expect(writes.join("")).toContain(first.sha256);
  });
});
