import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FORMAT_DESCRIPTIONS } from "../../src/formats/descriptions.js";
import { FORMATS_TABLE_END, FORMATS_TABLE_START, formatsTable } from "../../src/formats/formatsTable.js";

describe("README formats table", () => {
  it("is the table generated from the descriptions (npx tsx scripts/formats-table.ts rewrites it)", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const start = readme.indexOf(FORMATS_TABLE_START);
    const end = readme.indexOf(FORMATS_TABLE_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    expect(readme.slice(start + FORMATS_TABLE_START.length, end).trim()).toBe(formatsTable());
  });

  it("has a row, a family and every alias of every format", () => {
    const t = formatsTable();
    for (const d of Object.values(FORMAT_DESCRIPTIONS)) {
      expect(d.family).not.toBe("");
      const row = t.split("\n").find((l) => l.startsWith(`| \`${d.name}\` |`));
      expect(row, d.name).toBeDefined();
      for (const a of d.aliases) expect(row).toContain(`\`${a}\``);
    }
  });
});
