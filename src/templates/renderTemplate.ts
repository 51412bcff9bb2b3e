import { Environment, Interpreter, Template } from "@huggingface/jinja";
import { ToolgramError } from "../errors.js";
import { withJinja2Syntax } from "./jinja2Syntax.js";
import { percentFormat, pyStr } from "./pythonStrings.js";

/**
 * A typed part of a message's content (OpenAI's `{type: "text"}`; Mistral's `{type: "thinking"}`). Exported from
 * `toolgram`: a {@link TemplateMessage}'s content may be a list of these.
 */
export type TemplateContentPart = { type: "text"; text: string } | { type: "thinking"; thinking: string };

/** One message as chat templates read it (the OpenAI chat shape, plus `reasoning_content`). */
export interface TemplateMessage {
  /** Who speaks: the templates branch on it. */
  role: "system" | "user" | "assistant" | "tool";
  /** The text, a list of typed parts, or null (an assistant turn that only calls tools). */
  content: string | TemplateContentPart[] | null;
  /** The assistant's reasoning under the name most templates read (Qwen3, DeepSeek, GLM). */
  reasoning_content?: string;
  /** gpt-oss's name for the reasoning. */
  thinking?: string;
  /** Solar Open's name for the reasoning (vLLM's newer field). */
  reasoning?: string;
  /** The assistant turn's calls. */
  tool_calls?: TemplateToolCall[];
  /** On a `tool` message: the id of the call it answers. */
  tool_call_id?: string;
  /** On a `tool` message: the name of the tool that answered (some templates print it). */
  name?: string;
}

/**
 * One call of an assistant message as templates read it (OpenAI's shape). Exported from `toolgram` to build messages.
 */
export interface TemplateToolCall {
  /** The call id, paired with a tool message's `tool_call_id`. */
  id: string;
  /** The tool kind, always `"function"`. */
  type: "function";
  /** The tool's name and arguments: an object or a JSON text (templates differ in which one they print). */
  function: { name: string; arguments: Record<string, unknown> | string };
}

/** One conversation to render ({@link ChatTemplate.render}'s input). Exported from `toolgram` for that reason. */
export interface RenderInput {
  /** The conversation, as the template's `messages`. */
  messages: TemplateMessage[];
  /** The tool declarations, as the template's `tools` (and FireFunction's `functions` JSON); undefined when absent. */
  tools?: unknown[];
  /** Whether to open the assistant's next turn (`add_generation_prompt`). @defaultValue false */
  addGenerationPrompt?: boolean;
  /** The template's `enable_thinking` (Qwen3-style templates). @defaultValue true */
  enableThinking?: boolean;
}

/** What the template sees besides the conversation. */
export interface RenderOptions {
  /** `bos_token`. @defaultValue "" */
  bosToken?: string;
  /** `eos_token`. @defaultValue "" */
  eosToken?: string;
  /**
   * The date `strftime_now` and `date_string` report, fixed so that renders never depend on the clock. @defaultValue
   * 2026-01-02
   */
  date?: Date;
  /** More variables, e.g. `{ reasoning_effort: "high" }`. */
  extraContext?: Record<string, unknown>;
}

/** A compiled chat template; parse once, render many probe conversations. */
export class ChatTemplate {
  /** The template text as given (before the Jinja2 syntax it uses is rewritten for @huggingface/jinja). */
  readonly source: string;
  private readonly template: Template;
  private readonly options: RenderOptions;

