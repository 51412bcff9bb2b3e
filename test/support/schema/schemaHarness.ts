import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Diagnostic } from "../../../src/diagnostic.js";
import type { JsonValue } from "../../../src/json.js";
import { type SchemaCompileOptions, resolveSchemaOptions } from "../../../src/options.js";
import type { SchemaIR } from "../../../src/schema/SchemaNode.js";
import { normalizeSchema } from "../../../src/schema/normalizeSchema.js";
import { valueMatches } from "../../../src/schema/valueMatches.js";
import { useDecimalMultipleOf } from "../../../src/conformance/referee.js";

/** Normalizes with the JSON-mode defaults (strict, additionalProperties per spec) unless told otherwise. */
export function norm(schema: unknown, o: SchemaCompileOptions = {}, warnings: Diagnostic[] = []): SchemaIR {
  return normalizeSchema(schema, resolveSchemaOptions(o, { additionalProperties: "spec" }), warnings);
}

/** The IR's verdict on a value. */
export function irAccepts(ir: SchemaIR, v: JsonValue): boolean {
  return valueMatches(ir.root, v, ir.defs);
}

const addFormats = addFormatsModule as unknown as (a: Ajv2020) => Ajv2020;

/** ajv (draft 2020-12, ajv-formats), the referee. */
export function makeAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  // the spec's multipleOf, as the referee reads it
  useDecimalMultipleOf(ajv);
  return ajv;
}

/** Runs `fn` and returns the thrown error (fails when nothing is thrown). */
export function thrown(fn: () => unknown): Error & { code?: string; schemaPath?: string } {
  try {
    fn();
  } catch (e) {
    return e as Error & { code?: string; schemaPath?: string };
  }
  throw new Error("expected an error");
}
