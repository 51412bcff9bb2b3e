import { Environment, Interpreter, Template } from "@huggingface/jinja";
import { ToolgramError } from "../errors.js";

/** A chat message as chat templates read it (OpenAI's shape, plus `reasoning_content`). */
/** A typed part of a message's content (OpenAI's `{type: "text"}`; Mistral's `{type: "thinking"}`). */
export type TemplateContentPart = { type: "text"; text: string } | { type: "thinking"; thinking: string };

export interface TemplateMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | TemplateContentPart[] | null;
  reasoning_content?: string;
  /** gpt-oss's name for the reasoning. */
  thinking?: string;
  tool_calls?: TemplateToolCall[];
  tool_call_id?: string;
  name?: string;
}

export interface TemplateToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: Record<string, unknown> | string };
}

export interface RenderInput {
  messages: TemplateMessage[];
  tools?: unknown[];
  addGenerationPrompt?: boolean;
  enableThinking?: boolean;
}

/** What the template sees besides the conversation. */
export interface RenderOptions {
  /** `bos_token`. @defaultValue "" */
  bosToken?: string;
  /** `eos_token`. @defaultValue "" */
  eosToken?: string;
  /** The date `strftime_now` and `date_string` report, fixed so that renders never depend on the clock. @defaultValue 2026-01-02 */
  date?: Date;
  /** More variables, e.g. `{ reasoning_effort: "high" }`. */
  extraContext?: Record<string, unknown>;
}

/** A compiled chat template; parse once, render many probe conversations. */
export class ChatTemplate {
  readonly source: string;
  private readonly template: Template;
  private readonly options: RenderOptions;

  /** Throws a ToolgramError (INVALID_TEMPLATE) when @huggingface/jinja cannot parse the template. */
  constructor(source: string, options: RenderOptions = {}) {
    this.source = source;
    this.options = options;
    try {
      this.template = new Template(source);
    } catch (e) {
      throw new ToolgramError("INVALID_TEMPLATE", `the chat template does not parse with @huggingface/jinja: ${errorMessage(e)}`, "", { cause: e });
    }
  }

  /** Renders one conversation. Throws a ToolgramError (TEMPLATE_RENDER) with the engine's message on failure. */
  render(input: RenderInput): string {
    const date = this.options.date ?? new Date(Date.UTC(2026, 0, 2));
    const context: Record<string, unknown> = {
      bos_token: this.options.bosToken ?? "",
      eos_token: this.options.eosToken ?? "",
      // Llama 3.x prints "Today Date"; a fixed date keeps renders reproducible
      strftime_now: (format: string) => strftime(date, format),
      date_string: strftime(date, "%d %b %Y"),
      ...this.options.extraContext,
      messages: input.messages,
      add_generation_prompt: input.addGenerationPrompt ?? false,
      enable_thinking: input.enableThinking ?? true,
    };
    if (input.tools !== undefined) context.tools = input.tools;
    try {
      // Template.render would declare its own clock-reading strftime_now first; build the environment here instead
      const env = new Environment();
      for (const [name, value] of Object.entries({ ...GLOBALS, ...context })) env.set(name, value);
      const result = withPythonShims(new Interpreter(env)).run(this.template.parsed);
      return result.value as string;
    } catch (e) {
      throw new ToolgramError("TEMPLATE_RENDER", `the chat template fails to render: ${errorMessage(e)}`, "", { cause: e });
    }
  }
}

/** The globals @huggingface/jinja's Template.render declares (strftime_now aside: it is set per render). */
const GLOBALS: Record<string, unknown> = {
  false: false,
  true: true,
  none: null,
  False: false,
  True: true,
  None: null,
  raise_exception: (message: unknown) => {
    throw new Error(`raise_exception: ${String(message)}`);
  },
  range: (start: number, stop?: number, step = 1): number[] => {
    if (stop === undefined) [start, stop] = [0, start];
    if (step === 0) throw new Error("range() step must not be zero");
    const out: number[] = [];
    for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
    return out;
  },
};

