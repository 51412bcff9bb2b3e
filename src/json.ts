/** A JSON scalar. Exported from `toolgram` beside {@link JsonValue}, which is built from it. */
export type JsonPrimitive = null | boolean | number | string;
/** Any JSON value (what `JSON.parse` returns). */
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object: string keys to {@link JsonValue}s. */
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The canonical text of a JSON value: Python's `json.dumps(value, ensure_ascii=False)` (separators `", "` and
 * `": "`, no newlines), which is how Qwen3's chat template and the MaskBench method spell JSON. Numbers use
 * JavaScript's shortest round-trip form (JSON.parse cannot tell `1.0` from `1`, so neither can we).
 * `-0` is written `-0`, as Python writes `-0.0`'s integer-valued twin; NaN/Infinity are not JSON and throw.
 */
export function canonicalJson(value: JsonValue): string {
  switch (typeof value) {
    case "string":
      return quoteJsonString(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`not a JSON number: ${value}`);
      return Object.is(value, -0) ? "-0" : String(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(", ")}]`;
      return (
        "{" +
        Object.entries(value)
          .map(([k, v]) => `${quoteJsonString(k)}: ${canonicalJson(v)}`)
          .join(", ") +
        "}"
      );
    default:
      throw new TypeError(`not a JSON value: ${typeof value}`);
  }
}

/**
 * `value` as Python's `json.dumps(value, indent=width, ensure_ascii=False)` writes it when the value sits at nesting
 * depth `depth` (its members indented `(depth + 1) * width` spaces, its closing bracket `depth * width`): scalars and
 * empty containers as canonicalJson writes them.
 */
export function indentedJson(value: JsonValue, width: number, depth = 0): string {
  if (typeof value !== "object" || value === null) return canonicalJson(value);
  const inner = `\n${" ".repeat(width * (depth + 1))}`;
  const close = `\n${" ".repeat(width * depth)}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[${inner}${value.map((v) => indentedJson(v, width, depth + 1)).join(`,${inner}`)}${close}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return (
    "{" +
    inner +
    entries.map(([k, v]) => `${quoteJsonString(k)}: ${indentedJson(v, width, depth + 1)}`).join(`,${inner}`) +
    close +
    "}"
  );
}

const SHORT_ESCAPES: Record<number, string> = {
  34: '\\"',
  92: "\\\\",
  10: "\\n",
  13: "\\r",
  9: "\\t",
  8: "\\b",
  12: "\\f",
};

/** A string as JSON text, escaping like Python's json.dumps(ensure_ascii=False). Lone surrogates become \\uXXXX. */
export function quoteJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const short = SHORT_ESCAPES[c];
    if (short !== undefined) out += short;
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else if (
      c >= 0xd800 &&
      c <= 0xdbff &&
      i + 1 < s.length &&
      s.charCodeAt(i + 1) >= 0xdc00 &&
      s.charCodeAt(i + 1) <= 0xdfff
    ) {
      out += s[i] + s[i + 1];
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += s[i];
  }
  return `${out}"`;
}
