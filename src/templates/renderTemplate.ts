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
      installListMethods();
      const env = new Environment();
      for (const [name, value] of Object.entries({ ...GLOBALS, ...context })) env.set(name, value);
      const result = new Interpreter(env).run(this.template.parsed);
      return result.value as string;
    } catch (e) {
      throw new ToolgramError("TEMPLATE_RENDER", `the chat template fails to render: ${errorMessage(e)}`, "", { cause: e });
    }
  }
}

/**
 * Python's list `append` and `pop` (Kimi K2's templates queue call ids with them), which @huggingface/jinja's arrays
 * lack: without them those templates fail with "Cannot call something that is not a function". The library does not
 * export its value classes, so they are taken from values it converts; the arrays' `builtins` getter then also
 * offers the two methods (and `length` stays current after them). Installed once, on first use.
 */
let listMethodsInstalled = false;
function installListMethods(): void {
  if (listMethodsInstalled) return;
  listMethodsInstalled = true;
  const env = new Environment();
  const sample = (name: string, value: unknown) => env.set(name, value) as { value: unknown; constructor: new (value: unknown) => { value: unknown } };
  const ArrayValue = sample("a", []).constructor;
  const IntegerValue = sample("i", 0).constructor;
  const FunctionValue = sample("f", () => null).constructor;
  const NullValue = sample("n", null).constructor;
  const proto = ArrayValue.prototype as { builtins: Map<string, unknown> };
  const original = Object.getOwnPropertyDescriptor(proto, "builtins");
  Object.defineProperty(proto, "builtins", {
    configurable: true,
    get(this: { value: { value: unknown }[] }) {
      const own = (original?.get?.call(this) as Map<string, unknown> | undefined) ?? new Map<string, unknown>();
      const items = this.value;
      const methods = new Map<string, unknown>(own);
      methods.set("length", new IntegerValue(items.length));
      methods.set("append", new FunctionValue((args: { value: unknown }[]) => (items.push(args[0]), new NullValue(null))));
      methods.set("pop", new FunctionValue((args: { value: unknown }[]) => {
        if (items.length === 0) throw new Error("pop from empty list");
        const at = args.length > 0 ? Number(args[0].value) : items.length - 1;
        const [item] = items.splice(at < 0 ? items.length + at : at, 1);
        if (item === undefined) throw new Error("pop index out of range");
        return item;
      }));
      return methods;
    },
  });
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
