import { runCampaign } from "./test/support/fuzzCampaign.js";
import { fuzzVocab } from "./test/support/fuzzVocab.js";
const seeds = process.argv.slice(2).map(Number);
for (const seed of seeds) {
  const st = runCampaign({ seed, cases: 250, vocab: fuzzVocab() });
  for (const d of st.disagreements) {
    const auto = /mask bit|EOS bit|matcher says|matcher accepted the special/.test(d.problem);
    console.log(seed, d.caseIndex, auto ? "AUTOMATON" : "other", d.problem.slice(0, 300));
    if (auto) console.log("  TEXT", JSON.stringify(d.text), "\n  INPUT", JSON.stringify(d.input).slice(0, 3000));
  }
  console.log("seed", seed, "done", st.disagreements.length);
}
