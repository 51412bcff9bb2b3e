import { InvalidSchemaError } from "./errors.js";

/**
 * Named caps. Each has its own error code so a caller can tell which one tripped; all are fail-closed.
 */
export interface Limits {
  /**
   * Total code-point/item copies that bounded repetitions may expand into (code LIMIT_REPETITION). @defaultValue
   * 100_000
   */
  maxRepetitionExpansion: number;
  /** Largest `{min,max}` bound a single repetition may carry (code LIMIT_REPETITION). @defaultValue 100_000 */
  maxRepeatBound: number;
  /** `$ref` chain / schema nesting depth (code LIMIT_REF_DEPTH / LIMIT_NESTING). @defaultValue 200 */
  maxRefDepth: number;
  /** Schema nesting depth (code LIMIT_NESTING). @defaultValue 500 */
  maxNesting: number;
  /** Values in one `enum` (code LIMIT_ENUM_SIZE). @defaultValue 50_000 */
  maxEnumSize: number;
  /** IR nodes in the lowered grammar (code LIMIT_GRAMMAR_SIZE). @defaultValue 2_000_000 */
  maxGrammarSize: number;
  /**
   * Wall-clock compile budget in ms, checked inside every stage (code LIMIT_COMPILE_TIME); `Infinity` turns the
   * clock off. Emitters and matchers built later from the compiled grammar get the same budget again.
   * @defaultValue 5_000
   */
  maxCompileMs: number;
  /**
   * Deterministic compile budget in work steps, counted by every stage (code LIMIT_COMPILE_STEPS): the same input
   * gets the same verdict on any machine. The default admits what compiles in about 5 s on a 2-core machine.
   * Emitters and matchers built later from the compiled grammar get the same budget again. @defaultValue 30_000_000
   */
  maxCompileSteps: number;
  /** Number of tools in one set (code LIMIT_TOOLS). @defaultValue 5_000 */
  maxTools: number;
  /** States of a single determinized automaton (code LIMIT_AUTOMATON_SIZE). @defaultValue 200_000 */
  maxAutomatonStates: number;
}

/**
 * States a grammar's NFA may reach with the parts built lazily while decoding: `maxAutomatonStates` caps what the
 * compile builds, this many times it what decoding adds (a tool's arguments when a call first enters them, a counted
 * string's pairs). A refusal there would fail a generation under way, so the ceiling is far above the cap, and what a
 * grammar may add lazily is bounded at compile where it can be known (counted strings): the stored 117-, 235- and
 * 500-tool MCP sets build 23,192, 39,334 and 46,969 states whole. (An estimate of the whole grammar checked at compile
 * instead refused JSONSchemaBench schemas that decode well: nested bounded repetitions multiply in the estimate, not
 * in the states built.)
 */
export const LAZY_CEILING_FACTOR = 8;

/**
 * The default {@link Limits}: the compile budget and the size bounds that keep a hostile schema from exhausting memory.
 */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxRepetitionExpansion: 100_000,
  maxRepeatBound: 100_000,
  maxRefDepth: 200,
  maxNesting: 500,
  maxEnumSize: 50_000,
  maxGrammarSize: 2_000_000,
  maxCompileMs: 5_000,
  maxCompileSteps: 30_000_000,
  maxTools: 5_000,
  maxAutomatonStates: 200_000,
});

/**
 * How JSON is spelled. The default is the model's own rendering (Python `json.dumps`: `", "` between items, `": "`
 * after keys, no newlines), which is also what Qwen3's chat template produces for tool calls.
 */
export type WhitespaceOption =
  | "compact"
  | {
      /** JSON whitespace (space, tab, CR, LF) allowed at every token boundary, at most `maxRun` characters per run. */
      flexible: { maxRun: number };
    };

/**
 * Options of {@link compileSchema}, and the schema options of {@link compileTools}: strictness, whitespace,
 * unknown keywords and limits.
 */
