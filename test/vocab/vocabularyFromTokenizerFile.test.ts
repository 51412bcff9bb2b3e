import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ToolgramError } from "../../src/errors.js";
import { vocabularyFromTokenizerFile } from "../../src/node.js";
import { TOKEN_ATOM, Vocabulary } from "../../src/vocab/Vocabulary.js";

const tokenizerJson = {
  model: { type: "BPE", vocab: { a: 0, Ġb: 1 } },
  added_tokens: [
    { id: 2, content: "<|end|>", special: true },
    { id: 3, content: "<x>", special: false },
  ],
  decoder: { type: "ByteLevel" },
};

describe("vocabularyFromTokenizerFile (toolgram/node)", () => {
  it("reads a tokenizer.json file into the same vocabulary as fromTokenizerJson of the parsed file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgram-tokenizer-"));
    try {
      const path = join(dir, "tokenizer.json");
      writeFileSync(path, JSON.stringify(tokenizerJson));
      const v = await vocabularyFromTokenizerFile(path, { size: 4, eosTokenIds: [2] });
      expect(new TextDecoder().decode(v.tokenBytes(1))).toBe(" b");
      expect(v.kind[3]).toBe(TOKEN_ATOM);
      expect(v.eosTokenIds).toEqual([2]);
      expect(v.bytes).toEqual(Vocabulary.fromTokenizerJson(tokenizerJson, { size: 4, eosTokenIds: [2] }).bytes);
      await expect(vocabularyFromTokenizerFile(join(dir, "missing.json"), { eosTokenIds: [] })).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Vocabulary.fromTokenizerJson refuses a path and names the file reader", () => {
    const read = () => Vocabulary.fromTokenizerJson("tokenizer.json", { eosTokenIds: [] });
    expect(read).toThrow(ToolgramError);
    expect(read).toThrow(/vocabularyFromTokenizerFile.*toolgram\/node/);
  });
});
