import { InvalidSchemaError } from "../errors.js";
import { childPath } from "../util/jsonPointer.js";

/** Typed reads of keyword values; a wrong type is INVALID_SCHEMA naming the keyword's path. */
export class KeywordReader {
  constructor(
    readonly s: Record<string, unknown>,
    readonly path: string,
  ) {}

  has(k: string): boolean {
    return Object.hasOwn(this.s, k) && this.s[k] !== undefined;
  }

  fail(k: string, what: string): never {
    throw new InvalidSchemaError(
      "INVALID_SCHEMA",
      `"${k}" must be ${what}, got ${JSON.stringify(this.s[k])}`,
      childPath(this.path, k),
    );
  }

  count(k: string): number | undefined {
    if (!this.has(k)) return undefined;
    const v = this.s[k];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) this.fail(k, "a non-negative integer");
    return v;
  }

  num(k: string): number | undefined {
    if (!this.has(k)) return undefined;
    const v = this.s[k];
    if (typeof v !== "number" || !Number.isFinite(v)) this.fail(k, "a number");
    return v;
  }

  str(k: string): string | undefined {
    if (!this.has(k)) return undefined;
    const v = this.s[k];
    if (typeof v !== "string") this.fail(k, "a string");
    return v;
  }

  bool(k: string): boolean | undefined {
    if (!this.has(k)) return undefined;
    const v = this.s[k];
    if (typeof v !== "boolean") this.fail(k, "a boolean");
    return v;
  }

  strings(k: string): string[] | undefined {
    if (!this.has(k)) return undefined;
    const v = this.s[k];
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) this.fail(k, "an array of strings");
    return v as string[];
  }

  /** A subschema: an object or a boolean. */
  schema(k: string): unknown {
    if (!this.has(k)) return undefined;
    const v = this.s[k];
    if (typeof v !== "boolean" && (typeof v !== "object" || v === null || Array.isArray(v)))
      this.fail(k, "a schema (object or boolean)");
    return v;
  }

  schemaArray(k: string): unknown[] | undefined {
    if (!this.has(k)) return undefined;
    const v = this.s[k];
    if (!Array.isArray(v) || v.length === 0) this.fail(k, "a non-empty array of schemas");
    return v as unknown[];
  }

  schemaMap(k: string): Record<string, unknown> | undefined {
    if (!this.has(k)) return undefined;
    const v = this.s[k];
    if (typeof v !== "object" || v === null || Array.isArray(v)) this.fail(k, "an object whose values are schemas");
    return v as Record<string, unknown>;
  }
}
