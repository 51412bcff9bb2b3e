/**
 * Draws the stratified JSONSchemaBench sample committed under test/fixtures/jsonschemabench/.
 * Usage: tsx scripts/sample-jsonschemabench.ts <jsonschemabench dir> [out file]
 * Per subset: 12 % of its schemas (at least 20, or all when fewer), chosen by a hash of the id so the sample is
 * stable when the corpus grows.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const out = process.argv[3] ?? "test/fixtures/jsonschemabench/sample.jsonl";
if (!dir) {
  console.error("usage: tsx scripts/sample-jsonschemabench.ts <jsonschemabench dir> [out]");
  process.exit(2);
}
const rows: string[] = [];
for (const f of readdirSync(dir)
  .filter((f) => f.endsWith(".jsonl"))
  .sort()) {
  const lines = readFileSync(join(dir, f), "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const keyed = lines.map((l) => ({
    l,
    k: createHash("sha256")
      .update((JSON.parse(l) as { id: string }).id)
      .digest("hex"),
  }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const n = Math.min(lines.length, Math.max(20, Math.round(lines.length * 0.12)));
  rows.push(...keyed.slice(0, n).map((x) => x.l));
  console.log(`${f}: ${n} of ${lines.length}`);
}
writeFileSync(out, `${rows.join("\n")}\n`);
console.log(`${rows.length} schemas → ${out}`);
