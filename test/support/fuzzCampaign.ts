/**
 * One fuzzing campaign: random schemas (JSON mode) and tool sets (tool-call mode) from the supported subset, texts near
 * their languages (canonical renderings of near-valid values, grammar samples, and their mutations), each judged by
 * every engine with ajv as referee (see differential.ts). Deterministic for a seed.
 */
import fc from "fast-check";
import { compileSchema, compileTools } from "../../src/compile.js";
import type { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson, isJsonObject, type JsonValue } from "../../src/json.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import type { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { nearValue, schemaArb, toolSetArb, type Schema, type ToolSet } from "./arbitraries.js";
import { judgeText, type Disagreement, type JudgeMode } from "./differential.js";

export interface CampaignStats {
  cases: number;
  compiled: number;
  refused: number;
  texts: number;
  accepted: number;
  disagreements: (Disagreement & { seed: number; caseIndex: number; input: { schema?: unknown; tools?: unknown } })[];
}

const MUTATION_ALPHABET = [
  '"',
  "\\",
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  " ",
  "\n",
  "a",
  "0",
  "-",
  ".",
  "e",
  "<",
  ">",
  "/",
  "é",
  "🎉",
  "<tool_call>",
  "</tool_call>",
  "null",
  "true",
];

export function runCampaign(opts: {
  seed: number;
  cases: number;
  vocab: Vocabulary;
  tokenize?: (text: string) => number[];
  textsPerCase?: number;
}): CampaignStats {
  const stats: CampaignStats = { cases: 0, compiled: 0, refused: 0, texts: 0, accepted: 0, disagreements: [] };
  const rnd = seededRandom(opts.seed);
  const per = opts.textsPerCase ?? 12;
  for (let i = 0; i < opts.cases; i++) {
    stats.cases++;
    const caseSeed = Math.floor(rnd() * 2 ** 31);
    const toolMode = rnd() < 0.5;
    let g: CompiledGrammar;
    let mode: JudgeMode;
    let texts: string[] = [];
    let input: { schema?: unknown; tools?: unknown };
    try {
      if (toolMode) {
        const [tools] = fc.sample(toolSetArb, { seed: caseSeed, numRuns: 1 }) as ToolSet[];
        input = { tools };
        g = compileTools(tools);
        mode = { kind: "tools", tools };
        for (let k = 0; k < per / 2; k++) {
          const n = 1 + Math.floor(rnd() * 2);
          const calls = Array.from({ length: n }, (_, j) => {
            const t = tools[Math.floor(rnd() * tools.length)];
            const [args] = fc.sample(nearValue(t.function.parameters), { seed: caseSeed + k * 7 + j, numRuns: 1 });
            return { name: t.function.name, arguments: isJsonObject(args) ? args : {} };
          });
          const prefix = rnd() < 0.3 ? "Let me check.\n" : "";
          try {
            texts.push(prefix + renderToolCalls(calls, "qwen3"));
          } catch {
            // a value the renderer cannot write: skip it
          }
        }
      } else {
        const [schema] = fc.sample(schemaArb, { seed: caseSeed, numRuns: 1 }) as Schema[];
        input = { schema };
        g = compileSchema(schema);
        mode = { kind: "json", schema };
        texts = fc
          .sample(nearValue(schema), { seed: caseSeed, numRuns: per / 2 })
          .map((v) => canonicalJson(v as JsonValue));
      }
    } catch (e) {
      if (e instanceof ToolgramError) {
        stats.refused++;
        continue;
      }
      throw e;
    }
    stats.compiled++;
    const sampleRnd = seededRandom(caseSeed);
    for (let k = 0; k < 3; k++) {
      const s = sampleGrammar(g.grammar, sampleRnd, { maxLength: 400 });
      if (s !== undefined) texts.push(s);
    }
    const base = [...texts];
    for (const t of base) texts.push(mutateText(t, MUTATION_ALPHABET, sampleRnd, 1 + Math.floor(sampleRnd() * 2)));
    for (const text of texts) {
      stats.texts++;
      let d: Disagreement | undefined;
      try {
        d = judgeText(g, text, opts.vocab, mode, opts.tokenize);
      } catch (e) {
        // an engine failing on a grammar that compiled is itself a finding
        d = {
          text,
          verdicts: { accepts: g.accepts(text), matcher: false, referee: false },
          problem: `engine threw ${(e as Error).name}: ${(e as Error).message}`,
        };
      }
      if (g.accepts(text)) stats.accepted++;
      if (d) stats.disagreements.push({ ...d, seed: opts.seed, caseIndex: i, input });
    }
  }
  return stats;
}
