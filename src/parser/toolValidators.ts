import AjvModule, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import addFormatsModule from "ajv-formats";
import type { Diagnostic } from "../diagnostic.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { closeObjects } from "../tools/closeObjects.js";
import { normalizeTools } from "../tools/normalizeTools.js";
import type { ParserTool } from "./types.js";
import { valueKind } from "./valueKind.js";

// ajv and ajv-formats are CommonJS with a `default` property; NodeNext sees the module object.
const Ajv = AjvModule.default;
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
const standaloneCode = standaloneModule.default;
/**
 * What a standalone validator's code requires (ajv's runtime helpers, ajv-formats' formats): given by the adopter
 * (the server's `createRequire`), so that this module, reached from the isomorphic root, imports no `node:` module.
 */
export type RequireFunction = (id: string) => unknown;

type AjvInstance = InstanceType<typeof Ajv>;

/**
 * A tool's validator as ajv standalone code (CommonJS, evaluated where it is adopted), or the message of the error its
 * schema failed to compile with: a validator compiled on one thread and adopted on another.
 */
export type ValidatorSource = { readonly code: string } | { readonly error: string };

/** An ajv error with whether it is an undeclared key that only the compiler's closing of objects forbids. */
export type ArgumentError = ErrorObject & { undeclared?: true };

/**
 * Validators of one tool set: compiled on first use, once per tool.
 *
 * With `forbidUndeclared` (the default of `parseToolCalls`, matching `compileTools`' default `additionalProperties:
 * "forbid"`), each tool's parameters are validated as `closeObjects` closes them: an object schema that declares
 * `properties` and says nothing about additional keys admits no others. A compiled grammar cannot emit such a key,
 * so a call holding one is one the grammar rejects; its ajv error is marked `undeclared` (reported as
 * UNDECLARED_ARGUMENT, not INVALID_ARGUMENTS) because plain JSON Schema would accept it. Objects whose keys other
 * applicators may declare (allOf, $ref, …) stay open here, where the compiler may still close them after merging.
 */
export class ToolValidators {
  private readonly byName = new Map<string, JsonObject>();
  private readonly closedByName = new Map<string, JsonValue>();
  private readonly compiled = new Map<string, ValidateFunction | Error>();
  /** Validators compiled elsewhere and not evaluated yet (adoptSources). */
  private readonly sources = new Map<string, ValidatorSource>();
  /** The `require` adopted sources are evaluated with. */
  private requireFn: RequireFunction | undefined;

  constructor(
    tools: readonly ParserTool[],
    private readonly forbidUndeclared = true,
  ) {
    for (const t of tools) if (!this.byName.has(t.name)) this.byName.set(t.name, t.parameters);
  }

  /** How a tagged-parameter format writes `key` of tool `name` (see valueKind); undefined for an undeclared tool. */
  valueKind(name: string, key: string): "string" | "json" | undefined {
    const schema = this.byName.get(name);
    return schema === undefined ? undefined : valueKind(schema, key);
  }

  /** The declared parameters schema of tool `name`; undefined for an undeclared tool. */
  parameters(name: string): JsonObject | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** ajv's errors for `args` (empty when valid); undefined when the tool is not declared. */
  validate(name: string, args: JsonObject): ArgumentError[] | undefined {
    const schema = this.byName.get(name);
    if (schema === undefined) return undefined;
    let fn = this.compiled.get(name);
    if (fn === undefined) {
      const source = this.sources.get(name);
      fn =
        source === undefined || this.requireFn === undefined
          ? compileValidator(this.schemaOf(name, schema))
          : fromSource(source, this.requireFn);
      this.compiled.set(name, fn);
      this.sources.delete(name);
    }
    if (fn instanceof Error) {
      return [
        {
          instancePath: "",
          schemaPath: "#",
          keyword: "schema",
          params: {},
          message: `the tool's schema does not compile: ${fn.message}`,
        },
      ];
    }
    if (fn(args)) return [];
    return (fn.errors ?? []).map((e) =>
      this.forbidUndeclared && e.keyword === "additionalProperties" && !declaredClosed(schema, e.schemaPath)
        ? { ...e, undeclared: true as const }
        : { ...e },
    );
  }

  /**
   * Every declared tool's validator as standalone code, for another thread's {@link ToolValidators.adoptSources}: the
   * compile (ajv's code generation, the costly part) is paid here.
   */
  validatorSources(): Map<string, ValidatorSource> {
    const out = new Map<string, ValidatorSource>();
    for (const [name, schema] of this.byName) out.set(name, compileSource(this.schemaOf(name, schema)));
    return out;
  }

  /**
   * Validators compiled elsewhere (`validatorSources` of the same tools and `forbidUndeclared`): each is evaluated
   * on its first use, which costs little next to compiling it; a tool validated already keeps its validator.
   */
  adoptSources(sources: ReadonlyMap<string, ValidatorSource>, requireFn: RequireFunction): void {
    this.requireFn = requireFn;
    for (const [name, source] of sources)
      if (this.byName.has(name) && !this.compiled.has(name)) this.sources.set(name, source);
  }

  /** The schema a tool's arguments are validated against (closed, with `forbidUndeclared`). */
  private schemaOf(name: string, schema: JsonObject): JsonObject {
    return this.forbidUndeclared ? this.closed(name, schema) : schema;
  }

