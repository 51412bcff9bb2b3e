/**
 * `npx tsx scripts/rejected-valid.ts FILE_OR_DIR [--json RESULTS | --baseline DIR]`: lists the schemas of a
 * JSONSchemaBench corpus (`.jsonl` or `.jsonl.br` files) that reject an instance ajv (the referee) calls valid, even
 * with `propertyOrder: "any"`: per schema, the instance, and the keywords of the schema (to sort them into causes for
 * docs/schema-coverage.md); a schema `propertyOrder: "any"` refuses is listed with the refusal. With `--json` (the
 * output of `npm run conformance -- ... --json`) or `--baseline` (test/conformance/baseline-jsonschemabench), only
 * the schemas marked `valid-rejected` there are compiled again.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileSchema } from "../src/compile.js";
import { CONFORMANCE_OPTIONS, readCorpus, type CorpusResult } from "../src/conformance/judgeCorpus.js";
import { Referee } from "../src/conformance/referee.js";
import { canonicalJson } from "../src/json.js";

const args = process.argv.slice(2);
const flagValue = (flag: string): string | undefined =>
  args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined;
const src = args.find((a, i) => !a.startsWith("--") && !["--json", "--baseline"].includes(args[i - 1]));
const jsonIn = flagValue("--json");
const baselineDir = flagValue("--baseline");
if (!src) {
  console.error("usage: npx tsx scripts/rejected-valid.ts FILE_OR_DIR [--json RESULTS]");
  process.exit(2);
}
const isCorpus = (f: string): boolean => f.endsWith(".jsonl") || f.endsWith(".jsonl.br");
const files = isCorpus(src)
  ? [src]
  : readdirSync(src)
      .filter(isCorpus)
      .map((f) => join(src, f));
const only = jsonIn
  ? new Set(
      (JSON.parse(readFileSync(jsonIn, "utf8")) as CorpusResult[])
        .filter((r) => r.outcome === "valid-rejected")
        .map((r) => r.id),
    )
  : baselineDir
    ? new Set(
        readdirSync(baselineDir).flatMap((f) =>
          Object.entries(JSON.parse(readFileSync(join(baselineDir, f), "utf8")) as Record<string, string>)
            .filter(([, outcome]) => outcome === "valid-rejected")
            .map(([id]) => id),
        ),
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
// a folder may hold a sample drawn from its own subsets (the fixtures' sample.jsonl): a schema is listed once
const seen = new Set<string>();
for (const f of files) {
  for (const row of readCorpus(f)) {
    if ((only && !only.has(row.id)) || seen.has(row.id)) continue;
    seen.add(row.id);
    let c: ReturnType<typeof compileSchema>;
    try {
      c = compileSchema(row.schema, { ...CONFORMANCE_OPTIONS, propertyOrder: "any" });
    } catch (e) {
      console.log(`${row.id}\trefused with propertyOrder "any": ${e instanceof Error ? e.message.slice(0, 160) : e}`);
      continue;
    }
    for (const t of row.tests ?? []) {
      const text = canonicalJson(t.data);
      let valid = false;
      try {
        valid = referee.validText(row.schema, text);
      } catch {
        // a schema ajv cannot compile (draft-04's `id`) has no valid instance to list
      }
      if (!valid || c.accepts(text)) continue;
      const kw = [...keywords(row.schema)].filter((k) => /^[a-z$]+[A-Z]?[a-zA-Z]*$/.test(k) && k.length < 22);
      console.log(`${row.id}\t${text.slice(0, 200)}\t${kw.join(",").slice(0, 300)}`);
      break;
    }
  }
}
