/** The project's JSONSchemaBench sample (test/fixtures/jsonschemabench), read once per process. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileSchema } from "../../src/compile.js";
import { readCorpus, type CorpusRow } from "../../src/conformance/judgeCorpus.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";

export const SAMPLE_PATH = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "jsonschemabench", "sample.jsonl");

let rows: readonly CorpusRow[] | undefined;

/** Every row of the sample, in its order. */
export function sampleRows(): readonly CorpusRow[] {
  return (rows ??= readCorpus(SAMPLE_PATH));
}

/** The row with this id; throws when the sample has none. */
export function sampleRow(id: string): CorpusRow {
  const row = sampleRows().find((r) => r.id === id);
  if (row === undefined) throw new Error(`${id} is not in the JSONSchemaBench sample`);
  return row;
}

/** A row's schema with the canonical text of its first valid instance the compiled grammar accepts. */
export interface DecodableCase {
  id: string;
  schema: JsonValue;
  text: string;
}

/**
 * The row as a case to decode, or undefined when its schema does not compile or no valid instance is in the compiled
 * language (the bench skips those too: conformance counts them).
 */
export function decodableCase(row: CorpusRow): DecodableCase | undefined {
  let compiled;
  try {
    compiled = compileSchema(row.schema);
  } catch {
    return undefined;
  }
  const valid = row.tests.find((t) => t.valid && compiled.accepts(canonicalJson(t.data)));
  return valid && { id: row.id, schema: row.schema as JsonValue, text: canonicalJson(valid.data) };
}
