/**
 * `npx tsx scripts/rejected-valid.ts FILE_OR_DIR [--json RESULTS]`: lists the schemas of a JSONSchemaBench corpus
 * that reject an instance ajv (the referee) calls valid, even with `propertyOrder: "any"`: per schema, the
 * instance, and the keywords of the schema (to sort them into causes for docs/schema-coverage.md). With `--json`
 * (the output of `npm run conformance -- ... --json`), only the schemas it marks `valid-rejected` are compiled again.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileSchema } from "../src/compile.js";
import { CONFORMANCE_OPTIONS, readCorpus, type CorpusResult } from "../src/conformance/judgeCorpus.js";
import { Referee } from "../src/conformance/referee.js";
import { canonicalJson } from "../src/json.js";

const args = process.argv.slice(2);
const src = args.find((a) => !a.startsWith("--") && args[args.indexOf(a) - 1] !== "--json");
const jsonIn = args.includes("--json") ? args[args.indexOf("--json") + 1] : undefined;
if (!src) {
  console.error("usage: npx tsx scripts/rejected-valid.ts FILE_OR_DIR [--json RESULTS]");
  process.exit(2);
}
const files = src.endsWith(".jsonl")
  ? [src]
  : readdirSync(src)
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(src, f));
const only = jsonIn
  ? new Set(
      (JSON.parse(readFileSync(jsonIn, "utf8")) as CorpusResult[])
        .filter((r) => r.outcome === "valid-rejected")
        .map((r) => r.id),
    )
  : undefined;
const referee = new Referee();
const keywords = (s: unknown, out = new Set<string>()): Set<string> => {
  if (s && typeof s === "object")
    for (const [k, v] of Object.entries(s)) {
      if (!Array.isArray(s)) out.add(k);
      keywords(v, out);
    }
  return out;
};
for (const f of files) {
  for (const row of readCorpus(f)) {
    if (only && !only.has(row.id)) continue;
    let c: ReturnType<typeof compileSchema>;
    try {
      c = compileSchema(row.schema, { ...CONFORMANCE_OPTIONS, propertyOrder: "any" });
    } catch {
      continue;
    }
    for (const t of row.tests ?? []) {
      const text = canonicalJson(t.data);
      if (!referee.validText(row.schema, text) || c.accepts(text)) continue;
      const kw = [...keywords(row.schema)].filter((k) => /^[a-z$]+[A-Z]?[a-zA-Z]*$/.test(k) && k.length < 22);
      console.log(`${row.id}\t${text.slice(0, 200)}\t${kw.join(",").slice(0, 300)}`);
      break;
    }
  }
}
