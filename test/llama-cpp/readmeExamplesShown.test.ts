import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The llama.cpp examples run by test/llama-cpp/readmeExamples.long.test.ts (the regions between its `example:`
 * markers) are the ones the docs show: docs/llama-cpp.md both, verbatim, the README the llama-server one. Checked in
 * the quick tier, so an edit of either side that breaks the match fails npm test, not only the long tier.
 */
const root = join(import.meta.dirname, "..", "..");

/** The example's lines between its markers, unindented. */
function exampleBody(source: string, name: string): string {
  const start = source.indexOf(`// example: ${name}\n`);
  expect(start, `the ${name} example's marker`).toBeGreaterThanOrEqual(0);
  const end = source.indexOf("// end example", start);
  const lines = source.slice(start, end).split("\n").slice(1);
  const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => l.length - l.trimStart().length));
  return lines
    .map((l) => l.slice(indent))
    .join("\n")
    .trimEnd();
}

describe("the llama.cpp examples the docs show", () => {
  it("docs/llama-cpp.md shows both run examples verbatim, the README the llama-server one", () => {
    const source = readFileSync(join(import.meta.dirname, "readmeExamples.long.test.ts"), "utf8");
    const page = readFileSync(join(root, "docs", "llama-cpp.md"), "utf8");
    const readme = readFileSync(join(root, "README.md"), "utf8");
    for (const name of ["node-llama-cpp", "llama-server"]) {
      const body = exampleBody(source, name);
      expect(page, `docs/llama-cpp.md is missing the ${name} example`).toContain(body);
      if (name === "llama-server") expect(readme, `README is missing the ${name} example`).toContain(body);
    }
  });
});
