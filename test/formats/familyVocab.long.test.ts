/**
 * Token level, over each family's real vocabulary: the matcher of a compiled grammar follows the tokenized canonical
 * render (special markers as their single tokens), and its masks agree with acceptToken (and so with accepts()) at
 * sampled steps. Long tier: it builds the 200,000-token gpt-oss vocabulary and sweeps it whole at six steps; npm test
 * checks the matcher over the family vocabularies in test/automaton/familyVocabularies.test.ts.
 */
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { familyVocab } from "../support/familyVocab.js";

const TOOLS = [
  {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    },
  },
  {
    name: "edit",
    parameters: {
      type: "object",
      properties: { oldString: { type: "string" }, replaceAll: { type: "boolean" } },
      required: ["oldString"],
    },
  },
];

const CASES: { format: FormatName; vocab: Parameters<typeof familyVocab>[0]; reasoning?: string; markers: string[] }[] =
  [
    {
      format: "openai",
      vocab: "gptoss",
      reasoning: "Need the weather.",
      markers: ["<|channel|>", "<|message|>", "<|call|>", "<|end|>", "<|start|>"],
    },
  ];

const bit = (bits: Uint32Array, id: number): boolean => ((bits[id >>> 5] >>> (id & 31)) & 1) === 1;

describe("token-level conformance on the family's own vocabulary", () => {
  for (const c of CASES) {
    it(`${c.format} over ${c.vocab}`, () => {
      const { vocab, encode } = familyVocab(c.vocab);
      const calls = [{ name: "get_weather", arguments: { city: 'Paris "naïve" 日本', days: 3 } }];
      const text = renderToolCalls(calls, c.format, c.reasoning === undefined ? {} : { reasoning: c.reasoning });
      const g = compileTools(TOOLS, {
        format: c.format,
        ...(c.reasoning === undefined ? {} : { reasoning: "required" as const }),
      });
      expect(g.accepts(text)).toBe(true);
      const ids = encode(text);
      // every marker is one special token of the vocabulary
      for (const m of c.markers) {
        const [id] = encode(m);
        expect(encode(m), m).toHaveLength(1);
        expect(vocab.atoms.get(id), m).toBe(m);
        expect(ids.includes(id), m).toBe(true);
      }
      const m = g.createMatcher(vocab);
      const bits = new Uint32Array(Math.ceil(vocab.size / 32));
      const checkAt = new Set([0, 1, Math.floor(ids.length / 2), ids.length - 1, ids.length]);
      ids.forEach((id, k) => {
        m.fillNextTokenBitmask(bits);
        expect(bit(bits, id), `token ${id} at step ${k}`).toBe(true);
        if (checkAt.has(k)) {
          for (let t = 0; t < vocab.size; t++) {
            const ok = m.acceptToken(t);
            if (ok) m.rollback(1);
            if (ok !== bit(bits, t)) expect.fail(`step ${k}: token ${t} mask ${bit(bits, t)} accept ${ok}`);
          }
        }
        expect(m.acceptToken(id), `token ${id} at step ${k}`).toBe(true);
      });
      expect(m.isCompleted()).toBe(true);
    });
  }
});
