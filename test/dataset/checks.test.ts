/**
 * One fixture row per check (test/fixtures/datasets/checks.jsonl, expectations beside it): each bad row is reported
 * with exactly its code, good rows with none.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { validateDatasetFile } from "../../src/node.js";

const dir = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/datasets");
const expected = JSON.parse(readFileSync(join(dir, "checks.expected.json"), "utf8")) as {
  line: number;
  note: string;
  codes: string[];
}[];

describe("dataset checks", async () => {
  const report = await validateDatasetFile(join(dir, "checks.jsonl"));
  for (const e of expected) {
    it(`line ${e.line}: ${e.note} → ${e.codes.join(", ") || "no issue"}`, () => {
      const got = [...new Set(report.issues.filter((i) => i.row === e.line).map((i) => i.code))].sort();
      expect(got).toEqual([...e.codes].sort());
    });
  }
  it("locates issues: message index and JSON pointer", () => {
    const bad = report.issues.find((i) => i.code === "INVALID_ARGUMENTS");
    expect(bad).toMatchObject({ messageIndex: 1, pointer: "/messages/1/tool_calls/0/function", instancePath: "/days" });
  });
  it("exits with errors and a receipt tied to the tools", () => {
    expect(report.errors).toBeGreaterThan(0);
    expect(report.receipt.rows).toBe(expected.length);
    expect(report.receipt.fileSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.receipt.issueCounts.DUPLICATE_ROW).toBe(1);
  });
});
