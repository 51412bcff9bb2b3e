import type { Diagnostic } from "../diagnostic.js";

/** The response headers naming the tools `onRefusedTool` left out or relaxed (see ServeOptions.onRefusedTool). */
export const DROPPED_TOOLS_HEADER = "X-Toolgram-Dropped-Tools";
export const RELAXED_TOOLS_HEADER = "X-Toolgram-Relaxed-Tools";

/**
 * The dropped and relaxed tools of a grammar's warnings, as headers whose value is a JSON array of the tools' names
 * (JSON because a name may hold a comma; non-ASCII escaped as `\uXXXX`, because a header value is Latin-1 only). A
 * header is absent when its list is empty.
 */
export function refusedToolHeaders(warnings: readonly Diagnostic[]): {
  headers: Record<string, string>;
  dropped: number;
  relaxed: number;
} {
  const named = (code: string): string[] =>
    warnings.filter((w) => w.code === code && w.tool !== undefined).map((w) => w.tool as string);
  const dropped = named("TOOL_DROPPED");
  const relaxed = named("TOOL_RELAXED");
  const headers: Record<string, string> = {};
  if (dropped.length > 0) headers[DROPPED_TOOLS_HEADER] = asciiJson(dropped);
  if (relaxed.length > 0) headers[RELAXED_TOOLS_HEADER] = asciiJson(relaxed);
  return { headers, dropped: dropped.length, relaxed: relaxed.length };
}

function asciiJson(names: readonly string[]): string {
  return JSON.stringify(names).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
