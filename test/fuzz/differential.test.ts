/**
 * The short, fixed-seed differential fuzz run of `npm test` (the long campaign is `npm run fuzz -- --minutes N`):
 * accepts(), the regex, the token matcher (hand-built vocabulary) and the strict parser give one verdict per text,
 * mask ⇔ acceptToken at every step, and nothing accepted fails ajv. The quick tier runs the first 25 cases of the
 * seed's sequence, the long tier all 60.
 */
import { expect, it } from "vitest";
import { fuzzVocab } from "../support/fuzzVocab.js";
import { runCampaign } from "../support/fuzzCampaign.js";
import { tierRuns } from "../support/tier.js";

const SEED = Number(process.env.FC_SEED ?? 4242);

it(`differential fuzz, seed ${SEED}`, () => {
  const stats = runCampaign({
    seed: SEED,
    cases: Number(process.env.FUZZ_CASES ?? tierRuns(25, 60)),
    vocab: fuzzVocab(),
  });
  console.log(
    `fuzz seed ${SEED}: ${stats.cases} cases, ${stats.compiled} compiled, ${stats.refused} refused, ${stats.texts} texts, ${stats.accepted} accepted, ${stats.disagreements.length} disagreements`,
  );
  expect(stats.compiled).toBeGreaterThan(stats.cases / 2);
  expect(stats.accepted).toBeGreaterThan(0);
  expect(
    stats.disagreements
      .slice(0, 5)
      .map(
        (d) => `${d.problem} :: ${JSON.stringify(d.text).slice(0, 300)} :: ${JSON.stringify(d.input).slice(0, 400)}`,
      ),
  ).toEqual([]);
});
