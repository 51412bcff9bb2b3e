/**
 * The wider template corpus (test/fixtures/templates-wider: serving engines' and fine-tuning frameworks' tool chat
 * templates, beyond llama.cpp's models/templates), checked by scripts/templates-wider-report.ts: every template that
 * rendered the probe's calls still does, every template detected (a described format, or one derived from the
 * template) still is, and every template whose own renderings were accepted, or parsed back into the same calls, still
 * are (a ratchet: templates-wider.expected.json lists them; a template that newly passes a step is printed).
 */
import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  checkWiderTemplate,
  listWiderTemplates,
  type WiderResult,
  widerCounts,
  widerManifest,
  widerTable,
  widerTemplatePath,
  widerTemplatesDirs,
} from "../../scripts/templates-wider-report.js";

const EXPECTED = JSON.parse(readFileSync(new URL("./templates-wider.expected.json", import.meta.url), "utf8")) as {
  renderCalls: string[];
  detected: string[];
  accepted: string[];
  parsedBack: string[];
};

const dirs = widerTemplatesDirs();
if (dirs.length === 0)
  console.warn(
    "test/templates/templatesWider: skipped — set TOOLGRAM_WIDER_TEMPLATES to the folder (or `:`-separated folders) of the templates",
  );

describe("the wider template corpus's provenance", () => {
  it("names, for every template, its repository, commit and license", () => {
    const entries = widerManifest();
    expect(entries.length).toBeGreaterThan(0);
    for (const t of entries) {
      expect(t.repo, t.file).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(t.commit, t.file).toMatch(/^[0-9a-f]{40}$/);
      expect(t.license, t.file).toMatch(/^(Apache-2\.0|MIT)$/);
    }
  });
});

describe.skipIf(dirs.length === 0)("the wider template corpus", () => {
  const templates = dirs.length === 0 ? [] : listWiderTemplates(dirs);
  let results: WiderResult[] = [];
  beforeAll(() => {
    results = templates.map((t) => checkWiderTemplate(t.file, t.text));
    console.log(`wider template corpus:\n${widerTable(results)}`);
  }, 300_000);

  it("every manifest entry has its file in one of the folders", () => {
    for (const t of templates) expect(existsSync(widerTemplatePath(t.file, dirs)), t.file).toBe(true);
    for (const t of templates) expect(t.text.length, t.file).toBeGreaterThan(0);
  });

  it("every template listed as rendering calls still renders them", () => {
    const rendering = results.filter((r) => r.renders === "calls").map((r) => r.file);
    expect(rendering).toEqual(expect.arrayContaining(EXPECTED.renderCalls));
    const extra = rendering.filter((f) => !EXPECTED.renderCalls.includes(f));
    if (extra.length > 0) console.log(`newly rendering calls (add to the expected list): ${extra.join(", ")}`);
  });

  it("every template listed as detected (a described or derived format) still is", () => {
    const detected = results.filter((r) => r.format !== "").map((r) => r.file);
    expect(detected).toEqual(expect.arrayContaining(EXPECTED.detected));
    const extra = detected.filter((f) => !EXPECTED.detected.includes(f));
    if (extra.length > 0) console.log(`newly detected (add to the expected list): ${extra.join(", ")}`);
  });

  it("every template listed as accepted still has its own renderings accepted by the grammar", () => {
    const accepted = results.filter((r) => r.accepted).map((r) => r.file);
    expect(accepted).toEqual(expect.arrayContaining(EXPECTED.accepted));
    const extra = accepted.filter((f) => !EXPECTED.accepted.includes(f));
    if (extra.length > 0) console.log(`newly accepted (add to the expected list): ${extra.join(", ")}`);
  });

  it("every template listed as parsing back still parses back into the same calls", () => {
    const back = results.filter((r) => r.parsedBack).map((r) => r.file);
    expect(back).toEqual(expect.arrayContaining(EXPECTED.parsedBack));
    const extra = back.filter((f) => !EXPECTED.parsedBack.includes(f));
    if (extra.length > 0) console.log(`newly parsing back (add to the expected list): ${extra.join(", ")}`);
  });

  it("the counts are consistent: parsed back ⊆ accepted ⊆ detected ⊆ rendering calls", () => {
    const c = widerCounts(results);
    expect(c.templates).toBe(templates.length);
    expect(c.parsedBack).toBeLessThanOrEqual(c.accepted);
    expect(c.accepted).toBeLessThanOrEqual(c.detected);
    expect(c.detected).toBeLessThanOrEqual(c.renderCalls);
  });
});
