import type { Deadline } from "../Deadline.js";
import type { Diagnostic } from "../diagnostic.js";
import { LimitExceededError, ToolgramError } from "../errors.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { DEFAULT_LIMITS, type Limits } from "../options.js";
import { cloneJson, jsonDepthLimit, type CopySeen } from "./cloneJson.js";
import { childPath } from "../util/jsonPointer.js";
import type { NormalizedTool } from "./NormalizedTool.js";
import { parseToolsText } from "./parseToolsText.js";
import { standardizeSchema } from "./standardizeSchema.js";

/** Keys holding the arguments schema, by ecosystem: OpenAI/Hermes, MCP, Anthropic. */
const PARAMETER_KEYS = ["parameters", "inputSchema", "input_schema"] as const;

/** Keywords whose value is a subschema or a map of them: their presence means `parameters` is a schema, not a map. */
const OBJECT_VALUED_KEYWORDS = new Set([
  "properties",
  "items",
  "additionalProperties",
  "patternProperties",
  "$defs",
  "definitions",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "contains",
  "dependentSchemas",
  "unevaluatedProperties",
]);

/**
 * Reads a tool list in the shapes found in the wild and returns it in one canonical form.
 *
 * Accepted: an array of tools, `{tools: [...]}` (or legacy `{functions: [...]}`), one tool object, or a text —
 * a `<tools>…</tools>` / `<tools_input>…</tools_input>` block or bare JSON (one value, or one tool per line).
 * Each tool may be OpenAI `{type: "function", function: {name, description, parameters}}`, bare
 * `{name, description, parameters}`, MCP `{name, description, inputSchema}` or Anthropic `input_schema`; `parameters`
 * may also be a map of name → schema with per-property `required`/`optional` flags, with xLAM's `required` list beside it.
 * Non-standard spellings are rewritten into standard JSON Schema with a warning each (see `standardizeSchema`).
 * Missing or empty `parameters` means no arguments: `{type: "object", properties: {}, additionalProperties: false}`.
 *
 * Throws ToolgramError INVALID_TOOL (bad shape or name), DUPLICATE_TOOL, INVALID_INPUT (not JSON),
 * INVALID_SCHEMA (an unknown type name), LIMIT_TOOLS (more than `limits.maxTools`), LIMIT_NESTING (JSON deeper
 * than 4 × `limits.maxNesting`). Never mutates `input`; each rewrite is pushed onto `warnings`.
 */
export function normalizeTools(
  input: unknown,
  warnings: Diagnostic[],
  limits: Partial<Pick<Limits, "maxTools" | "maxNesting">> = {},
): NormalizedTool[] {
  return normalizeToolsWithin(input, warnings, limits);
}

/**
 * {@link normalizeTools} inside a compile: `deadline` is the compile's budget (copying counts its steps), `copied`
 * learns whether the input held a -0 (see `parametersKey`). Kept apart so that the public signature names no
 * internal type.
 */
export function normalizeToolsWithin(
  input: unknown,
  warnings: Diagnostic[],
  limits: Partial<Pick<Limits, "maxTools" | "maxNesting">>,
  deadline?: Deadline,
  copied?: CopySeen,
): NormalizedTool[] {
  const maxTools = limits.maxTools ?? DEFAULT_LIMITS.maxTools;
  const json = cloneJson(
    typeof input === "string" ? textInput(input) : input,
    "",
    jsonDepthLimit(limits.maxNesting ?? DEFAULT_LIMITS.maxNesting),
    deadline,
    copied,
  );
  const { items, base, single } = toolList(json);
  if (items.length > maxTools) {
    throw new LimitExceededError(
      "LIMIT_TOOLS",
      `${items.length} tools, above limits.maxTools ${maxTools}; send fewer tools or raise the limit`,
      base,
    );
  }
  const out: NormalizedTool[] = [];
  const seen = new Map<string, string>();
  items.forEach((t, i) => {
    const tool = normalizeTool(t, single ? base : childPath(base, i), warnings);
    const prev = seen.get(tool.name);
    if (prev !== undefined) {
      throw new ToolgramError(
        "DUPLICATE_TOOL",
        `tool name ${JSON.stringify(tool.name)} is declared twice (first at ${prev}); names must be unique`,
        tool.path,
      );
    }
    seen.set(tool.name, tool.path);
    out.push(tool);
  });
  return out;
}

function textInput(text: string): JsonValue {
  const values = parseToolsText(text);
  return values.length === 1 ? values[0] : values;
}

