import { ToolgramError } from "../errors.js";
import { isJsonObject } from "../json.js";

/**
 * Which calls the model may make. `"auto"`: text and/or calls; `"required"`: at least one call; `"none"`: text
 * only; a tool name, or OpenAI's `{type: "function", function: {name}}`: calls of that tool only (at least one).
 */
export type ToolChoice =
  | "auto"
  | "required"
  | "none"
  | string
  | { type: "function"; function: { name: string } }
  /**
   * A subset of the declared tools (XGrammar's and OpenAI's "allowed tools"): calls of those only; `mode`
   * `"auto"` (the default) lets the model answer in text, `"required"` asks for at least one call.
   */
  | { allowed: readonly string[]; mode?: "auto" | "required" };

/** How many calls one turn may hold: `true` unbounded, `false` one, N at most N. */
export type ParallelOption = boolean | number;

/** The resolved policy an envelope builds its grammar from. */
export interface CallPolicy {
  /** At least one call (`required` and named choices). */
  minCalls: 0 | 1;
  /** `null`: unbounded; 0 means text only. */
  maxCalls: number | null;
  /** Names of the tools that may be called. */
  allowed: readonly string[];
  /** Free text before the calls (or as the whole answer). */
  freeText: boolean;
}

/** Which calls a turn may hold: `toolChoice`, `parallel` and `freeText`. */
export interface CallPolicyOptions {
  /**
   * Which tools the model may call, and whether it must (see {@link ToolChoice}); a name that is not declared throws
   * INVALID_OPTION.
   * @defaultValue "auto"
   */
  toolChoice?: ToolChoice;
  /**
   * How many calls one turn may hold: `true` any number, `false` one, an integer N ≥ 1 at most N (anything else
   * throws INVALID_OPTION).
   * @defaultValue true
   */
  parallel?: ParallelOption;
  /**
   * Whether the turn may hold free text before its calls (or be text only when no call is required); `false` with
   * `toolChoice: "none"` throws INVALID_OPTION, as it allows nothing.
   * @defaultValue true for "auto", "none" and an `allowed` list in mode "auto"; false for "required", a named tool
   * and an `allowed` list in mode "required"
   */
  freeText?: boolean;
}

/**
 * Resolves and checks the options. Free text defaults to on only for `auto` (a model deciding whether to call
 * usually says something first); when a call is forced, text before it is usually noise, so it is off unless asked.
 * Throws INVALID_OPTION for an unknown tool name or a bad value.
 */
export function resolveCallPolicy(o: CallPolicyOptions, toolNames: readonly string[]): CallPolicy {
  const choice = o.toolChoice ?? "auto";
  const parallel = o.parallel ?? true;
  let maxCalls: number | null;
  if (parallel === true) maxCalls = null;
  else if (parallel === false) maxCalls = 1;
  else if (typeof parallel === "number" && Number.isInteger(parallel) && parallel >= 1) maxCalls = parallel;
  else
    throw new ToolgramError(
      "INVALID_OPTION",
      `parallel must be true, false or an integer >= 1, got ${JSON.stringify(parallel)}`,
    );
  if (o.freeText !== undefined && typeof o.freeText !== "boolean") {
    throw new ToolgramError("INVALID_OPTION", `freeText must be a boolean, got ${JSON.stringify(o.freeText)}`);
  }

  if (isJsonObject(choice) && "allowed" in choice) return allowedChoice(choice, toolNames, maxCalls, o.freeText);
  const named = namedChoice(choice);
  if (named !== undefined) {
    if (!toolNames.includes(named)) {
      throw new ToolgramError(
        "INVALID_OPTION",
        `toolChoice names ${JSON.stringify(named)}, which is not a declared tool; declared: ${toolNames.map((n) => JSON.stringify(n)).join(", ") || "(none)"}`,
      );
    }
    return { minCalls: 1, maxCalls, allowed: [named], freeText: o.freeText ?? false };
  }
  switch (choice) {
    case "auto":
      return { minCalls: 0, maxCalls, allowed: toolNames, freeText: o.freeText ?? true };
    case "required":
      if (toolNames.length === 0)
        throw new ToolgramError("INVALID_OPTION", 'toolChoice "required" needs at least one tool');
      return { minCalls: 1, maxCalls, allowed: toolNames, freeText: o.freeText ?? false };
    case "none":
      if (o.freeText === false)
        throw new ToolgramError(
          "INVALID_OPTION",
          'toolChoice "none" with freeText: false allows nothing; drop one of them',
        );
      return { minCalls: 0, maxCalls: 0, allowed: [], freeText: true };
  }
  throw new ToolgramError(
    "INVALID_OPTION",
    `toolChoice must be "auto", "required", "none", a tool name or {type: "function", function: {name}}, got ${JSON.stringify(choice)}`,
  );
}

/** The tool name of a named choice; undefined for the keywords. */
function namedChoice(choice: unknown): string | undefined {
  if (typeof choice === "string")
    return choice === "auto" || choice === "required" || choice === "none" ? undefined : choice;
  if (isJsonObject(choice) && isJsonObject(choice.function) && typeof choice.function.name === "string")
    return choice.function.name;
  if (isJsonObject(choice) && typeof choice.name === "string") return choice.name;
  throw new ToolgramError(
    "INVALID_OPTION",
    `toolChoice must be "auto", "required", "none", a tool name or {type: "function", function: {name}}, got ${JSON.stringify(choice)}`,
  );
}

/** `{ allowed: [...], mode? }`: the named tools only; every name must be declared (all unknown ones are named). */
function allowedChoice(
  choice: Record<string, unknown>,
  toolNames: readonly string[],
  maxCalls: number | null,
  freeText: boolean | undefined,
): CallPolicy {
  const list = choice.allowed;
  const mode = choice.mode ?? "auto";
  const extra = Object.keys(choice).filter((k) => k !== "allowed" && k !== "mode");
  if (extra.length > 0)
    throw new ToolgramError(
      "INVALID_OPTION",
      `toolChoice {allowed} has unknown key(s) ${extra.map((k) => JSON.stringify(k)).join(", ")}; it takes allowed and mode`,
    );
  if (!Array.isArray(list) || list.some((n) => typeof n !== "string")) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `toolChoice.allowed must be an array of tool names, got ${JSON.stringify(list)}`,
    );
  }
  if (mode !== "auto" && mode !== "required")
    throw new ToolgramError(
      "INVALID_OPTION",
      `toolChoice.mode must be "auto" or "required", got ${JSON.stringify(mode)}`,
    );
  const unknown = (list as string[]).filter((n) => !toolNames.includes(n));
  if (unknown.length > 0) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `toolChoice.allowed names ${unknown.map((n) => JSON.stringify(n)).join(", ")}, not declared tool(s); declared: ${toolNames.map((n) => JSON.stringify(n)).join(", ") || "(none)"}`,
    );
  }
  if (list.length === 0)
    throw new ToolgramError("INVALID_OPTION", 'toolChoice.allowed is empty; use toolChoice "none" for text only');
  // declaration order, each once: the grammar does not depend on how the list was written
  const allowed = toolNames.filter((n) => (list as string[]).includes(n));
  if (mode === "required") return { minCalls: 1, maxCalls, allowed, freeText: freeText ?? false };
  return { minCalls: 0, maxCalls, allowed, freeText: freeText ?? true };
}
