import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { compileTools } from "../../src/compile.js";
import { FORMAT_DESCRIPTIONS } from "../../src/formats/index.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";
import { TOKEN_ATOM, type Vocabulary } from "../../src/vocab/Vocabulary.js";
import { tierRuns } from "../support/tier.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";
import { vocabularyFromGguf } from "../../src/node.js";

/**
 * Gemma 4's real vocabulary: no npm package has its tokenizer, but llama.cpp's source carries it as a vocabulary-only
 * GGUF (`models/ggml-vocab-gemma-4.gguf`, 262,144 tokens) with its own tokenizer tests (`.inp` texts, `.out` the ids
 * llama.cpp makes of them). Read through `vocabularyFromGguf`, it spells llama.cpp's tokenizations byte for byte;
 * `gemma4`'s markers are single tokens of it; the matcher agrees with `accepts()` on random walks under its masks.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261125);
const WEATHER = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string", maxLength: 12 }, days: { type: "integer", minimum: 1, maximum: 14 } },
        required: ["city"],
        additionalProperties: false,
      },
    },
  },
];
// a turn ends with <turn|> (106); <eos> (1) is the GGUF's end token
const TURN_END = 106;
const EOS = 1;

describe("Gemma 4's vocabulary (llama.cpp's models/ggml-vocab-gemma-4.gguf)", () => {
  let file: string | undefined;
  let vocab: Vocabulary;
  beforeAll(async () => {
    const src = await llamaCppSource();
    if (src === undefined) {
      console.warn("skipped: llama.cpp's source is not available (node-llama-cpp's bundle or git missing)");
      return;
    }
    file = join(src.dir, "models", "ggml-vocab-gemma-4.gguf");
    vocab = await vocabularyFromGguf(file, { eosTokenIds: [TURN_END, EOS] });
  }, 120_000);

  it("spells llama.cpp's own tokenizations of its tokenizer tests byte for byte", ({ skip }) => {
    if (file === undefined) skip();
    expect(vocab.size).toBe(262_144);
    const texts = readFileSync(`${file}.inp`, "utf8").split("\n__ggml_vocab_test__\n");
    const ids = readFileSync(`${file}.out`, "utf8").split("\n").slice(0, texts.length);
    expect(texts.length).toBe(46);
    const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
    for (const [i, text] of texts.entries()) {
      const tokens = ids[i].trim() === "" ? [] : ids[i].trim().split(/\s+/).map(Number);
      const bytes = tokens.flatMap((id) =>
        vocab.kind[id] === TOKEN_ATOM ? [...new TextEncoder().encode(vocab.atoms.get(id))] : [...vocab.tokenBytes(id)],
      );
      expect(utf8.decode(Uint8Array.from(bytes)), `case ${i}`).toBe(text);
    }
  });

  it("holds gemma4's markers, and its string delimiter <|\"|>, as single tokens", ({ skip }) => {
    if (file === undefined) skip();
    const texts = new Map([...vocab.atoms].map(([id, text]) => [text, id]));
    for (const marker of [...FORMAT_DESCRIPTIONS.gemma4.specialTokens, '<|"|>'])
      expect(vocab.kind[texts.get(marker) ?? -1], marker).toBe(TOKEN_ATOM);
    expect(vocab.atoms.get(TURN_END)).toBe("<turn|>");
  });

  it("gemma4: the matcher agrees with accepts() on random walks under its masks", ({ skip }) => {
    if (file === undefined) skip();
    const grammar = compileTools(WEATHER, { format: "gemma4", toolChoice: "required", parallel: false }).grammar;
    checkRandomWalks(grammar, vocab, { seed: SEED, numRuns: tierRuns(2, 12), maxLength: tierRuns(16, 40) });
  }, 300_000);

  it('gemma4: a call goes through its marker tokens, the string delimiter <|"|> too, and ends at <turn|>', ({
    skip,
  }) => {
    if (file === undefined) skip();
    const texts = new Map([...vocab.atoms].map(([id, text]) => [text, id]));
    const compiled = compileTools(WEATHER, { format: "gemma4", toolChoice: "required", freeText: false });
    const text = renderToolCalls([{ name: "get_weather", arguments: { city: "Paris" } }], "gemma4");
    expect(text).toBe('<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>');
    // what a Gemma 4 model writes: each marker and the delimiter as its one token; the rest as text
    const walk = (m: ReturnType<typeof createMatcher>): boolean[] => [
      m.acceptToken(texts.get("<|tool_call>")!),
      m.acceptString("call:get_weather{city:"),
      m.acceptToken(texts.get('<|"|>')!),
      m.acceptString("Paris"),
      m.acceptToken(texts.get('<|"|>')!),
      m.acceptString("}"),
      m.acceptToken(texts.get("<tool_call|>")!),
      m.isCompleted(),
      m.acceptToken(TURN_END),
    ];
    expect(walk(createMatcher(compiled.grammar, vocab))).toEqual(Array(9).fill(true));
    expect(walk(createMatcher(compiled.grammar, vocab, { specialTokens: "token-only" }))).toEqual(Array(9).fill(true));
    // token-only: the delimiter's text spelled in plain pieces is refused where the grammar writes the token
    const only = createMatcher(compiled.grammar, vocab, { specialTokens: "token-only" });
    expect(only.acceptToken(texts.get("<|tool_call>")!) && only.acceptString("call:get_weather{city:")).toBe(true);
    expect(only.acceptString("<")).toBe(false);
  });
});
