import type { CompiledGrammar } from "../CompiledGrammar.js";
import type { OnRefusedTool } from "../compile.js";
import { ToolgramError } from "../errors.js";
import type { JsonObject } from "../json.js";
import type { Limits } from "../options.js";
import type { ModelTurnOptions } from "../prompt/ModelChat.js";
import { badRequest, type ApiError } from "./ApiError.js";
import type { ChatRequest } from "./ChatRequest.js";
import { GrammarCache } from "./GrammarCache.js";

/** The grammar one turn is generated under: the tool-call turn, a JSON value, or nothing (plain chat). */
export interface TurnGrammar {
  readonly grammar: CompiledGrammar | undefined;
  /**
   * The declared tools the output is parsed and validated against (empty in JSON mode and plain chat). Their strict
   * parser is compiled off the event loop once the generation is admitted (`GrammarCache.parserTools`, in runTurn),
   * not here: a request refused later (its prompt too long for the context) costs no parser compile.
   */
  readonly tools: readonly JsonObject[];
  /** JSON mode: the reply is one JSON value, not a tool-call turn. */
  readonly json: boolean;
}

function nameOf(t: JsonObject): string {
  return (t.function as JsonObject).name as string;
}

/** A refused declaration as a 400: the ToolgramError's code and message, and its schema path as the parameter. */
function refusal(e: ToolgramError, base: string, indexMap: readonly number[] | undefined): ApiError {
  let path = e.schemaPath;
  let param = base;
  if (indexMap !== undefined) {
    const m = /^\/(\d+)(\/.*)?$/.exec(path);
    if (m !== null) {
      const original = indexMap[Number(m[1])] ?? Number(m[1]);
      path = `/${original}${m[2] ?? ""}`;
      param = `${base}[${original}]`;
    }
  }
  const where = path === "" ? "" : ` (schema path ${base}${path})`;
  const message = e.message.endsWith(`(at ${e.schemaPath || "/"})`)
    ? e.message.slice(0, e.message.lastIndexOf(" (at "))
    : e.message;
  return badRequest(`${e.code}: ${message}${where}`, param, e.code);
}

/** The server's turn before it read formats from templates: Qwen3 / Hermes without reasoning. */
const QWEN3_TURN: ModelTurnOptions = { format: "qwen3", reasoning: "none" };

/**
 * Compiles (or finds in the cache) the grammar of the turn the request asks for: with tools, the tool-call turn of
 * the callable tools under the request's tool_choice and parallel_tool_calls (tool_choice "none": text that never
 * opens a call), in the model's format and reasoning (`turn`); with a response_format, one JSON value of its schema. A refused schema is a 400.
 * A refused tool is a 400 too, or left out / relaxed under `onRefusedTool` (the grammar's warnings name it).
 * `needsGbnf`: the engine constrains by GBNF, so a grammar GBNF cannot hold (a counted string) is a 400 as well.
 */
export async function planGrammar(
  request: ChatRequest,
  cache: GrammarCache,
  limits: Partial<Limits>,
  turn: ModelTurnOptions = QWEN3_TURN,
  onRefusedTool: OnRefusedTool = "error",
  needsGbnf = false,
): Promise<TurnGrammar> {
  const planned = await planTurnGrammar(request, cache, limits, turn, onRefusedTool);
  // an engine that constrains by GBNF (llama-server upstream) cannot serve a grammar GBNF refuses (a counted string):
  // a 400 naming the schema, before a slot is taken, rather than a failure inside the generation
  if (needsGbnf && planned.grammar !== undefined) {
    try {
      planned.grammar.toGbnf();
    } catch (e) {
      if (e instanceof ToolgramError)
        throw refusal(e, planned.json ? "response_format.json_schema.schema" : "tools", undefined);
      throw e;
    }
  }
  return planned;
}

async function planTurnGrammar(
  request: ChatRequest,
  cache: GrammarCache,
  limits: Partial<Limits>,
  turn: ModelTurnOptions,
  onRefusedTool: OnRefusedTool,
): Promise<TurnGrammar> {
  const rf = request.responseFormat;
  if (rf.type !== "text") {
    const schema: JsonObject = rf.type === "json_object" ? { type: "object" } : rf.schema;
    const strict = rf.type === "json_schema" ? rf.strict : true;
    const key = GrammarCache.keyOf(["json", schema, strict, limits]);
    try {
      // OpenAI's strict: false asks for best effort; toolgram's strict: false over-approximates what it cannot enforce.
      const grammar = await cache.get(key, { kind: "schema", schema, options: { strict, limits } });
      return { grammar, tools: [], json: true };
    } catch (e) {
      if (e instanceof ToolgramError) throw refusal(e, "response_format.json_schema.schema", undefined);
      throw e;
    }
  }
  if (request.tools.length === 0) return { grammar: undefined, tools: [], json: false };
  const callable =
    request.toolChoice === "none" ? request.tools : request.tools.filter((t) => request.callable.includes(nameOf(t)));
  const indexMap = callable.map((t) => request.tools.indexOf(t));
  const choice = typeof request.toolChoice === "object" ? request.toolChoice.name : request.toolChoice;
  const parallel = request.parallelToolCalls;
  const { format, reasoning, reasoningMarkers } = turn;
  const key = GrammarCache.keyOf([
    "tools",
    callable,
    choice,
    parallel,
    limits,
    format,
    reasoning,
    reasoningMarkers,
    onRefusedTool,
  ]);
  const compiling = cache.get(key, {
    kind: "tools",
    tools: callable,
    options: {
      format,
      reasoning,
      ...(reasoningMarkers === undefined ? {} : { reasoningMarkers: { ...reasoningMarkers } }),
      toolChoice: choice,
      parallel,
      limits,
      onRefusedTool,
    },
  });
  try {
    return { grammar: await compiling, tools: request.tools, json: false };
  } catch (e) {
    if (e instanceof ToolgramError) throw refusal(e, "tools", indexMap);
    throw e;
  }
}
