import type { Diagnostic } from "../diagnostic.js";
import type { ToolgramError } from "../errors.js";

/** `toolgram: CODE at PATH: message` (the path part only when there is one). */
export function formatError(e: ToolgramError): string {
  const suffix = ` (at ${e.schemaPath || "/"})`;
  const bare = e.schemaPath && e.message.endsWith(suffix) ? e.message.slice(0, -suffix.length) : e.message;
  return `toolgram: ${e.code}${e.schemaPath ? ` at ${e.schemaPath}` : ""}: ${bare}`;
}

/** `toolgram: warning CODE at PATH: message`. */
export function formatWarning(d: Diagnostic): string {
  return `toolgram: warning ${d.code}${d.schemaPath ? ` at ${d.schemaPath}` : ""}: ${d.message}`;
}
