import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { InstanceTest } from "./judgeSchema.js";

export interface SuiteCase {
  /** `<file without .json>` relative to the draft folder, e.g. "allOf" or "optional/format/date". */
  file: string;
  description: string;
  schema: unknown;
  tests: (InstanceTest & { description: string })[];
}

const DRAFT7_URI = "http://json-schema.org/draft-07/schema#";

/**
 * Reads one draft folder of the official JSON-Schema-Test-Suite. Draft-7 schemas without `$schema` get it, so that
 * the compiler applies draft-7 semantics (array `items`, `definitions`, `dependencies`).
 */
export function loadTestSuite(draftDir: string, draft: "draft2020-12" | "draft7"): SuiteCase[] {
  const out: SuiteCase[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".json")) {
        const file = relative(draftDir, p)
          .replace(/\\/g, "/")
          .replace(/\.json$/, "");
        const cases = JSON.parse(readFileSync(p, "utf8")) as {
          description: string;
          schema: unknown;
          tests: (InstanceTest & { description: string })[];
        }[];
        for (const c of cases) {
          let schema = c.schema;
          if (draft === "draft7" && typeof schema === "object" && schema !== null && !("$schema" in schema)) {
            schema = { $schema: DRAFT7_URI, ...(schema as object) };
          }
          out.push({ file, description: c.description, schema, tests: c.tests });
        }
      }
    }
  };
  walk(draftDir);
  return out;
}

/** Stable id of one test: file, case and test descriptions (as llguidance's expectation file keys them). */
export function testKey(file: string, caseDescription: string, testDescription: string): string {
  return `${file} | ${caseDescription} | ${testDescription}`;
}
