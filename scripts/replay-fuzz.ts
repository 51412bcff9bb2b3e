/**
 * `tsx scripts/replay-fuzz.ts DIR`: replays the counterexamples a fuzz campaign saved (e.g. `--out .cache/fuzz`)
 * against the current code and prints how many still disagree, by problem.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileSchema, compileTools } from "../src/compile.js";
import { judgeText } from "../test/support/differential.js";
import { fuzzVocab } from "../test/support/fuzzVocab.js";

const dir = process.argv[2] ?? "test/regressions";
const files = readdirSync(dir).filter((f) => /^fuzz-.*\.json$/.test(f));
const vocab = fuzzVocab();
const still = new Map<string, number>();
let fixed = 0;
for (const f of files) {
  const c = JSON.parse(readFileSync(join(dir, f), "utf8")) as {
    text: string;
    input: { schema?: unknown; tools?: unknown[] };
  };
  let problem: string | undefined;
  try {
    const g = c.input.tools ? compileTools(c.input.tools) : compileSchema(c.input.schema);
    problem = judgeText(
      g,
      c.text,
      vocab,
      c.input.tools ? { kind: "tools", tools: c.input.tools } : { kind: "json", schema: c.input.schema },
    )?.problem;
  } catch (e) {
    problem = `throws ${(e as Error).message.slice(0, 80)}`;
  }
  if (problem) still.set(problem, (still.get(problem) ?? 0) + 1);
  else fixed++;
}
console.log(`${files.length} counterexamples: ${fixed} now agree`);
for (const [p, n] of still) console.log(`${n} × ${p}`);
