import { sha256 as sha256Bytes } from "@noble/hashes/sha2";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils";
import { canonicalJson, type JsonValue } from "../json.js";
import type { NormalizedTool } from "./NormalizedTool.js";

/**
 * sha256 (hex) of the canonical JSON of what determines a grammar: each tool's name and normalized parameters, in
 * order. Descriptions are excluded on purpose: editing a description does not change the grammar, so caches keyed by
 * this hash stay valid. Key order is kept (properties are emitted in declaration order, so it matters).
 */
export function toolsHash(tools: readonly NormalizedTool[]): string {
  return sha256Hex(canonicalJson(tools.map((t) => ({ name: t.name, parameters: t.parameters }))));
}

/** sha256 (hex) of the canonical JSON of a schema. */
export function schemaHash(schema: JsonValue): string {
  return sha256Hex(canonicalJson(schema));
}

/** sha256 (hex) of a string's UTF-8 bytes: pure JS and synchronous (no node:crypto), so it runs in browsers and workers. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256Bytes(utf8ToBytes(text)));
}
