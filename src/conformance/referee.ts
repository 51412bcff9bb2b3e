import { Ajv2020 } from "ajv/dist/2020.js";
import AjvDraft7 from "ajv";
import addFormatsImport from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { isDecimalMultiple } from "../schema/isDecimalMultiple.js";

// ajv-formats is CommonJS; under NodeNext its default import is the module object in some loaders.
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as (
  a: unknown,
) => void;

/**
 * ajv as the referee: JSON Schema validation with formats asserted (ajv-formats, "full" mode), draft 2020-12 unless
 * the schema's `$schema` names draft-07. Validators are cached per schema object. One departure from ajv:
 * `multipleOf` is checked in decimal arithmetic, as the spec defines it (ajv divides doubles, so it calls 0.07 no
 * multiple of 0.01); toolgram's grammars enforce the spec's reading.
 */
export class Referee {
  private readonly a2020 = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly a7 = new (AjvDraft7 as unknown as typeof Ajv2020)({
    strict: false,
    allErrors: false,
    validateFormats: true,
  });
  /** draft-03/04: the schema's identifier is `id` (ajv's draft-07 vocabulary otherwise throws on it). */
  private readonly a4 = new (AjvDraft7 as unknown as typeof Ajv2020)({
    strict: false,
    allErrors: false,
    validateFormats: true,
    schemaId: "id",
  });
  private readonly cache = new WeakMap<object, ValidateFunction>();

  constructor() {
    for (const a of [this.a2020, this.a7, this.a4]) {
      addFormats(a);
      useDecimalMultipleOf(a);
    }
    this.a4.removeKeyword("id");
  }

  validator(schema: unknown): ValidateFunction {
    if (typeof schema === "boolean") return (schema ? () => true : () => false) as unknown as ValidateFunction;
    const obj = schema as { $schema?: string; $async?: unknown };
    // ajv validates `$async` schemas through a Promise: no synchronous verdict to referee with
    if (obj.$async === true) throw new Error("an $async schema has no synchronous ajv verdict");
    let v = this.cache.get(obj);
    if (!v) {
      const draft = typeof obj.$schema === "string" ? /draft-0([3-7])/.exec(obj.$schema)?.[1] : undefined;
      if (draft === undefined) v = this.a2020.compile(obj as object);
      else {
        // draft-03..07 are read with ajv's draft-07 validator (ajv has no older meta-schemas loaded): the keywords
        // these corpora use mean the same there, except that draft-03/04 name a schema's identifier `id`
        const { $schema: _drop, ...rest } = obj as Record<string, unknown>;
        void _drop;
        v = (draft === "3" || draft === "4" ? this.a4 : this.a7).compile(rest);
      }
      this.cache.set(obj, v);
    }
    return v;
  }

  /** Validates the value that `text` parses to. Unparseable text is invalid. */
  validText(schema: unknown, text: string): boolean {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
    return this.validator(schema)(value) === true;
  }
}

/** Replaces ajv's floating-point `multipleOf` with the spec's decimal one (see isDecimalMultiple). */
export function useDecimalMultipleOf(a: Ajv2020): void {
  a.removeKeyword("multipleOf");
  a.addKeyword({
    keyword: "multipleOf",
    type: "number",
    schemaType: "number",
    errors: false,
    validate: (m: number, v: number) => isDecimalMultiple(v, m),
  });
}
