import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectedGrammars, GRAMMARS_DIR } from "../../scripts/grammars.js";

describe("committed grammars/", () => {
  const expected = expectedGrammars();

  it("has one grammar per example tool set", () => {
    expect(expected.size).toBeGreaterThanOrEqual(4);
  });

  it.each([...expected.keys()])("%s is current (run `npm run grammars` after changing the compiler)", (file) => {
    const path = join(GRAMMARS_DIR, file);
    expect(existsSync(path), `grammars/${file} is missing: run npm run grammars`).toBe(true);
    expect(readFileSync(path, "utf8") === expected.get(file), `grammars/${file} is stale: run npm run grammars`).toBe(
      true,
    );
  });
});