  /** Throws a ToolgramError (INVALID_TEMPLATE) when @huggingface/jinja cannot parse the template. */
  constructor(source: string, options: RenderOptions = {}) {
    this.source = source;
    this.options = options;
    try {
      this.template = new Template(withJinja2Syntax(source));
    } catch (e) {
      throw new ToolgramError(
        "INVALID_TEMPLATE",
        `the chat template does not parse with @huggingface/jinja: ${errorMessage(e)}`,
        "",
        { cause: e },
      );
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
      // llama.cpp gives every template `datetime` (common_chat_extra_context); FireFunction v2 prints it
      datetime: strftime(date, "%b %d %Y"),
      // FireFunction v2's template prints the tools from `functions`, which its caller passes as their JSON (llama.cpp's
      // former FireFunction handler: `tools.dump(2)`, "" without tools); Python's Jinja2 fails on it undefined too
      functions: input.tools === undefined || input.tools.length === 0 ? "" : JSON.stringify(input.tools, null, 2),
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
      throw new ToolgramError("TEMPLATE_RENDER", `the chat template fails to render: ${errorMessage(e)}`, "", {
        cause: e,
      });
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
  evaluateMemberExpression(
    expr: { object: unknown; property: { type: string; value?: unknown }; computed: boolean },
    environment: unknown,
  ): RuntimeValue;
  evaluate(node: unknown, environment: unknown): RuntimeValue;
  evaluateArguments(args: unknown[], environment: unknown): [RuntimeValue[], Map<string, RuntimeValue>];
  evaluateBlock(statements: unknown[], environment: unknown): RuntimeValue;
}

/**
 * Python features real chat templates use that @huggingface/jinja lacks, added on one interpreter (the library stays
 * untouched): the `min` / `max` filters on a list (MiniCPM5), the `string` filter on a mapping (Apriel prints its
 * tools with it; written as JSON, as the library's own `string` writes a list), `str.format` with `{}` / `{0}`
 * fields (Hunyuan 3 builds its markers with it), a subscript with an undefined key, which Jinja2 reads as undefined
 * (Command R+'s `basic_type_map[json_spec.type]` on a schema without `type`), and dicts with integer keys (Seed-OSS's
 * `{0: 0, 512: 128, …}` budget table, read with `dictsort` and `table[16384]`), and a loop unpacking tuples
 * (Functionary v3.2's `for field, name in [("maximum", "Maximum"), …]`), and the `reject` / `select` filters with
 * the `equalto` test (Llama 3.1's `builtin_tools | reject('equalto', 'code_interpreter')`), and Jinja2's default
 * Undefined and Python's text of None and booleans where the library differs (see pythonOperator, TEXT_FILTERS,
 * ITERATING_FILTERS). Anything else still fails with the library's message.
 */
function withPythonShims(interpreter: Interpreter): Interpreter {
  const hooks = interpreter as unknown as InterpreterHooks;
  const evaluate = hooks.evaluate.bind(interpreter);
  // a loop's body, and the text its last turn wrote before a `break` (see evaluateBlock)
  const loopBodies = new WeakSet<unknown[]>();
  const brokenOff = new WeakMap<unknown[], string>();
  hooks.evaluate = (node, environment) => {
    // the library evaluates absent nodes too (a slice's missing bounds)
    const n = (node ?? {}) as { type?: string; value?: unknown };
    // an operand already evaluated by a shim, handed back to the library's own code (never evaluated twice)
    if (n.type === EVALUATED) return n.value as RuntimeValue;
    if (n.type === UNLESS_BROKEN) {
      // a loop's `else`: Jinja2 runs it when no turn ran; the library also when the first turn ends in `break`
      const { body, block } = n as unknown as { body: unknown[]; block: unknown[] };
      return brokenOff.has(body) ? runtimeValue("") : hooks.evaluateBlock(block, environment);
    }
    if (n.type === "ObjectLiteral")
      return objectLiteral(n.value as [unknown, unknown][], (x) => hooks.evaluate(x, environment));
    const loop = n as { type?: string; loopvar?: { type: string }; iterable?: { type: string; lhs?: unknown } };
    if (loop.type === "For" && loop.iterable !== undefined) {
      // `for a, b in [("x", "y"), …]`: Python unpacks a tuple as it unpacks a list; the library only a list. And
      // `for c in "text"` walks the characters (Python's iteration of a string); the library refuses a string. And
      // a loop over an undefined value runs no time (Jinja2's default Undefined iterates as empty)
      const select = loop.iterable.type === "SelectExpression";
      const iterable = hooks.evaluate(select ? loop.iterable.lhs : loop.iterable, environment);
      const items = {
        type: EVALUATED,
        value:
          iterable.type === "StringValue"
            ? characters(iterable)
            : iterable.type === "UndefinedValue"
              ? runtimeValue([])
              : tuplesAsLists(iterable),
      };
      const body = (loop as { body?: unknown[] }).body ?? [];
      loopBodies.add(body);
      const block = (loop as { defaultBlock?: unknown[] }).defaultBlock ?? [];
      const defaultBlock = block.length === 0 ? block : [{ type: UNLESS_BROKEN, body, block }];
      const walked = select ? { ...loop.iterable, lhs: items } : items;
      const result = evaluate({ ...loop, iterable: walked, defaultBlock }, environment);
      // the text a `break` cut off ends the loop's output
      const tail = brokenOff.get(body) ?? "";
      brokenOff.delete(body);
      return tail === "" ? result : runtimeValue(`${result.value as string}${tail}`);
    }
    const binary = n as { type?: string; operator?: { value: string }; left?: unknown; right?: unknown };
    const operator = binary.operator?.value ?? "";
    if (binary.type === "BinaryExpression" && PYTHON_OPERATORS.has(operator)) {
      const left = hooks.evaluate(binary.left, environment);
      // `and` / `or` never get here, so both sides are evaluated as the library would, once each
      const right = hooks.evaluate(binary.right, environment);
      const shimmed = pythonOperator(operator, left, right);
      if (shimmed !== undefined) return shimmed;
      const operand = (value: RuntimeValue) => ({ type: EVALUATED, value });
      return evaluate({ ...binary, left: operand(left), right: operand(right) }, environment);
    }
    return evaluate(node, environment);
  };
  hooks.evaluateBlock = (statements, environment) => {
    // the library's own loop, but a boolean is written as Python's str() writes it ("True"), not as JSON ("true"), and
    // the text written before a `break` / `continue` is kept, as in Jinja2 (the library drops the turn's whole text:
    // EXAONE 4's system turn, which ends with `continue`)
    let text = "";
    for (const statement of statements) {
      let v: RuntimeValue;
      try {
        v = hooks.evaluate(statement, environment);
      } catch (e) {
        const control = loopControl(e);
        if (control === undefined) throw e;
        const carried = text + ((e as { carried?: string }).carried ?? "");
        if (!loopBodies.has(statements)) {
          (e as { carried?: string }).carried = carried;
          throw e;
        }
        // the loop's own body: `continue` ends this turn with its text; `break` ends the loop after it
        if (control === "continue") return runtimeValue(carried);
        brokenOff.set(statements, carried);
        throw e;
      }
      if (v.type !== "NullValue" && v.type !== "UndefinedValue")
        text += v.type === "BooleanValue" ? pyStr(v) : String(v);
    }
    return runtimeValue(text);
  };
  shimFilters(interpreter, hooks);
  shimMemberExpressions(interpreter, hooks);
  return interpreter;
}

/** Filters as Jinja2 applies them where the library differs (see withPythonShims). */
function shimFilters(interpreter: Interpreter, hooks: InterpreterHooks): void {
  const applyFilter = hooks.applyFilter.bind(interpreter);
  hooks.applyFilter = (operand, filterNode, environment) => {
    const name = filterNode.type === "Identifier" ? filterNode.value : undefined;
    if ((name === "dictsort" || name === "items") && hasIntegerKeys(operand))
      return integerKeyedItems(operand, name === "dictsort");
    if ((name === "min" || name === "max") && operand.type === "ArrayValue") {
      const items = operand.value as RuntimeValue[];
      if (items.length === 0) throw new Error(`${name} of an empty list`);
      return items.reduce((best, x) =>
        (name === "min" ? (x.value as number) < (best.value as number) : (x.value as number) > (best.value as number))
          ? x
          : best,
      );
    }
    if (name === "string" && operand.type === "ObjectValue")
      return applyFilter(operand, { type: "Identifier", value: "tojson" }, environment);
    // Python's str(None) and str(True), and Jinja2's str(Undefined); the library refuses the first and the last, and
    // writes a boolean as JSON does
    if (name === "string" && PYTHON_TEXT.has(operand.type)) return runtimeValue(pyStr(operand));
    const call = filterNode as { type: string; callee?: { type: string; value?: unknown }; args?: unknown[] };
    const callee = call.type === "CallExpression" && call.callee?.type === "Identifier" ? call.callee.value : undefined;
    const filter = name ?? (typeof callee === "string" ? callee : "");
    // Jinja2's text filters take `str()` of what they get: "None", "True", "" for undefined (Command A's
    // `safety_mode | upper` with no safety_mode); the library refuses all three
    if (TEXT_FILTERS.has(filter) && PYTHON_TEXT.has(operand.type))
      return applyFilter(runtimeValue(pyStr(operand)), filterNode, environment);
    // Jinja2's default Undefined iterates as empty: its length is 0, its list [], its join ""; and None under the
    // filters llama.cpp's runtime gives an empty list for it (Functionary v3.1's `tools | selectattr(…)` with
    // `tools` set to none when a request declares none; Jinja2 raises)
    if (
      (operand.type === "UndefinedValue" && ITERATING_FILTERS.has(filter)) ||
      (operand.type === "NullValue" && NONE_AS_EMPTY_FILTERS.has(filter))
    )
      return filter === "items" ? runtimeValue([]) : hooks.applyFilter(runtimeValue([]), filterNode, environment);
    if ((name === "format" || callee === "format") && operand.type === "StringValue") {
      // Jinja2's `format` filter: `value % args`, or `value % kwargs` for `%(key)s` fields (never both)
      const [args, kwargs] = hooks.evaluateArguments(call.args ?? [], environment);
      if (args.length > 0 && kwargs.size > 0) throw new Error("format: positional and keyword arguments mixed");
      return runtimeValue(percentFormat(operand.value as string, kwargs.size > 0 ? kwargs : args));
    }
    if ((callee === "reject" || callee === "select") && operand.type === "ArrayValue") {
      // Llama 3.1's `builtin_tools | reject('equalto', 'code_interpreter')`: Jinja2's filters with its `equalto` test
      const args = (call.args ?? []).map((a) => hooks.evaluate(a, environment));
      if (args.length !== 2 || args[0].value !== "equalto")
        throw new Error(`${callee}: only the equalto test is supported`);
      const items = (operand.value as RuntimeValue[]).filter(
        (x) => (x.value === args[1].value) === (callee === "select"),
      );
      return new (operand.constructor as new (value: RuntimeValue[]) => RuntimeValue)(items);
    }
    return applyFilter(operand, filterNode, environment);
  };
}

/** Subscripts and methods as Python has them where the library differs (see withPythonShims). */
function shimMemberExpressions(interpreter: Interpreter, hooks: InterpreterHooks): void {
  const member = hooks.evaluateMemberExpression.bind(interpreter);
  hooks.evaluateMemberExpression = (expr, environment) => {
    if (expr.computed && expr.property.type !== "SliceExpression") {
      const object = hooks.evaluate(expr.object, environment);
      const property = hooks.evaluate(expr.property, environment);
      // Jinja2 looks an undefined key up, finds nothing and gives undefined; the library throws
      if (property.type === "UndefinedValue") return property;
      if (property.type === "IntegerValue" && isMapping(object))
        return (object.value as Map<unknown, RuntimeValue>).get(property.value) ?? runtimeValue(undefined);
      // a key no dict holds (a list, None): Jinja2's subscript catches Python's TypeError / KeyError and gives
      // undefined (MiniCPM3's `basic_type_map[json_spec.type]` for a schema `type: ["string", "null"]`)
      if (isMapping(object) && property.type !== "StringValue") return runtimeValue(undefined);
      return member(
        { ...expr, object: { type: EVALUATED, value: object }, property: { type: EVALUATED, value: property } },
        environment,
      );
    }
    if (!expr.computed && expr.property.type === "Identifier" && expr.property.value === "format") {
      const object = hooks.evaluate(expr.object, environment);
      if (object.type === "StringValue") return pythonFormat(object);
    }
    if (
      !expr.computed &&
      expr.property.type === "Identifier" &&
      (expr.property.value === "append" || expr.property.value === "pop")
    ) {
      const object = hooks.evaluate(expr.object, environment);
      if (object.type === "ArrayValue") return listMethod(object, expr.property.value);
    }
    return member(expr, environment);
  };
}

/**
 * Jinja2's `%` on a string (Python's printf-style formatting: a tuple gives the values, a mapping the `%(key)s` fields,
 * anything else is the one value), and `~` with an undefined or None operand (Jinja2 joins `str()` of each: "" and
 * "None"), a boolean (Python's "True" / "False"), and `*` of a string by an integer (repetition). Undefined otherwise: the
 * library's own operator then runs, its outputs left as they are. `+` of a string and an undefined or None value joins
 * the string with "", as llama.cpp's template runtime does (Jinja2 raises; Command R+'s `'): ' +
 * param_fields.description` and gpt-oss's `"// " + tool.description` meet a schema without a description, and
 * llama-server renders them so); `+` with an undefined operand otherwise stays an error, as in Jinja2.
 */
function pythonOperator(operator: string, left: RuntimeValue, right: RuntimeValue): RuntimeValue | undefined {
  if (operator === "+" && (NOTHING.has(left.type) || NOTHING.has(right.type))) {
    const [text, other] = left.type === "StringValue" ? [left, right] : [right, left];
    if (text.type === "StringValue" && NOTHING.has(other.type))
      return runtimeValue(left.type === "StringValue" ? (left.value as string) : (right.value as string));
  }
  if (operator === "%" && left.type === "StringValue") {
    const args =
      right.type === "TupleValue"
        ? (right.value as RuntimeValue[])
        : isMapping(right)
          ? (right.value as Map<unknown, RuntimeValue>)
          : [right];
    return runtimeValue(percentFormat(left.value as string, args));
  }
  if (operator === "~" && (PYTHON_TEXT.has(left.type) || PYTHON_TEXT.has(right.type)))
    return runtimeValue(`${textOf(left)}${textOf(right)}`);
  if (operator === "*") {
    // Python repeats a string by an integer, either way round (`'  ' * depth`); the library refuses it
    const [text, times] = left.type === "StringValue" ? [left, right] : [right, left];
    if (text.type === "StringValue" && times.type === "IntegerValue")
      return runtimeValue((text.value as string).repeat(Math.max(0, times.value as number)));
  }
  return undefined;
}

/** What `~` writes for a value: Python's str() for undefined, None and booleans, the library's text for the rest. */
function textOf(v: RuntimeValue): string {
  return PYTHON_TEXT.has(v.type) ? pyStr(v) : String(v.value);
}

/** The binary operators whose Python meaning the shims add (see pythonOperator). */
const PYTHON_OPERATORS = new Set(["%", "~", "*", "+"]);

/** Undefined and None: what llama.cpp's runtime joins to a string as "" (see pythonOperator). */
const NOTHING = new Set(["UndefinedValue", "NullValue"]);

/** The values whose text the library writes otherwise than Python's `str()` (or refuses to write). */
const PYTHON_TEXT = new Set(["UndefinedValue", "NullValue", "BooleanValue"]);

/** Jinja2's filters that take the text of their operand (`soft_str`), whatever it is. */
const TEXT_FILTERS = new Set(["trim", "upper", "lower", "capitalize", "title", "replace", "indent", "center"]);

/** Jinja2's filters that iterate their operand: an undefined one is an empty list to them. */
const ITERATING_FILTERS = new Set([
  "length",
  "count",
  "list",
  "join",
  "items",
  "map",
  "select",
  "reject",
  "selectattr",
  "rejectattr",
  "unique",
  "sort",
  "reverse",
]);

/** The filters llama.cpp's runtime applies to None as to an empty list (its `value_none_t` builtins). */
const NONE_AS_EMPTY_FILTERS = new Set(["items", "map", "reject", "rejectattr", "select", "selectattr", "unique"]);

/** A string's characters (code points, as Python iterates a string) as a list. */
function characters(s: RuntimeValue): RuntimeValue {
  return runtimeValue(Array.from(s.value as string));
}

/** A list whose tuple items are lists of the same items (for the library's loop unpacking); anything else as is. */
function tuplesAsLists(v: RuntimeValue): RuntimeValue {
  if (v.type !== "ArrayValue" || !(v.value as RuntimeValue[]).some((x) => x.type === "TupleValue")) return v;
  const ArrayValue = v.constructor as new (value: RuntimeValue[]) => RuntimeValue;
  return new ArrayValue(
    (v.value as RuntimeValue[]).map((x) => (x.type === "TupleValue" ? new ArrayValue(x.value as RuntimeValue[]) : x)),
  );
}

/** The library's `break` and `continue` signals (its classes are not exported: taken from what it throws). */
const LOOP_CONTROLS = new Map<unknown, "break" | "continue">(
  (["break", "continue"] as const).map((name) => {
    try {
      new Template(`{% ${name} %}`).render({});
    } catch (e) {
      return [(e as object).constructor, name];
    }
    throw new Error(`@huggingface/jinja no longer signals ${name} by throwing`);
  }),
);

/** Which loop control an exception is, if it is one. */
function loopControl(e: unknown): "break" | "continue" | undefined {
  return typeof e === "object" && e !== null ? LOOP_CONTROLS.get(e.constructor) : undefined;
}

/** The node type of a loop's `else` block, run unless the loop ended in `break` (see withPythonShims). */
const UNLESS_BROKEN = "ToolgramElseUnlessBroken";

/** The node type of an operand a shim has evaluated already (see withPythonShims). */
const EVALUATED = "ToolgramEvaluatedOperand";

/** A JavaScript value as the library's runtime value (its value classes are not exported: it converts them). */
function runtimeValue(value: unknown): RuntimeValue {
  return new Environment().set("v", value) as RuntimeValue;
}

function isMapping(v: RuntimeValue): boolean {
  return v.type === "ObjectValue" && v.value instanceof Map;
}

function hasIntegerKeys(v: RuntimeValue): boolean {
  return isMapping(v) && [...(v.value as Map<unknown, RuntimeValue>).keys()].some((k) => typeof k === "number");
}

/**
 * A dict literal. String keys as the library has them; integer keys as numbers of the map (Python's `{0: 0}`: `0`
 * and `"0"` are distinct keys); any other key fails as in the library.
 */
function objectLiteral(entries: [unknown, unknown][], evaluate: (node: unknown) => RuntimeValue): RuntimeValue {
  const mapping = new Map<unknown, RuntimeValue>();
  for (const [key, value] of entries) {
    const k = evaluate(key);
    if (k.type !== "StringValue" && k.type !== "IntegerValue")
      throw new Error(`Object keys must be strings or integers: got ${k.type}`);
    mapping.set(k.value, evaluate(value));
  }
  const ObjectValue = runtimeValue({}).constructor as new (value: Map<unknown, RuntimeValue>) => RuntimeValue;
  return new ObjectValue(mapping);
}

/**
 * `d | items` and `d | dictsort` of a dict with integer keys, each key back as an integer (the library makes every
 * key a string). Sorting compares keys as Python does; keys of both kinds do not compare (Python's TypeError).
 */
function integerKeyedItems(d: RuntimeValue, sort: boolean): RuntimeValue {
  const entries = [...(d.value as Map<unknown, RuntimeValue>).entries()];
  if (sort) {
    if (entries.some(([k]) => typeof k !== "number"))
      throw new Error("dictsort: the keys are integers and strings, which do not compare");
    entries.sort(([a], [b]) => (a as number) - (b as number));
  }
  const pairs = runtimeValue(entries.map(() => [null, null]));
  const ArrayValue = pairs.constructor as new (value: RuntimeValue[]) => RuntimeValue;
  return new ArrayValue(entries.map(([k, v]) => new ArrayValue([runtimeValue(k), v])));
}

/**
 * Python's `list.append(x)` and `list.pop([i])` on the list itself (Kimi K2's templates queue call ids with them):
 * the library's lists have no methods but `length` (read the `length` filter after them: the attribute is cached).
 */
function listMethod(list: RuntimeValue, name: "append" | "pop"): RuntimeValue {
  const items = list.value as RuntimeValue[];
  // the library's value classes are not exported: take them from values it converts
  const values = new Environment();
  const FunctionValue = (values.set("f", () => null) as RuntimeValue).constructor as new (
    fn: (args: RuntimeValue[]) => RuntimeValue,
  ) => RuntimeValue;
  const none = values.set("n", null) as RuntimeValue;
  return new FunctionValue((args: RuntimeValue[]) => {
    if (name === "append") {
      items.push(args[0]);
      return none;
    }
    if (items.length === 0) throw new Error("pop from empty list");
    const i = args.length > 0 ? Number(args[0].value) : items.length - 1;
    const [item] = items.splice(i < 0 ? items.length + i : i, 1);
    if (item === undefined) throw new Error("pop index out of range");
    return item;
  });
}

/** `"…{}…{0}…".format(a, b)`: positional fields only, each argument written as the library prints it. */
function pythonFormat(s: RuntimeValue): RuntimeValue {
  const StringValue = s.constructor as new (value: string) => RuntimeValue;
  const FunctionValue = (s.builtins!.get("upper") as RuntimeValue).constructor as new (
    fn: (args: RuntimeValue[]) => RuntimeValue,
  ) => RuntimeValue;
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

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** The strftime directives chat templates use, in UTC; `%-d` and the like (glibc's, which Python passes on) unpadded. */
function strftime(date: Date, format: string): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, "0");
  const hour12 = date.getUTCHours() % 12 === 0 ? 12 : date.getUTCHours() % 12;
  const dayOfYear = Math.floor((date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
  return format.replace(/%(-?)([YmdbBaAHIMSpjy%])/g, (t, unpadded: string, directive: string) => {
    const number = (n: number, width = 2): string => (unpadded === "-" ? String(n) : pad(n, width));
    switch (directive) {
      case "Y":
        return String(date.getUTCFullYear());
      case "y":
        return number(date.getUTCFullYear() % 100);
      case "m":
        return number(date.getUTCMonth() + 1);
      case "d":
        return number(date.getUTCDate());
      case "j":
        return number(dayOfYear, 3);
      case "H":
        return number(date.getUTCHours());
      case "I":
        return number(hour12);
      case "M":
        return number(date.getUTCMinutes());
      case "S":
        return number(date.getUTCSeconds());
      case "p":
        return date.getUTCHours() < 12 ? "AM" : "PM";
      case "b":
        return MONTHS[date.getUTCMonth()].slice(0, 3);
      case "B":
        return MONTHS[date.getUTCMonth()];
      case "a":
        return DAYS[date.getUTCDay()].slice(0, 3);
      case "A":
        return DAYS[date.getUTCDay()];
      default:
        return unpadded === "" ? "%" : t;
    }
  });
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
