import type { LlamaModel } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { vocabularyOf } from "../../src/llama-cpp/generateToolCalls.js";
import { LlamaGrammarProbe } from "../../src/llama-cpp/LlamaGrammarProbe.js";
import { TOKEN_TEXT, type Vocabulary } from "../../src/vocab/Vocabulary.js";
import { tinyQwen3Model } from "../support/tinyQwen3.js";

/**
 * Inside a JSON string, llama.cpp's grammar and the matcher allow the same tokens that end in the middle of a UTF-8
 * sequence. llama.cpp judges such a token by the range of code points its tail could complete to; a negated class
 * (`[^"\\…]`, which also names the surrogate block) refused every token ending in the lead byte 0xED, though
 * U+D000..U+D7FF are allowed. Every Qwen3 token with an incomplete tail is checked, on the tiny model's vocabulary.
 */
const TOOLS = [
  { name: "note", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
];

let model: LlamaModel;
let vocab: Vocabulary;

beforeAll(async () => {
  model = await tinyQwen3Model();
  vocab = await vocabularyOf(model);
});

/** How many bytes the UTF-8 sequence that ends `b` still needs (0 when `b` ends on a whole character). */
function missingBytes(b: Uint8Array): number {
  for (let i = b.length - 1, back = 0; i >= 0 && back < 4; i--, back++) {
    const x = b[i];
    if (x >> 6 === 2) continue;
    const need = x >= 0xf0 ? 4 : x >= 0xe0 ? 3 : x >= 0xc0 ? 2 : 1;
    return Math.max(0, need - (b.length - i));
  }
  return 0;
}

describe("llama.cpp and the matcher inside a string, on tokens ending mid-character", () => {
  it("allow exactly the same tokens", async () => {
    const compiled = compileTools(TOOLS, { toolChoice: "required", parallel: false });
    const probe = await LlamaGrammarProbe.create(model, compiled.toGbnf());
    const matcher = compiled.createMatcher(vocab);
    const prefix = model.tokenize('<tool_call>\n{"name": "note", "arguments": {"text": "', true) as number[];
    for (const t of prefix) {
      expect(matcher.acceptToken(t), `matcher refuses prefix token ${t}`).toBe(true);
      probe.accept(t);
    }
    const bits = new Uint32Array(matcher.bitmaskSize);
    matcher.fillNextTokenBitmask(bits);
    const disagreements: string[] = [];
    let checked = 0;
    let endsInEd = 0;
    for (let id = 0; id < vocab.size; id++) {
      if (vocab.kind[id] !== TOKEN_TEXT) continue;
      const b = vocab.tokenBytes(id);
      if (b.length < 2 || missingBytes(b) === 0) continue;
      checked++;
      if (b[b.length - 1] === 0xed) endsInEd++;
      const ours = ((bits[id >>> 5] >>> (id & 31)) & 1) === 1;
      if (ours !== probe.allows(id))
        disagreements.push(`${id} ${Buffer.from(b).toString("hex")}: matcher ${ours}, llama.cpp ${!ours}`);
    }
    console.log(
      `partial-UTF-8 tokens inside a string: ${checked} checked (${endsInEd} end in 0xED), ${disagreements.length} disagreements`,
    );
    expect(endsInEd).toBeGreaterThan(0);
    expect(disagreements.slice(0, 10)).toEqual([]);
  });
});
