import AjvModule, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Diagnostic } from "../diagnostic.js";
import type { JsonObject } from "../json.js";
import { normalizeTools } from "../tools/normalizeTools.js";
import type { ParserTool } from "./types.js";

// ajv and ajv-formats are CommonJS with a `default` property; NodeNext sees the module object.
const Ajv = AjvModule.default;
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type AjvInstance = InstanceType<typeof Ajv>;

/** Validators of one tool set: compiled on first use, once per tool. */
export class ToolValidators {
  private readonly byName = new Map<string, JsonObject>();
  private readonly compiled = new Map<string, ValidateFunction | Error>();

  constructor(tools: readonly ParserTool[]) {
    for (const t of tools) if (!this.byName.has(t.name)) this.byName.set(t.name, t.parameters);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** ajv's errors for `args` (empty when valid); undefined when the tool is not declared. */
  validate(name: string, args: JsonObject): ErrorObject[] | undefined {
    const schema = this.byName.get(name);
    if (schema === undefined) return undefined;
    let fn = this.compiled.get(name);
    if (fn === undefined) {
      fn = compileShared(schema);
      this.compiled.set(name, fn);
    }
    if (fn instanceof Error) {
      return [{ instancePath: "", schemaPath: "#", keyword: "schema", params: {}, message: `the tool's schema does not compile: ${fn.message}` }];
    }
    return fn(args) ? [] : [...(fn.errors ?? [])];
  }

}

function newAjv(draft7: boolean): AjvInstance {
  const Ctor = draft7 ? Ajv : Ajv2020;
  const ajv = new Ctor({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  return ajv;
}

/**
 * Creating an ajv instance with formats costs ~100 ms, so tool sets share one per draft. ajv keeps every schema it
 * compiled, so the shared instance is renewed after this many; a schema whose `$id` clashes with one compiled
 * earlier gets a private instance.
 */
const MAX_SHARED_COMPILES = 2000;
const shared: { ajv: AjvInstance; compiles: number }[] = [];

function compileShared(schema: JsonObject): ValidateFunction | Error {
  const draft7 = typeof schema["$schema"] === "string" && /draft-0[3-7]/.test(schema["$schema"]);
  const k = draft7 ? 1 : 0;
  if (!shared[k] || shared[k].compiles >= MAX_SHARED_COMPILES) shared[k] = { ajv: newAjv(draft7), compiles: 0 };
  shared[k].compiles++;
  try {
    return shared[k].ajv.compile(schema);
  } catch (e) {
    if (e instanceof Error && /already exists/.test(e.message)) {
      try {
        return newAjv(draft7).compile(schema);
      } catch (e2) {
        return e2 instanceof Error ? e2 : new Error(String(e2));
      }
    }
    return e instanceof Error ? e : new Error(String(e));
  }
}

const cache = new WeakMap<object, ToolValidators>();

/** The validators of a tools array, cached per array object (so repeated parses compile nothing). */
export function validatorsFor(tools: readonly unknown[]): ToolValidators {
  let v = cache.get(tools);
  if (!v) {
    v = new ToolValidators(toParserTools(tools));
    cache.set(tools, v);
  }
  return v;
}

/**
 * The tools as the parser needs them, through the project's tool ingestion (OpenAI, MCP, Anthropic and bare
 * shapes; non-standard schema spellings standardized). Its warnings concern the declarations, not the output, and
 * are not reported here; compile the tools to see them. Throws ToolgramError for an invalid tool list.
 */
export function toParserTools(tools: readonly unknown[]): ParserTool[] {
  const warnings: Diagnostic[] = [];
  return normalizeTools(tools, warnings).map((t) => ({ name: t.name, parameters: t.parameters }));
}