export interface SchemaCompileOptions {
  /**
   * Refuse what cannot be enforced exactly (default). `false`: over-approximate and record a warning. @defaultValue
   * true
   */
  strict?: boolean;
  /**
   * JSON whitespace the grammar allows: `"compact"` (exactly the model's own spelling) or bounded runs at every token
   * boundary; an unbounded or out-of-range run length (not an integer 1–64) throws INVALID_OPTION.
   * @defaultValue "compact"
   */
  whitespace?: WhitespaceOption;
  /**
   * What an object schema that says nothing about `additionalProperties` allows. `"spec"`: any extra key (the JSON
   * Schema default; JSON mode's default). `"forbid"`: no undeclared key, for objects that declare `properties`
   * (tool arguments' default: a model inventing parameters is the failure to prevent). @defaultValue "spec"
   */
  additionalProperties?: "spec" | "forbid";
  /**
   * The order an object's declared properties may be written in. `"declared"`: the schema's declaration order
   * (each optional one may be skipped) — one spelling per value, what tool calls want. `"any"`: every order of the
   * declared properties, each at most once, the required ones present, undeclared ones between them — exact for
   * validators that read a value regardless of key order (JSON mode, `response_format`). Its grammar has one rule
   * per subset of an object's properties, so an object with more than `MAX_ANY_ORDER_PROPERTIES` (10) declared
   * properties in one presence combination is refused with LIMIT_GRAMMAR_SIZE naming the object.
   * @defaultValue "declared"
   */
  propertyOrder?: PropertyOrder;
  /**
   * Keywords and `format` names toolgram does not know.
   * - `"error-on-typos"` (default): an unknown keyword within a few edits of a keyword that constrains values
   *   (`requried`, `maxLenght`, `additonalProperties`; see `likelyTypoOf`) is refused with UNKNOWN_KEYWORD and a
   *   "did you mean"; any other unknown keyword (vendor keywords such as `markdownDescription`, `discriminator`,
   *   `self`; a typo of an annotation such as `decription`) is an annotation, recorded as an IGNORED_KEYWORD warning.
   *   An unknown `format` name within a few edits of a known one (`date_time`, `emial`) is refused with
   *   UNSUPPORTED_FORMAT; any other unknown format name is an annotation, with a warning.
   * - `"error"`: refuse every unknown keyword and format name (toolgram 0.1's behaviour).
   * - `"ignore"`: every unknown keyword and format name is an annotation, as the JSON Schema spec and ajv (`strict:
   *   false`) read them; a warning is recorded.
   * An annotation has no effect on validity, so the grammar stays exact. Under `strict: false` a refusal becomes a
   * warning (the keyword is ignored: a superset).
   * @defaultValue "error-on-typos"
   */
  unknownKeywords?: UnknownKeywordsOption;
  /**
   * Caps on the compile's work and the grammar's size, merged over {@link DEFAULT_LIMITS} (each given value must be
   * a positive number, else INVALID_OPTION); exceeding one throws a LimitExceededError naming it.
   * @defaultValue DEFAULT_LIMITS
   */
  limits?: Partial<Limits>;
}

/** How the declared properties of an object may be ordered (see `SchemaCompileOptions.propertyOrder`). */
export type PropertyOrder = "declared" | "any";
const PROPERTY_ORDERS: readonly PropertyOrder[] = ["declared", "any"];

/** Resolved options: every field present. */
/** How unknown keywords and format names are read (see `SchemaCompileOptions.unknownKeywords`). */
export type UnknownKeywordsOption = "error-on-typos" | "error" | "ignore";
const UNKNOWN_KEYWORDS_OPTIONS: readonly UnknownKeywordsOption[] = ["error-on-typos", "error", "ignore"];

export interface ResolvedSchemaOptions {
  strict: boolean;
  whitespace: WhitespaceOption;
  additionalProperties: "spec" | "forbid";
  unknownKeywords: UnknownKeywordsOption;
  propertyOrder: PropertyOrder;
  limits: Limits;
}

export function resolveSchemaOptions(
  o: SchemaCompileOptions | undefined,
  defaults: { additionalProperties: "spec" | "forbid" },
): ResolvedSchemaOptions {
  const limits = { ...DEFAULT_LIMITS, ...(o?.limits ?? {}) };
  for (const [k, v] of Object.entries(limits)) {
    if (typeof v !== "number" || !(v > 0)) {
      throw new InvalidSchemaError("INVALID_OPTION", `limits.${k} must be a positive number, got ${String(v)}`);
    }
  }
  if (o?.unknownKeywords !== undefined && !UNKNOWN_KEYWORDS_OPTIONS.includes(o.unknownKeywords)) {
    throw new InvalidSchemaError(
      "INVALID_OPTION",
      `unknownKeywords must be ${UNKNOWN_KEYWORDS_OPTIONS.map((x) => JSON.stringify(x)).join(", ")}, got ${JSON.stringify(o.unknownKeywords)}`,
    );
  }
  if (o?.propertyOrder !== undefined && !PROPERTY_ORDERS.includes(o.propertyOrder)) {
    throw new InvalidSchemaError(
      "INVALID_OPTION",
      `propertyOrder must be ${PROPERTY_ORDERS.map((x) => JSON.stringify(x)).join(" or ")}, got ${JSON.stringify(o.propertyOrder)}`,
    );
  }
  const ws = o?.whitespace ?? "compact";
  if (ws !== "compact") {
    const run = (ws as { flexible?: { maxRun?: unknown } }).flexible?.maxRun;
    if (typeof run !== "number" || !Number.isInteger(run) || run < 1 || run > 64) {
      throw new InvalidSchemaError(
        "INVALID_OPTION",
        `whitespace must be "compact" or { flexible: { maxRun: N } } with an integer 1 <= N <= 64 (unbounded whitespace is refused: it lets a model loop forever)`,
      );
    }
  }
  return {
    strict: o?.strict ?? true,
    whitespace: ws,
    additionalProperties: o?.additionalProperties ?? defaults.additionalProperties,
    unknownKeywords: o?.unknownKeywords ?? "error-on-typos",
    propertyOrder: o?.propertyOrder ?? "declared",
    limits,
  };
}
