import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { lit, rep, seq, cls, token, alt } from "../../src/grammar/build.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { qwen3 } from "../support/qwen3.js";

/**
 * Token budgets: `fillNextTokenBitmaskWithin(bits, tokensLeft)` must make every generation end, complete, within its
 * budget — checked by random walks that pick uniformly among the allowed tokens of the real Qwen3 vocabulary (long
 * tokens inside strings, the worst case for a budget), with the reference acceptor as judge of the text.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);
const examples = join(import.meta.dirname, "..", "..", "examples");
const byteVocab = Vocabulary.fromPieces(
  [
    ...Array.from({ length: 256 }, (_, b) => Uint8Array.of(b)),
    { text: "<tool_call>", special: true },
    "tr",
    "true",
    null,
  ],
  { eosTokenIds: [256 + 3] },
);
const g = (root: ReturnType<typeof lit>): Grammar => ({ root: "root", rules: new Map([["root", root]]) });

function setBits(bits: Uint32Array, size: number): number[] {
  const out: number[] = [];
  for (let id = 0; id < size; id++) if ((bits[id >>> 5] >>> (id & 31)) & 1) out.push(id);
  return out;
}

describe("tokensToComplete", () => {
  it("counts bytes, and a special token the vocabulary has as one symbol", () => {
    const byteOf = (s: string) => s.charCodeAt(0);
    const m = createMatcher(g(lit("true")), byteVocab);
    expect(m.tokensToComplete()).toBe(4);
    expect(m.acceptToken(257)).toBe(true); // "tr"
    expect(m.tokensToComplete()).toBe(2);
    const t = createMatcher(g(seq(token("<tool_call>"), lit("x"))), byteVocab);
    expect(t.tokensToComplete()).toBe(2);
    const loop = createMatcher(g(seq(lit("a"), rep(cls([0x61, 0x7a]), 0, null), lit("."))), byteVocab);
    expect(loop.tokensToComplete()).toBe(2);
    expect(loop.acceptToken(byteOf("a"))).toBe(true);
    expect(loop.acceptToken(byteOf("q"))).toBe(true);
    expect(loop.tokensToComplete()).toBe(1);
    expect(loop.acceptToken(byteOf("."))).toBe(true);
    expect(loop.tokensToComplete()).toBe(0);
  });

  it("is exact through recursion: the closing brackets of nested arrays", () => {
    const m = compileSchema({
      $defs: { t: { type: "array", items: { $ref: "#/$defs/t" } } },
      $ref: "#/$defs/t",
    }).createMatcher(byteVocab);
    expect(m.tokensToComplete()).toBe(2); // "[]"
    for (const ch of "[[[") expect(m.acceptToken(ch.charCodeAt(0))).toBe(true);
    expect(m.tokensToComplete()).toBe(3); // "]]]"
    for (const ch of "], ") expect(m.acceptToken(ch.charCodeAt(0))).toBe(true);
    expect(m.tokensToComplete()).toBe(4); // "[]]]"
  });

  it("refuses a vocabulary without single-byte tokens", () => {
    const v = Vocabulary.fromPieces(["a", "b", "ab"], { eosTokenIds: [] });
    const m = createMatcher(g(alt(lit("a"), lit("b"))), v);
    expect(() => m.tokensToComplete()).toThrow(/single-byte token/);
  });
});

describe("fillNextTokenBitmaskWithin (Qwen3 vocabulary)", () => {
  const { vocab } = qwen3();
  const EOS = vocab.eosTokenIds;
  const toolSets = readdirSync(examples)
    .filter((f) => f.endsWith(".tools.json"))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(join(examples, f), "utf8")) as unknown] as const);
  const cases: [string, ReturnType<typeof compileTools>][] = [
    ...toolSets.map(
      ([f, tools]) =>
        [`${f} (required)`, compileTools(tools, { toolChoice: "required" })] as [
          string,
          ReturnType<typeof compileTools>,
        ],
    ),
    [
      "weather (auto, free text)",
      compileTools(toolSets.find(([f]) => f.startsWith("weather"))![1], { toolChoice: "auto" }),
    ],
    [
      "recursive JSON",
      compileSchema({
        $defs: {
          t: {
            type: "object",
            properties: { v: { type: "string" }, kids: { type: "array", items: { $ref: "#/$defs/t" } } },
            required: ["v", "kids"],
          },
        },
        $ref: "#/$defs/t",
      }),
    ],
  ];

  it.each(cases)("%s: random walks always end complete within the budget", (_name, compiled) => {
    const random = seededRandom(SEED);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const plain = new Uint32Array(bits.length);
    const m = compiled.createMatcher(vocab);
    const floor = m.tokensToComplete() + 1;
    for (let walk = 0; walk < 6; walk++) {
      const budget = floor + Math.floor(random() * 40);
      m.reset();
      const ids: number[] = [];
      let ended = false;
      for (let left = budget; left >= 1 && !ended; left--) {
        m.fillNextTokenBitmaskWithin(bits, left);
        m.fillNextTokenBitmask(plain);
        const allowed = setBits(bits, vocab.size);
        // narrowed, never widened
        const widened = allowed.find((id) => ((plain[id >>> 5] >>> (id & 31)) & 1) === 0);
        expect(widened, `seed ${SEED}: token ${widened} allowed only under the budget`).toBeUndefined();
        expect(allowed.length, `seed ${SEED}, walk ${walk}: empty mask with ${left} tokens left`).toBeGreaterThan(0);
        // prefer ordinary tokens, so that walks run into the budget instead of ending early
        const ordinary = allowed.filter((id) => !EOS.includes(id));
        const pick =
          ordinary.length > 0 && random() < 0.97
            ? ordinary[Math.floor(random() * ordinary.length)]
            : allowed[Math.floor(random() * allowed.length)];
        expect(m.acceptToken(pick)).toBe(true);
        if (EOS.includes(pick)) ended = true;
        else ids.push(pick);
      }
      expect(ended, `seed ${SEED}, walk ${walk}: no end within ${budget} tokens`).toBe(true);
      const text = Buffer.concat(
        ids.map((id) =>
          vocab.atoms.has(id)
            ? Buffer.from(vocab.atoms.get(id)!)
            : Buffer.from(vocab.bytes.subarray(vocab.offsets[id], vocab.offsets[id + 1])),
        ),
      ).toString("utf8");
      expect(compiled.accepts(text), `seed ${SEED}: ${JSON.stringify(text)}`).toBe(true);
    }
  });

  it("leaves the mask unchanged while the budget is far away", () => {
    const compiled = cases[0][1];
    const m = compiled.createMatcher(vocab);
    const a = new Uint32Array(Math.ceil(vocab.size / 32));
    const b = new Uint32Array(a.length);
    m.fillNextTokenBitmaskWithin(a, 100_000);
    m.fillNextTokenBitmask(b);
    expect(a).toEqual(b);
  });
});