/** The tool items and the pointer of their list (`single`: the input is one tool, whose pointer is `base`). */
function toolList(v: JsonValue): { items: JsonValue[]; base: string; single?: boolean } {
  if (Array.isArray(v)) return { items: v, base: "" };
  if (isJsonObject(v)) {
    for (const key of ["tools", "functions"]) {
      const list = v[key];
      if (Array.isArray(list)) return { items: list, base: childPath("", key) };
      // Glaive-style datasets store the list as a JSON string
      if (typeof list === "string") return toolList(textInput(list));
    }
    if ("name" in v || "function" in v) return { items: [v], base: "", single: true };
  }
  throw new ToolgramError(
    "INVALID_TOOL",
    "expected an array of tools, {tools: [...]}, one tool object or a <tools> text block",
  );
}

function normalizeTool(t: JsonValue, path: string, warnings: Diagnostic[]): NormalizedTool {
  if (!isJsonObject(t))
    throw new ToolgramError(
      "INVALID_TOOL",
      'a tool must be an object such as {type: "function", function: {name, parameters}}',
      path,
    );
  let f: JsonObject = t;
  let fPath = path;
  if (isJsonObject(t.function)) {
    if (t.type !== undefined && t.type !== "function") {
      throw new ToolgramError(
        "INVALID_TOOL",
        `tool type ${JSON.stringify(t.type)} is not a function tool; only {type: "function", function: {...}} tools can be called`,
        childPath(path, "type"),
      );
    }
    f = t.function;
    fPath = childPath(path, "function");
  }
  const name = f.name;
  if (typeof name !== "string" || name.length === 0) {
    throw new ToolgramError("INVALID_TOOL", "a tool needs a non-empty string `name`", childPath(fPath, "name"));
  }
  const key = PARAMETER_KEYS.find((k) => f[k] !== undefined && f[k] !== null);
  const parametersPath = childPath(fPath, key ?? "parameters");
  const parameters = readParameters(
    key === undefined ? undefined : f[key],
    f.required,
    parametersPath,
    fPath,
    warnings,
  );
  const tool: NormalizedTool = { name, parameters, path, parametersPath };
  if (typeof f.description === "string") tool.description = f.description;
  return tool;
}

function readParameters(
  p: JsonValue | undefined,
  sideRequired: JsonValue | undefined,
  path: string,
  fPath: string,
  warnings: Diagnostic[],
): JsonObject {
  // no parameters means no arguments: closed explicitly, since `additionalProperties: "forbid"` only closes objects
  // that declare properties
  if (p === undefined || (isJsonObject(p) && Object.keys(p).length === 0))
    return { type: "object", properties: {}, additionalProperties: false };
  if (!isJsonObject(p))
    throw new ToolgramError("INVALID_TOOL", "a tool's parameters must be a JSON Schema object", path);
  let schema: JsonObject = p;
  if (isParameterMap(p)) {
    warnings.push({
      code: "NONSTANDARD_SCHEMA",
      message: "parameters is a map of name → schema; read as the `properties` of an object schema",
      schemaPath: path,
    });
    schema = { type: "object", properties: p };
    const flags = Object.values(p).some((x) => isJsonObject(x) && typeof x.required === "boolean");
    // without a list or flags, every parameter not marked optional is required (xLAM/ToolBench convention)
    if (!Array.isArray(sideRequired) && !flags) schema.required = Object.keys(p);
  }
  if (Array.isArray(sideRequired)) {
    warnings.push({
      code: "NONSTANDARD_SCHEMA",
      message: "`required` beside `parameters` read as the arguments' required list",
      schemaPath: childPath(fPath, "required"),
    });
    const inner = Array.isArray(schema.required) ? schema.required : [];
    schema.required = [...new Set([...inner, ...sideRequired])];
  }
  const std = standardizeSchema(schema, path, warnings).schema;
  if (!isJsonObject(std))
    throw new ToolgramError("INVALID_TOOL", "a tool's parameters must be a JSON Schema object", path);
  if (std.type === undefined && std.$ref === undefined && !("anyOf" in std) && !("oneOf" in std)) {
    // the arguments are always an object; many declarations leave that implicit
    return { type: "object", ...std };
  }
  if (std.type !== undefined && std.type !== "object") {
    throw new ToolgramError(
      "INVALID_TOOL",
      `a tool's arguments must be an object, but parameters has type ${JSON.stringify(std.type)}; wrap the value in an object property`,
      childPath(path, "type"),
    );
  }
  return std;
}

/** `{city: {type: "string"}, days: {...}}`: every value is a schema object and no key is a schema keyword. */
function isParameterMap(p: JsonObject): boolean {
  const keys = Object.keys(p);
  if (keys.length === 0) return false;
  if (keys.some((k) => OBJECT_VALUED_KEYWORDS.has(k))) return false;
  return keys.every((k) => isJsonObject(p[k]));
}
