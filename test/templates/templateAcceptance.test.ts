/**
 * The acceptance harness over every chat template in llama.cpp's models/templates (issue 12's first acceptance item):
 * for each template that renders tool calls, the format it names is described, and its 1- and 2-call turns (and with
 * reasoning where it shows reasoning) are accepted by the compiled grammar from the assistant turn's start, parse
 * strictly into exactly the probe's calls, and render back byte for byte (src/testing/templateAcceptance.ts).
 *
 * Ratchet: the templates listed in template-acceptance.expected.json must pass; a template that newly passes is
 * printed (add it to the list). The whole table is printed, and `npm run templates:acceptance` writes it to
 * docs/template-acceptance.md.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";
import {
  acceptanceTable,
  checkTemplateAcceptance,
  type TemplateAcceptance,
} from "../../src/testing/templateAcceptance.js";
import { listTemplates } from "../../scripts/templates-acceptance.js";

const EXPECTED = JSON.parse(readFileSync(new URL("./template-acceptance.expected.json", import.meta.url), "utf8")) as {
  pass: string[];
};

const source = await llamaCppSource();

describe.skipIf(source === undefined)(
  "every llama.cpp chat template: grammar, strict parse and render agree with the template",
  () => {
    let results: TemplateAcceptance[] = [];
    beforeAll(() => {
      results = listTemplates(source!.dir).map(({ name, text }) => checkTemplateAcceptance(name, text));
      console.log(`template acceptance (llama.cpp ${source!.tag}):\n${acceptanceTable(results)}`);
    }, 300_000);

    it("finds the templates", () => {
      expect(results.length).toBeGreaterThan(60);
    });

    it("every template listed as passing still passes", () => {
      const byName = new Map(results.map((r) => [r.template, r]));
      const regressions = EXPECTED.pass.flatMap((t) => {
        const r = byName.get(t);
        return r?.status === "pass" ? [] : [`${t}: ${r === undefined ? "missing" : `${r.status}: ${r.reason}`}`];
      });
      expect(regressions).toEqual([]);
      const fresh = results
        .filter((r) => r.status === "pass" && !EXPECTED.pass.includes(r.template))
        .map((r) => r.template);
      if (fresh.length > 0)
        console.log(`newly passing (add to test/templates/template-acceptance.expected.json): ${fresh.join(", ")}`);
    });

    it("a failure always says why", () => {
      for (const r of results) if (r.status !== "pass") expect(r.reason, r.template).not.toBe("");
    });
  },
);

if (source === undefined) {
  describe("template acceptance", () => {
    it.skip("skipped: llama.cpp's source is not available (node-llama-cpp's bundled llama.cpp or git is missing)", () => {});
  });
}
