/**
 * `npm run fuzz -- [--minutes N] [--seed S] [--vocab tiny|qwen3] [--out DIR]`: the long differential campaign. Runs campaigns of
 * 50 cases with fresh random seeds (or from --seed, counting up) until the time is up, prints progress, and writes
 * every disagreement to test/regressions/fuzz-<seed>-<case>.json, which test/regressions/replay.test.ts replays.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCampaign } from "../test/support/fuzzCampaign.js";
import { fuzzVocab } from "../test/support/fuzzVocab.js";
import { qwen3 } from "../test/support/qwen3.js";

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const minutes = Number(opt("--minutes") ?? 5);
let seed = Number(opt("--seed") ?? Math.floor(Math.random() * 2 ** 31));
const vocabName = opt("--vocab") ?? "tiny";
const out = opt("--out") ?? join(dirname(fileURLToPath(import.meta.url)), "..", "test", "regressions");
mkdirSync(out, { recursive: true });

const q = vocabName === "qwen3" ? qwen3() : undefined;
const vocab = q ? q.vocab : fuzzVocab();
const deadline = Date.now() + minutes * 60_000;
const total = { campaigns: 0, cases: 0, compiled: 0, refused: 0, texts: 0, accepted: 0, disagreements: 0 };
while (Date.now() < deadline) {
  const s = runCampaign({ seed, cases: 50, vocab, tokenize: q?.encode });
  total.campaigns++;
  total.cases += s.cases;
  total.compiled += s.compiled;
  total.refused += s.refused;
  total.texts += s.texts;
  total.accepted += s.accepted;
  total.disagreements += s.disagreements.length;
  for (const d of s.disagreements) {
    const file = join(out, `fuzz-${d.seed}-${d.caseIndex}.json`);
    writeFileSync(file, `${JSON.stringify({ vocab: vocabName, ...d }, null, 1)}\n`);
    console.log(`DISAGREEMENT seed ${d.seed} case ${d.caseIndex}: ${d.problem} → ${file}`);
  }
  console.log(
    `seed ${seed}: ${s.cases} cases, ${s.compiled} compiled, ${s.texts} texts, ${s.disagreements.length} disagreements; total ${JSON.stringify(total)}`,
  );
  seed = (seed + 1) % 2 ** 31;
}
console.log(`done: ${JSON.stringify(total)}`);
process.exitCode = total.disagreements ? 1 : 0;