/** The runtime values @huggingface/jinja passes around (its classes are not exported; `value` is the JS value). */
interface RuntimeValue {
  type: string;
  value: unknown;
  builtins?: Map<string, RuntimeValue>;
}

/** The interpreter's two hooks the shims wrap (internal methods of @huggingface/jinja's Interpreter). */
interface InterpreterHooks {
  applyFilter(operand: RuntimeValue, filterNode: { type: string; value?: string }, environment: unknown): RuntimeValue;
  evaluateMemberExpression(expr: { object: unknown; property: { type: string; value?: unknown }; computed: boolean }, environment: unknown): RuntimeValue;
  evaluate(node: unknown, environment: unknown): RuntimeValue;
}

/**
 * Python features real chat templates use that @huggingface/jinja lacks, added on one interpreter (the library stays
 * untouched): the `min` / `max` filters on a list (MiniCPM5), the `string` filter on a mapping (Apriel prints its
 * tools with it; written as JSON, as the library's own `string` writes a list) and `str.format` with `{}` / `{0}`
 * fields (Hunyuan 3 builds its markers with it). Anything else still fails with the library's message.
 */
function withPythonShims(interpreter: Interpreter): Interpreter {
  const hooks = interpreter as unknown as InterpreterHooks;
  const applyFilter = hooks.applyFilter.bind(interpreter);
  hooks.applyFilter = (operand, filterNode, environment) => {
    const name = filterNode.type === "Identifier" ? filterNode.value : undefined;
    if ((name === "min" || name === "max") && operand.type === "ArrayValue") {
      const items = operand.value as RuntimeValue[];
      if (items.length === 0) throw new Error(`${name} of an empty list`);
      return items.reduce((best, x) => ((name === "min" ? (x.value as number) < (best.value as number) : (x.value as number) > (best.value as number)) ? x : best));
    }
    if (name === "string" && operand.type === "ObjectValue") return applyFilter(operand, { type: "Identifier", value: "tojson" }, environment);
    return applyFilter(operand, filterNode, environment);
  };
  const member = hooks.evaluateMemberExpression.bind(interpreter);
  hooks.evaluateMemberExpression = (expr, environment) => {
    if (!expr.computed && expr.property.type === "Identifier" && expr.property.value === "format") {
      const object = hooks.evaluate(expr.object, environment);
      if (object.type === "StringValue") return pythonFormat(object);
    }
    return member(expr, environment);
  };
  return interpreter;
}

/** `"…{}…{0}…".format(a, b)`: positional fields only, each argument written as the library prints it. */
function pythonFormat(s: RuntimeValue): RuntimeValue {
  const StringValue = s.constructor as new (value: string) => RuntimeValue;
  const FunctionValue = (s.builtins?.get("upper") as RuntimeValue).constructor as new (fn: (args: RuntimeValue[]) => RuntimeValue) => RuntimeValue;
  return new FunctionValue((args: RuntimeValue[]) => {
    let next = 0;
    const text = (s.value as string).replace(/\{\{|\}\}|\{([0-9]*)\}/g, (m, index: string | undefined) => {
      if (m === "{{") return "{";
      if (m === "}}") return "}";
      const arg = args[index === undefined || index === "" ? next++ : Number(index)];
      if (arg === undefined) throw new Error(`str.format: no argument for ${m}`);
      return String(arg.value);
    });
    return new StringValue(text);
  });
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The few strftime directives chat templates use, in UTC. */
function strftime(date: Date, format: string): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  return format.replace(/%[YmdbBHMSy%]/g, (t) => {
    switch (t) {
      case "%Y": return String(date.getUTCFullYear());
      case "%y": return pad(date.getUTCFullYear() % 100);
      case "%m": return pad(date.getUTCMonth() + 1);
      case "%d": return pad(date.getUTCDate());
      case "%b": return MONTHS[date.getUTCMonth()].slice(0, 3);
      case "%B": return MONTHS[date.getUTCMonth()];
      case "%H": return pad(date.getUTCHours());
      case "%M": return pad(date.getUTCMinutes());
      case "%S": return pad(date.getUTCSeconds());
      default: return "%";
    }
  });
}
