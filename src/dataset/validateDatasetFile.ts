import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { DatasetValidator } from "./DatasetValidator.js";
import { readRows } from "./readRows.js";
import { collector, type DatasetReport, report, type ValidateOptions } from "./validateDataset.js";

// Node-only (it reads a file): exported from `toolgram/node`, never from the isomorphic root entry.

/** Validates a JSONL file (or a JSON array file), streaming it; memory stays flat in file size. */
export async function validateDatasetFile(
  path: string,
  options: ValidateOptions & { onProgress?: (bytes: number) => void } = {},
): Promise<DatasetReport> {
  const v = new DatasetValidator(options);
  const c = collector(options.maxIssues ?? 1000);
  for await (const { line, text } of readRows(path, options.onProgress)) {
    const o = v.addText(text, line);
    c.take(o);
    if (options.onRow) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      options.onRow(o, text, value);
    }
  }
  return report(v, c.issues, c.totals, options.template ?? "qwen3", await sha256File(path));
}

async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}
