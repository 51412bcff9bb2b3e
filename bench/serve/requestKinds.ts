import type { ServeToolSet } from "./toolSets.js";

/** The request kinds compared: what `tool_choice` / `parallel_tool_calls` ask of the endpoint. */
export const REQUEST_KINDS = ["auto", "required", "named", "parallel false"] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** The request fields of a kind, for a tool set. `parallel false` is asked together with `required`, so it shows. */
export function kindFields(kind: RequestKind, set: ServeToolSet): Record<string, unknown> {
  switch (kind) {
    case "auto":
      return { tool_choice: "auto" };
    case "required":
      return { tool_choice: "required" };
    case "named":
      return { tool_choice: { type: "function", function: { name: set.named } } };
    case "parallel false":
      return { tool_choice: "required", parallel_tool_calls: false };
  }
}