  private closed(name: string, schema: JsonObject): JsonObject {
    let c = this.closedByName.get(name);
    if (c === undefined) this.closedByName.set(name, (c = closeObjects(schema)));
    return c as JsonObject;
  }
}

/** Whether the tool's own schema has the `additionalProperties` at `schemaPath` (a `#/…` pointer), i.e. ajv's error is not from the closing. */
function declaredClosed(schema: JsonObject, schemaPath: string): boolean {
  if (!schemaPath.startsWith("#/")) return true;
  let node: JsonValue = schema;
  for (const raw of schemaPath.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isJsonObject(node)) node = node[key];
    else return true;
    if (node === undefined) return false;
  }
  return true;
}

function newAjv(draft7: boolean, source = false): AjvInstance {
  const Ctor = draft7 ? Ajv : Ajv2020;
  const ajv = new Ctor({
    allErrors: true,
    strict: false,
    validateFormats: true,
    ...(source ? { code: { source } } : {}),
  });
  addFormats(ajv);
  return ajv;
}

/**
 * Creating an ajv instance with formats costs ~100 ms, so tool sets share one per draft. ajv keeps every schema it
 * compiled, so the shared instance is renewed after this many; a schema whose `$id` clashes with one compiled
 * earlier gets a private instance.
 */
const MAX_SHARED_COMPILES = 2000;
/** Shared instances by draft (0: 2020-12, 1: draft-07 and older), plain and keeping code source (2, 3). */
const shared: { ajv: AjvInstance; compiles: number }[] = [];

function compileShared(schema: JsonObject, source = false): { fn: ValidateFunction; ajv: AjvInstance } | Error {
  const draft7 = typeof schema.$schema === "string" && /draft-0[3-7]/.test(schema.$schema);
  const k = (draft7 ? 1 : 0) + (source ? 2 : 0);
  if (!shared[k] || shared[k].compiles >= MAX_SHARED_COMPILES) shared[k] = { ajv: newAjv(draft7, source), compiles: 0 };
  shared[k].compiles++;
  try {
    return { fn: shared[k].ajv.compile(schema), ajv: shared[k].ajv };
  } catch (e) {
    if (e instanceof Error && /already exists/.test(e.message)) {
      try {
        const ajv = newAjv(draft7, source);
        return { fn: ajv.compile(schema), ajv };
      } catch (e2) {
        return e2 instanceof Error ? e2 : new Error(String(e2));
      }
    }
    return e instanceof Error ? e : new Error(String(e));
  }
}

function compileValidator(schema: JsonObject): ValidateFunction | Error {
  const c = compileShared(schema);
  return c instanceof Error ? c : c.fn;
}

/** The validator of `schema` as standalone code, or its compile error's message. */
function compileSource(schema: JsonObject): ValidatorSource {
  const c = compileShared(schema, true);
  if (c instanceof Error) return { error: c.message };
  try {
    return { code: standaloneCode(c.ajv, c.fn) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** A validator from its standalone code (CommonJS: `module.exports` is the function). */
function fromSource(source: ValidatorSource, requireFn: RequireFunction): ValidateFunction | Error {
  if ("error" in source) return new Error(source.error);
  const module: { exports: { default?: ValidateFunction } & Partial<ValidateFunction> } = { exports: {} };
  new Function("require", "module", "exports", source.code)(requireFn, module, module.exports);
  return (module.exports.default ?? module.exports) as ValidateFunction;
}

const caches = { forbid: new WeakMap<object, ToolValidators>(), spec: new WeakMap<object, ToolValidators>() };

/**
 * Gives `tools` (this very array) validators built from `parserTools`, the list {@link toParserTools} gives for it,
 * read elsewhere (a server's parser worker), so that a parser of `tools` normalizes nothing on this thread; validators
 * already there are kept.
 */
export function adoptParserTools(
  tools: readonly unknown[],
  parserTools: readonly ParserTool[],
  undeclared: "forbid" | "spec" = "forbid",
): void {
  const cache = caches[undeclared];
  if (!cache.has(tools)) cache.set(tools, new ToolValidators(parserTools, undeclared === "forbid"));
}

/** The validators of a tools array, cached per array object (so repeated parses compile nothing). */
export function validatorsFor(tools: readonly unknown[], undeclared: "forbid" | "spec" = "forbid"): ToolValidators {
  const cache = caches[undeclared];
  let v = cache.get(tools);
  if (!v) {
    v = new ToolValidators(toParserTools(tools), undeclared === "forbid");
    cache.set(tools, v);
  }
  return v;
}

/** Tool lists normalized for a parser on this thread (toParserTools), for tests that count the work. */
export const parserToolReads = { normalized: 0 };

/**
 * The tools as the parser needs them, through the project's tool ingestion (OpenAI, MCP, Anthropic and bare
 * shapes; non-standard schema spellings standardized). Its warnings concern the declarations, not the output, and
 * are not reported here; compile the tools to see them. Throws ToolgramError for an invalid tool list.
 */
export function toParserTools(tools: readonly unknown[]): ParserTool[] {
  parserToolReads.normalized++;
  const warnings: Diagnostic[] = [];
  return normalizeTools(tools, warnings).map((t) => ({ name: t.name, parameters: t.parameters }));
}
