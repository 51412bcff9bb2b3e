import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FORMAT_DESCRIPTIONS } from "../../src/formats/descriptions.js";
import { FORMATS_TABLE_END, FORMATS_TABLE_START, formatsTable } from "../../src/formats/formatsTable.js";

describe("the formats table of docs/formats.md", () => {
  it("is the table generated from the descriptions (npx tsx scripts/formats-table.ts rewrites it)", () => {
    const page = readFileSync(new URL("../../docs/formats.md", import.meta.url), "utf8");
    const start = page.indexOf(FORMATS_TABLE_START);
    const end = page.indexOf(FORMATS_TABLE_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    expect(page.slice(start + FORMATS_TABLE_START.length, end).trim()).toBe(formatsTable());
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
