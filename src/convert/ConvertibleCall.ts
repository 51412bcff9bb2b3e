import type { JsonObject } from "../json.js";

/**
 * What conversions need from a call (a parsed call has more; the extra fields are ignored). Exported from `toolgram`:
 * the `from…` conversions return it and the `to…` conversions take it, so users name it.
 */
export interface ConvertibleCall {
  /** The called tool's name. */
  name: string;
  /** The call's arguments object. */
  arguments: JsonObject;
  /** The call's id; when absent, the `to…` conversions mint one from the call's position. */
  id?: string;
}

/** The id of the call at `index`: its own, else a deterministic one (same input, same ids). */
export function callId(call: ConvertibleCall, index: number, prefix: string): string {
  return call.id ?? `${prefix}${index.toString().padStart(4, "0")}`;
}
