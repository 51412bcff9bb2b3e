import { UnsupportedSchemaError } from "../../errors.js";
import type { RNode } from "../../regex/RegexNode.js";
import { formatSource } from "../../schema/formatSources.js";
import { resolveLookarounds } from "../../regex/resolveLookarounds.js";
import { parsePattern } from "./parsePattern.js";

/**
 * `format` support: each supported name maps to the language of the whole string (no anchors) from
 * `schema/formatSources.ts`: the strings valid under both ajv-formats ("full" mode) and the format's standard
 * grammar (RFC 3986, 3339, 1123, 4291...), never wider than ajv-formats. Letters fold ASCII-only where the source
 * says so (as ajv's non-unicode `i` flag does).
 */
export const STRING_FORMATS: readonly string[] = Object.freeze([
  "date",
  "time",
  "date-time",
  "iso-time",
  "iso-date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
  "json-pointer",
  "json-pointer-uri-fragment",
  "relative-json-pointer",
  "byte",
  "password",
  "binary",
  "int32",
  "int64",
  "float",
  "double",
]);

/** Formats that constrain numbers only, or nothing: a string always satisfies them (as in ajv). */
const NO_CONSTRAINT = new Set(["password", "binary", "int32", "int64", "float", "double"]);

const cache = new Map<string, RNode>();

function fromSource(name: string, source: string, ignoreCase: boolean): RNode {
  let n = cache.get(name);
  if (!n) {
    // `url`'s negative lookaheads (no private IPv4 hosts) become intersections with complements
    n = resolveLookarounds(parsePattern(source, "", { asciiIgnoreCase: ignoreCase }), source, "");
    cache.set(name, n);
  }
  return n;
}

/**
 * The whole-string language of `format`, or `null` when the format does not constrain strings. `hostname`'s
 * 253-character total is a length bound the caller applies. Throws UNSUPPORTED_FORMAT for what is not supported.
 */
export function formatRegex(name: string, path: string): RNode | null {
  if (NO_CONSTRAINT.has(name)) return null;
  const source = formatSource(name);
  if (source) return fromSource(name, source.source, source.ignoreCase);
  throw new UnsupportedSchemaError(
    "UNSUPPORTED_FORMAT",
    `format "${name}" is not supported for strings (supported: ${STRING_FORMATS.join(", ")}); remove it, or compile with strict: false to ignore it`,
    path,
  );
}
