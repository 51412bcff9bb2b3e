/**
 * The validator on real fine-tuning samples (test/fixtures/finetune, with provenance). The human report is
 * committed as the expected result and was reviewed; `UPDATE_EXPECTED=1` rewrites it after a reviewed change.
 */
import { expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { validateDatasetFile } from "../../src/node.js";
import { formatReport } from "../../src/cli/commands/validateDataset.js";

const here = dirname(fileURLToPath(import.meta.url));

for (const name of ["glaive_toolcall_en_demo.json", "llamafactory_reason_tool_use_demo_50.jsonl"]) {
  it(`report on ${name} matches the reviewed one`, async () => {
    const r = await validateDatasetFile(join(here, "../fixtures/finetune", name));
    const text = `${formatReport(r)}\n\nreceipt: ${JSON.stringify(r.receipt, null, 1)}\n`;
    const expectedPath = join(here, `expected-${name.replace(/\.jsonl?$/, "")}.txt`);
    if (process.env.UPDATE_EXPECTED || !existsSync(expectedPath)) writeFileSync(expectedPath, text);
    expect(text).toBe(readFileSync(expectedPath, "utf8"));
  });
}
