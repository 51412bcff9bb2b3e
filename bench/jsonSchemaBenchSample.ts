/**
 * The project's JSONSchemaBench sample (test/fixtures/jsonschemabench), read once per process through the
 * conformance suite's `readCorpus`: the one reader of the bench scripts and the tests.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileSchema } from "../src/compile.js";
import { readCorpus, type CorpusRow } from "../src/conformance/judgeCorpus.js";
import type { InstanceTest } from "../src/conformance/judgeSchema.js";
import { canonicalJson, type JsonValue } from "../src/json.js";

export const SAMPLE_PATH = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "test",
  "fixtures",
  "jsonschemabench",
  "sample.jsonl",
);

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

/** The first `n` rows of the sample, in order, that are decodable cases (see decodableCase). */
export function firstDecodableCases(n: number): DecodableCase[] {
  const out: DecodableCase[] = [];
  for (const row of sampleRows()) {
    if (out.length >= n) break;
    const c = decodableCase(row);
    if (c) out.push(c);
  }
  return out;
}

/** A schema of the mask bench (`bench/run.ts`'s JSONSchemaBench workload) with its valid instances. */
export interface BenchSchema {
  id: string;
  schema: JsonValue;
  /** The schema's JSON text, as XGrammar is given it. */
  schemaText: string;
  /** Its first valid instances, in the sample's order (not checked against the compiled language: the bench skips those it rejects). */
  valid: InstanceTest[];
}

/** Longer schema texts are left out: they keep XGrammar's pathological compiles (> 20 s) out of the run. */
const MAX_SCHEMA_TEXT = 3000;

/**
 * The bench's schemas: the first `maxSchemas` rows, in the sample's order, whose schema text is at most 3,000
 * characters, that have a valid instance and that compile (a refusal, strict mode, is counted by the conformance
 * suite, not here), each with its first `maxInstances` valid instances.
 */
export function benchSchemas(maxSchemas: number, maxInstances: number): BenchSchema[] {
  const out: BenchSchema[] = [];
  for (const row of sampleRows()) {
    if (out.length >= maxSchemas) break;
    const schemaText = JSON.stringify(row.schema);
    if (schemaText.length > MAX_SCHEMA_TEXT) continue;
    const valid = row.tests.filter((t) => t.valid).slice(0, maxInstances);
    if (valid.length === 0) continue;
    try {
      compileSchema(row.schema);
    } catch {
      continue;
    }
    out.push({ id: row.id, schema: row.schema as JsonValue, schemaText, valid });
  }
  return out;
}
