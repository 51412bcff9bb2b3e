import type { JsonObject } from "../json.js";

/** What conversions need from a call (a parsed call has more; the extra fields are ignored). */
export interface ConvertibleCall {
  name: string;
  arguments: JsonObject;
  id?: string;
}

/** The id of the call at `index`: its own, else a deterministic one (same input, same ids). */
export function callId(call: ConvertibleCall, index: number, prefix: string): string {
  return call.id ?? `${prefix}${index.toString().padStart(4, "0")}`;
}
